import Foundation

/// The draft's rules that need no I/O: which failures an upload survives, what a response says, how long the next
/// append is, how a file name goes out.
extension ResumableUploadRun {
  static func isInterruption(_ error: HTTPError) -> Bool {
    switch error {
    case .connectionLost, .timedOut, .network, .cannotConnect: return true
    default: return false
    }
  }

  /// Worth another attempt of a resumption: an interruption, a 5xx, an offset conflict.
  static func isResumable(_ error: HTTPError) -> Bool {
    if case let .httpStatus(status, _) = error, status == 409 { return true }
    return isInterruption(error) || error.isRetryable
  }

  /// `Upload-Complete: ?1`, or `Upload-Incomplete: ?0` (interop versions 3 to 6 of Apple's server).
  static func isCompletion(_ headers: HTTPHeaderFields) -> Bool {
    StructuredField.boolean(headers["Upload-Complete"]) == true
      || StructuredField.boolean(headers["Upload-Incomplete"]) == false
  }

  /// The upload resource a response names in `Location`, resolved against `base`; only http(s) with a host (an
  /// empty one names no server).
  static func location(in headers: HTTPHeaderFields, relativeTo base: URL) -> URL? {
    guard let value = headers["Location"],
      let url = URL(string: value, relativeTo: base)?.absoluteURL,
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }

  /// The `Upload-Limit` a response announces.
  static func limits(in headers: HTTPHeaderFields) -> UploadLimits? {
    headers["Upload-Limit"].flatMap(UploadLimits.init(fieldValue:))
  }

  /// The next request's body length: the rest, or `max-append-size` of it.
  static func appendLength(from offset: Int64, size: Int64, limits: UploadLimits) -> Int64 {
    let rest = size - offset
    guard let maxAppend = limits.maxAppendSize, maxAppend > 0 else { return rest }
    return min(rest, maxAppend)
  }

  /// An error status as ``HTTPError/httpStatus(_:message:)`` with the server's message, token redacted.
  func failure(_ response: HTTPResponse) -> HTTPError {
    .httpStatus(response.status, message: transport.serverMessage(in: response.body))
  }

  /// `inline; filename="…"` for a plain ASCII name, `inline; filename*=UTF-8''…` otherwise.
  static func contentDisposition(_ filename: String?) -> String? {
    guard let filename, !filename.isEmpty else { return nil }
    let plain = filename.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }
    if plain { return "inline; filename=\"\(filename)\"" }
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(0x80)))
    allowed.insert(charactersIn: "!#$&+-.^_`|~")
    let encoded = filename.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return encoded.isEmpty ? nil : "inline; filename*=UTF-8''\(encoded)"
  }

  static func modificationDate(of url: URL) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
  }
}
