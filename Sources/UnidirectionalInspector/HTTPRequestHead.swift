import Foundation

/// A parsed HTTP/1.1 request head: method, path, query and the headers the inspector checks.
///
/// ```swift
/// let head = HTTPRequestHead(Array("GET /api/step?n=3&token=ab HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8))
/// head?.path           // "/api/step"
/// head?.query["n"]     // "3"
/// ```
struct HTTPRequestHead {
  let method: String
  let path: String
  let query: [String: String]
  /// Header names lowercased.
  let headers: [String: String]

  /// Parses `bytes` (split on bytes: `"\r\n"` is one `Character` in Swift); `nil` when it is not a request head.
  init?(_ bytes: [UInt8]) {
    var lines: [String] = []
    var start = 0
    for index in bytes.indices where bytes[index] == 10 {
      var end = index
      if end > start, bytes[end - 1] == 13 { end -= 1 }
      lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
      start = index + 1
    }
    guard let requestLine = lines.first else { return nil }
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else { return nil }
    method = String(parts[0])
    guard let components = URLComponents(string: String(parts[1])) else { return nil }
    path = components.percentEncodedPath
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
    self.query = query
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      // A repeated Host header is ambiguous: refuse the request rather than pick one.
      if name == "host", headers[name] != nil { return nil }
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    self.headers = headers
  }
}
