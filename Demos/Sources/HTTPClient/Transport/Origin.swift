import Foundation

/// Scheme, host and port: what decides whether credentials may go along with a redirected request (RFC 6454).
///
/// ```swift
/// Origin(URL(string: "http://api.example:8000/a")!) == Origin(URL(string: "http://API.example:8000/b")!)   // true
/// Origin(URL(string: "http://api.example/a")!) == Origin(URL(string: "http://api.example:8080/a")!)        // false
/// ```
struct Origin: Equatable {
  let scheme: String
  let host: String
  let port: Int

  init(_ url: URL) {
    scheme = url.scheme?.lowercased() ?? ""
    host = url.host?.lowercased() ?? ""
    port = url.port ?? (scheme == "https" ? 443 : 80)
  }
}
