import Foundation

/// Which redirects ``HTTPTransport`` follows itself; URLSession is never allowed to follow one (on Linux it re-sends
/// `Authorization` to any host and drops the body). Each kind of request names its policy.
///
/// An upload's policies (``sameOrigin``, ``anyOrigin``) re-send the same method, the same headers and the **whole**
/// body to the new URL, at most ``maxRedirects`` times. Only `307` and `308` are followed (they keep the method and
/// body); `301`, `302` and `303` would turn an upload into a `GET` and are refused, as is any redirect the policy does
/// not allow. A refusal is ``HTTPError/redirectRefused(status:from:to:reason:)``, naming both servers by host
/// and port.
///
/// | request | policy | followed | refused |
/// |---|---|---|---|
/// | API `POST` with the bearer token (`/presigned-urls`, `/upload-model`) | ``sameOrigin`` | 307/308 to the same scheme, host and port | another origin: the token and the user's file would go to a server they were not meant for |
/// | presigned storage `PUT` (no credentials in its headers) | ``anyOrigin`` | 307/308 to any http(s) origin (S3 redirects to a bucket's region) | `https` → `http` |
/// | a resumable upload's requests | ``refused(reason:)`` | none | any 3xx with a `Location` (it would re-send a body and credentials elsewhere) |
/// | an image service's API `POST` | ``never`` | none: the 3xx is the response | — |
/// | an image download (`GET`, no credentials) | ``download`` | 301/302/303/307/308 to any http(s) origin, at most ``maxDownloadRedirects`` | — (past the limit the 3xx is the response) |
///
/// ```swift
/// let response = try await transport.send(request, redirects: .sameOrigin)
/// ```
public enum RedirectPolicy: Sendable {
  /// Follow 307/308 within the request's origin only (requests that carry credentials).
  case sameOrigin
  /// Follow 307/308 to any http(s) origin, never from https to http; `Authorization` and `Cookie` are dropped when
  /// the origin changes.
  case anyOrigin
  /// Follow none: a 3xx is the final response, for the client to report.
  case never
  /// Follow none, and fail on a 3xx with a `Location` with
  /// ``HTTPError/redirectRefused(status:from:to:reason:)`` giving `reason`.
  case refused(reason: String)
  /// A download (a `GET` without credentials): follow 301, 302, 303, 307 and 308 to any http(s) origin, as
  /// URLSession does, dropping `Authorization` and `Cookie` across origins; at most ``maxDownloadRedirects``.
  case download

  /// The most redirects an upload's policy follows in a row.
  public static let maxRedirects = 5
  /// The most redirects a download follows in a row (as Apple's URLSession).
  public static let maxDownloadRedirects = 16

  /// The request to send after `status` with `location` answered `request`, or nil when the response is the final
  /// one (`status` is not a followed redirect with a location).
  ///
  /// - Parameter redirects: How many redirects have been followed before this one.
  /// - Throws: ``HTTPError/redirectRefused(status:from:to:reason:)`` when the policy refuses it.
  func follow(
    status: Int, location: String?, after request: HTTPRequest, original: HTTPRequest,
    redirects: Int
  ) throws -> HTTPRequest? {
    switch self {
    case .sameOrigin, .anyOrigin:
      return try followUpload(
        status: status, location: location, after: request, original: original, redirects: redirects)
    case .never:
      return nil
    case let .refused(reason):
      guard (300..<400).contains(status), let location else { return nil }
      throw HTTPError.redirectRefused(
        status: status, from: HTTPTransport.hostDescription(request.url),
        to: HTTPTransport.hostDescription(URL(string: location, relativeTo: request.url)), reason: reason)
    case .download:
      guard [301, 302, 303, 307, 308].contains(status), redirects < Self.maxDownloadRedirects,
        let target = Self.target(location, from: request)
      else { return nil }
      return Self.request(request, redirectedTo: target, original: original)
    }
  }

  /// ``sameOrigin`` and ``anyOrigin``: 307/308 only, the whole request again.
  private func followUpload(
    status: Int, location: String?, after request: HTTPRequest, original: HTTPRequest,
    redirects: Int
  ) throws -> HTTPRequest? {
    guard [301, 302, 303, 307, 308].contains(status), let location, !location.isEmpty else { return nil }
    let from = HTTPTransport.hostDescription(request.url)
    guard let target = Self.target(location, from: request) else {
      throw HTTPError.redirectRefused(
        status: status, from: from, to: "an invalid location", reason: "the location is not an http(s) URL")
    }
    let to = HTTPTransport.hostDescription(target)
    func refuse(_ reason: String) -> HTTPError {
      .redirectRefused(status: status, from: from, to: to, reason: reason)
    }
    guard status == 307 || status == 308 else {
      throw refuse("HTTP \(status) would turn the \(request.method) into a GET without the file")
    }
    guard redirects < Self.maxRedirects else { throw refuse("more than \(Self.maxRedirects) redirects") }
    if case .sameOrigin = self, Origin(target) != Origin(original.url) {
      throw refuse("another origin would receive the credentials and the file")
    }
    if case .anyOrigin = self, request.url.scheme?.lowercased() == "https", target.scheme?.lowercased() == "http" {
      throw refuse("it leads from https to plain http")
    }
    return Self.request(request, redirectedTo: target, original: original)
  }

  /// The absolute http(s) URL `location` names, resolved against `request`'s URL; `nil` without a host (an empty one,
  /// as in `http://@/x`, names no server).
  private static func target(_ location: String?, from request: HTTPRequest) -> URL? {
    guard let location, !location.isEmpty,
      let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = target.host, !host.isEmpty
    else { return nil }
    return target
  }

  /// `request` sent to `target` instead, without credentials when it leaves `original`'s origin.
  private static func request(
    _ request: HTTPRequest, redirectedTo target: URL, original: HTTPRequest
  ) -> HTTPRequest {
    var next = request
    next.url = target
    if Origin(target) != Origin(original.url) {
      next.removeHeader("Authorization")
      next.removeHeader("Cookie")
    }
    return next
  }
}
