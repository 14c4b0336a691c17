import Foundation
import HTTPClient
import Images

/// What the live image backends say over HTTP, through ``HTTPTransport`` (URLSession, a fresh connection per
/// request): a JSON `POST` to the service with its key, and downloads of the images it gives as URLs. Transport
/// failures and error statuses become ``ImageGenerationError``s, with the key redacted from anything the server says
/// (the same ``SecretRedactor`` as the upload clients).
///
/// Every request says `User-Agent: Unidirectional/<version>`. An API `POST` follows no redirect
/// (``RedirectPolicy/never``; on Linux URLSession would drop the body and re-send the key to any host): the 3xx comes
/// back as ``ImageGenerationError/unexpectedStatus(_:message:)``. An image download (a `GET` without the key) follows
/// redirects (``RedirectPolicy/download``), as CDNs use them.
///
/// ```swift
/// let http = ImageServiceHTTP(timeout: .seconds(60), apiKey: key)
/// let data = try await http.postJSON(body, to: endpoint, authorization: "KakaoAK \(key.rawValue)")
/// ```
struct ImageServiceHTTP: Sendable {
  private let transport: HTTPTransport

  /// Requests that fail after `timeout` without progress, redacting `apiKey`.
  init(timeout: Duration, apiKey: ImageAPIKey) {
    let seconds = timeout.timeInterval
    let redactor = apiKey.redactor
    transport = HTTPTransport(
      HTTPTransport.Configuration(
        requestTimeout: seconds, resourceTimeout: max(seconds * 4, 60), engine: .urlSession,
        connections: .freshPerRequest, redactor: redactor),
      failure: { error, _ in Self.failure(error, redactor: redactor) })
  }

  /// POSTs `body` as JSON to `url` with `authorization`; returns the body of a 2xx response.
  func postJSON(_ body: Data, to url: URL, authorization: String) async throws -> Data {
    var request = HTTPRequest(method: "POST", url: url, body: .bytes(body))
    request.setHeader("Content-Type", "application/json")
    request.setHeader("Accept", "application/json")
    request.setHeader("Authorization", authorization)
    let response = try await transport.send(request, redirects: .never)
    try check(response)
    return response.body
  }

  /// GETs an image from `url` (http or https only, never with the API key) and checks it is a PNG, JPEG or WebP.
  func downloadImage(_ url: URL) async throws -> (Data, ImageFormat) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
      throw ImageGenerationError.invalidImage("an image URL must be http or https")
    }
    let response: HTTPResponse
    do {
      response = try await transport.send(HTTPRequest(method: "GET", url: url), redirects: .download)
    } catch let error as ImageGenerationError {
      throw ImageGenerationError.imageDownloadFailed(error.description)
    }
    guard (200..<300).contains(response.status) else {
      throw ImageGenerationError.imageDownloadFailed("HTTP \(response.status) from \(url.host ?? "the image host")")
    }
    guard let format = ImageFormat(detecting: response.body) else {
      throw ImageGenerationError.invalidImage("the downloaded file is not a PNG, JPEG or WebP")
    }
    return (response.body, format)
  }

  // MARK: Failures

  /// A transport failure in the service's words: URLSession's errors by their code.
  private static func failure(_ error: any Error, redactor: SecretRedactor) -> any Error {
    if case HTTPError.invalidResponse = error {
      return ImageGenerationError.malformedResponse("the response was not HTTP")
    }
    guard let error = error as? URLError else {
      return ImageGenerationError.connectionFailed(redactor.serverText("\(error)"))
    }
    switch error.code {
    case .cancelled:
      return CancellationError()
    case .timedOut:
      return ImageGenerationError.timedOut
    case .badServerResponse, .cannotParseResponse:
      return ImageGenerationError.malformedResponse("the server sent an invalid HTTP response")
    default:
      return ImageGenerationError.connectionFailed(redactor.serverText(error.localizedDescription))
    }
  }

  // MARK: Statuses

  private func check(_ response: HTTPResponse) throws(ImageGenerationError) {
    let data = response.body
    let status = response.status
    switch status {
    case 200..<300:
      return
    case 400, 422:
      throw .rejected(message: serverMessage(in: data) ?? "HTTP \(status) without a message")
    case 401, 403:
      throw .unauthorized(status: status, message: serverMessage(in: data))
    case 429:
      throw .rateLimited(retryAfterSeconds: retryAfterSeconds(response))
    case 500..<600:
      throw .serverError(status: status, message: serverMessage(in: data))
    default:
      throw .unexpectedStatus(status, message: serverMessage(in: data))
    }
  }

  /// The human-readable message in an error body: `{"error": {"message"}}` (OpenAI), `{"msg"}` (Kakao),
  /// `{"message"}`, `{"detail"}` (FastAPI); else short plain text. Redacted, and cut to 300 characters.
  func serverMessage(in data: Data) -> String? {
    var message: String?
    if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
      if let error = object["error"] as? [String: Any], let text = error["message"] as? String {
        message = text
      } else if let text = object["error"] as? String {
        message = text
      } else if let text = object["msg"] as? String {
        message = text
      } else if let text = object["message"] as? String {
        message = text
      } else if let text = object["detail"] as? String {
        message = text
      } else if let details = object["detail"] as? [[String: Any]], let text = details.first?["msg"] as? String {
        message = text
      }
    } else if let text = String(data: data.prefix(1_000), encoding: .utf8),
      !text.isEmpty, !text.contains("<"),
      text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\t" })
    {
      message = text
    }
    guard let message else { return nil }
    let text = transport.redactor.serverText(message.trimmingCharacters(in: .whitespacesAndNewlines))
    return text.isEmpty ? nil : text
  }

  /// `Retry-After` as seconds: a whole number of seconds, or an HTTP date turned into seconds from now.
  private func retryAfterSeconds(_ response: HTTPResponse) -> Int? {
    guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else {
      return nil
    }
    if let seconds = Int(value), seconds >= 0 { return seconds }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return max(0, Int(date.timeIntervalSinceNow.rounded(.up)))
  }
}

extension Duration {
  /// The duration in seconds, as Foundation's `TimeInterval`.
  fileprivate var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
