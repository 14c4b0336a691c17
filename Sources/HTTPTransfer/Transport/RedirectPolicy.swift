import Foundation

/// Which redirects the upload transport follows itself; URLSession is never allowed to follow one (on Linux it
/// re-sends `Authorization` to any host and drops the body).
///
/// A followed redirect re-sends the same method, the same headers and the **whole** body to the new URL, at most
/// ``maxRedirects`` times. Only `307` and `308` are followed (they keep the method and body); `301`, `302` and `303`
/// would turn an upload into a `GET` and are refused, as is any redirect the policy does not allow. A refusal is
/// ``ImageUploadError/redirectRefused(status:from:to:reason:)``, naming both servers by host and port.
///
/// | request | policy | followed | refused |
/// |---|---|---|---|
/// | API `POST` with the bearer token (`/presigned-urls`, `/upload-model`) | ``sameOrigin`` | 307/308 to the same scheme, host and port | another origin: the token and the user's file would go to a server they were not meant for |
/// | presigned storage `PUT` (no credentials in its headers) | ``anyOrigin`` | 307/308 to any http(s) origin (S3 redirects to a bucket's region) | `https` → `http` |
///
/// ```swift
/// let next = try RedirectPolicy.sameOrigin.follow(status: 307, location: "/v2/upload", after: request, redirects: 0)
/// ```
public enum RedirectPolicy: Sendable {
  /// Follow 307/308 within the request's origin only (requests that carry credentials).
  case sameOrigin
  /// Follow 307/308 to any http(s) origin, never from https to http; `Authorization` and `Cookie` are dropped when
  /// the origin changes.
  case anyOrigin

  static let maxRedirects = 5

  /// The request to send after `status` with `location` answered `request`, or nil when `status` is not a
  /// redirect with a location (the response is then the final one).
  ///
  /// - Parameter redirects: How many redirects have been followed before this one.
  /// - Throws: ``ImageUploadError/redirectRefused(status:from:to:reason:)`` when the policy does not follow it.
  func follow(
    status: Int, location: String?, after request: HTTPTransferRequest, original: HTTPTransferRequest,
    redirects: Int
  ) throws -> HTTPTransferRequest? {
    guard [301, 302, 303, 307, 308].contains(status), let location, !location.isEmpty else { return nil }
    let from = HTTPTransport.hostDescription(request.url)
    guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
    else {
      throw ImageUploadError.redirectRefused(
        status: status, from: from, to: "an invalid location", reason: "the location is not an http(s) URL")
    }
    let to = HTTPTransport.hostDescription(target)
    func refuse(_ reason: String) -> ImageUploadError {
      .redirectRefused(status: status, from: from, to: to, reason: reason)
    }
    guard status == 307 || status == 308 else {
      throw refuse("HTTP \(status) would turn the \(request.method) into a GET without the file")
    }
    guard redirects < Self.maxRedirects else { throw refuse("more than \(Self.maxRedirects) redirects") }
    let sameOrigin = Origin(target) == Origin(original.url)
    switch self {
    case .sameOrigin:
      guard sameOrigin else { throw refuse("another origin would receive the credentials and the file") }
    case .anyOrigin:
      guard !(request.url.scheme?.lowercased() == "https" && scheme == "http") else {
        throw refuse("it leads from https to plain http")
      }
    }
    var next = request
    next.url = target
    if !sameOrigin {
      next.removeHeader("Authorization")
      next.removeHeader("Cookie")
    }
    return next
  }
}
