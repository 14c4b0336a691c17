import Foundation

@testable import HTTPClient

/// The body of `Scripts/fuzz redirect`, run by the corpus test over every committed input too: a server's redirect
/// — any status, any `Location` — decided on by each ``RedirectPolicy`` for a request that may carry credentials.
///
/// The input: a byte choosing the policy, two for the status (0–999), one for how many redirects were followed, one
/// for the request's URL and one for the original request's URL (from a few, http and https, a presigned query
/// among them), one for the method and the credentials (and whether there is a `Location` at all); the rest is the
/// `Location` (UTF-8).
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - a policy follows only what it says: `never` nothing, `refused` nothing (a 3xx with a location is its error),
///   the upload policies only 307/308 within their redirect limit (`sameOrigin` within the original origin,
///   `anyOrigin` never from https to http), `download` only 301–303/307/308 within its limit;
/// - a followed request goes to an absolute http(s) URL with a host, keeps the method, the body and the other
///   headers, and has no `Authorization` or `Cookie` once it leaves the original origin;
/// - anything else is the final response or ``HTTPError/redirectRefused(status:from:to:reason:)``, whose hosts
///   never carry the request URL's query or user info.
///
/// ```swift
/// RedirectFuzz.fuzz(Data([0, 1, 51, 0, 0, 0, 3]) + Data("https://other.example/x".utf8))   // 307, refused
/// ```
enum RedirectFuzz {
  static let urls = [
    "http://api.example:8000/presigned-urls?token=secret-query",
    "https://bucket.s3.example/key.png?X-Amz-Signature=secret-query",
    "http://127.0.0.1/upload",
    "https://[::1]:8443/a/b",
    "http://user:secret-password@api.example:8000/x",
  ].compactMap(URL.init(string:))

  static func fuzz(_ data: Data) {
    var input = data[...]
    let policies: [RedirectPolicy] = [.sameOrigin, .anyOrigin, .never, .refused(reason: "a reason"), .download]
    let policy = policies[Int(input.popFirst() ?? 0) % policies.count]
    let status = Int(UInt16(input.popFirst() ?? 0) << 8 | UInt16(input.popFirst() ?? 0)) % 1_000
    let followed = Int(input.popFirst() ?? 0) % 20
    let current = urls[Int(input.popFirst() ?? 0) % urls.count]
    let originalURL = urls[Int(input.popFirst() ?? 0) % urls.count]
    let flags = input.popFirst() ?? 0
    let location = flags & 0x40 != 0 ? nil : String(decoding: input, as: UTF8.self)
    let method = ["PUT", "POST", "GET", "PATCH"][Int(flags & 3)]
    var headers: [(name: String, value: String)] = [("Content-Type", "image/png")]
    if flags & 4 != 0 { headers.append(("Authorization", "Bearer secret-token")) }
    if flags & 8 != 0 { headers.append(("cookie", "session=secret-cookie")) }
    let body = HTTPRequestBody.bytes(Data("body".utf8))
    let request = HTTPRequest(method: method, url: current, headers: headers, body: body)
    let original = HTTPRequest(method: method, url: originalURL, headers: headers, body: body)

    let next: HTTPRequest?
    do {
      next = try policy.follow(
        status: status, location: location, after: request, original: original, redirects: followed)
    } catch {
      guard case let .redirectRefused(refusedStatus, from, to, _)? = error as? HTTPError else {
        fuzzFailure("not a refused redirect: \(error)")
      }
      fuzzRequire(refusedStatus == status, "refused \(refusedStatus) for \(status)")
      // The request's query and user info hold secrets; a host from the location may hold anything it says.
      for host in [from] + (location?.contains("secret") == true ? [] : [to]) {
        fuzzRequire(!host.contains("secret"), "a refusal names \(host)")
      }
      if case .download = policy { fuzzFailure("a download refused a redirect") }
      if case .never = policy { fuzzFailure("never refused a redirect") }
      if case .refused = policy { fuzzRequire((300..<400).contains(status) && location != nil, "refused \(status)") }
      return
    }
    guard let next else {
      if case .refused = policy { fuzzRequire(!(300..<400).contains(status) || location == nil, "let \(status) by") }
      return
    }
    switch policy {
    case .never, .refused:
      fuzzFailure("a policy that follows nothing followed \(status)")
    case .sameOrigin, .anyOrigin:
      fuzzRequire([307, 308].contains(status), "an upload followed \(status)")
      fuzzRequire(followed < RedirectPolicy.maxRedirects, "an upload followed redirect \(followed + 1)")
      if case .sameOrigin = policy { fuzzRequire(Origin(next.url) == Origin(originalURL), "left the origin") }
      if case .anyOrigin = policy {
        fuzzRequire(
          !(current.scheme == "https" && next.url.scheme?.lowercased() == "http"), "followed https to plain http")
      }
    case .download:
      fuzzRequire([301, 302, 303, 307, 308].contains(status), "a download followed \(status)")
      fuzzRequire(followed < RedirectPolicy.maxDownloadRedirects, "a download followed redirect \(followed + 1)")
    }
    let scheme = next.url.scheme?.lowercased()
    fuzzRequire(scheme == "http" || scheme == "https", "followed to \(scheme ?? "no scheme")")
    fuzzRequire(next.url.host?.isEmpty == false, "followed to a URL without a host")
    fuzzRequire(next.method == method && next.body.parts == body.parts, "the redirected request changed")
    fuzzRequire(next.header("Content-Type") == "image/png", "the redirected request lost its content type")
    if Origin(next.url) != Origin(originalURL) {
      fuzzRequire(next.header("Authorization") == nil && next.header("Cookie") == nil, "credentials to \(next.url)")
    } else {
      fuzzRequire(next.headers.count == headers.count, "credentials dropped within the origin")
    }
  }
}
