import Foundation
import HTTPTransfer
import Images

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP part shared by the live backends: sends a request with a timeout, honours task cancellation, maps
/// transport failures and error statuses to ``ImageGenerationError`` (redacting the key from anything the server
/// says, with the same ``SecretRedactor`` as the upload clients), and downloads images given as URLs.
///
/// Every request says `User-Agent: Unidirectional/<version>`. URLSession follows no redirect of an API `POST` (on
/// Linux it would drop the body and re-send the key to any host): the 3xx comes back as
/// ``ImageGenerationError/unexpectedStatus(_:message:)``. An image download (a `GET` without credentials) follows
/// redirects, as CDNs use them.
struct ImageHTTPTransport: Sendable {
  let timeout: Duration
  let apiKey: ImageAPIKey

  /// POSTs `body` as JSON to `url` with `authorization`; returns the body of a 2xx response.
  func postJSON(_ body: Data, to url: URL, authorization: String) async throws -> Data {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.httpBody = body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue(authorization, forHTTPHeaderField: "Authorization")
    let (data, response) = try await send(request)
    try check(response, data: data)
    return data
  }

  /// GETs an image from `url` (http or https only, never with the API key) and checks it is a PNG, JPEG or WebP.
  func downloadImage(_ url: URL) async throws -> (Data, ImageFormat) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
      throw ImageGenerationError.invalidImage("an image URL must be http or https")
    }
    var request = URLRequest(url: url)
    request.httpMethod = "GET"
    let data: Data
    let response: HTTPURLResponse
    do {
      (data, response) = try await send(request)
    } catch let error as ImageGenerationError {
      throw ImageGenerationError.imageDownloadFailed(error.description)
    }
    guard (200..<300).contains(response.statusCode) else {
      throw ImageGenerationError.imageDownloadFailed("HTTP \(response.statusCode) from \(url.host ?? "the image host")")
    }
    guard let format = ImageFormat(detecting: data) else {
      throw ImageGenerationError.invalidImage("the downloaded file is not a PNG, JPEG or WebP")
    }
    return (data, format)
  }

  // MARK: Sending

  private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    var request = request
    request.timeoutInterval = timeout.timeInterval
    request.setValue(UserAgent.value, forHTTPHeaderField: "User-Agent")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout.timeInterval
    configuration.timeoutIntervalForResource = max(timeout.timeInterval * 4, 60)
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration, delegate: Self.redirectGuard, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }

    let task = TaskBox()
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation {
          (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
          let dataTask = session.dataTask(with: request) { data, response, error in
            if let error {
              continuation.resume(throwing: error)
            } else if let response = response as? HTTPURLResponse {
              continuation.resume(returning: (data ?? Data(), response))
            } else {
              continuation.resume(throwing: ImageGenerationError.malformedResponse("the response was not HTTP"))
            }
          }
          task.start(dataTask)
        }
      } onCancel: {
        task.cancel()
      }
    } catch let error as URLError {
      if Task.isCancelled || error.code == .cancelled { throw CancellationError() }
      throw map(error)
    }
  }

  /// Refuses the redirects URLSession would get wrong: any for a request with a body (it would arrive empty) and any
  /// to another origin for a request with `Authorization` (the key would go along).
  private static let redirectGuard = RedirectDecidingDelegate { task, next in
    let original = task.originalRequest
    let hasBody = original?.httpMethod.map { $0 != "GET" && $0 != "HEAD" } ?? true
    let hasCredentials = original?.value(forHTTPHeaderField: "Authorization") != nil
    let sameOrigin = original?.url.map(Origin.init) == next.url.map(Origin.init)
    return hasBody || (hasCredentials && !sameOrigin) ? nil : next
  }

  private func map(_ error: URLError) -> ImageGenerationError {
    switch error.code {
    case .timedOut:
      return .timedOut
    case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed,
      .secureConnectionFailed:
      return .connectionFailed(apiKey.redactor.serverText(error.localizedDescription))
    case .badServerResponse, .cannotParseResponse:
      return .malformedResponse("the server sent an invalid HTTP response")
    default:
      return .connectionFailed(apiKey.redactor.serverText(error.localizedDescription))
    }
  }

  // MARK: Statuses

  private func check(_ response: HTTPURLResponse, data: Data) throws(ImageGenerationError) {
    let status = response.statusCode
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
    let text = apiKey.redactor.serverText(message.trimmingCharacters(in: .whitespacesAndNewlines))
    return text.isEmpty ? nil : text
  }

  /// `Retry-After` as seconds: a whole number of seconds, or an HTTP date turned into seconds from now.
  private func retryAfterSeconds(_ response: HTTPURLResponse) -> Int? {
    guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces) else {
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

/// The data task of one request, so the cancellation handler (which may run first) can reach it.
private final class TaskBox: @unchecked Sendable {
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var isCancelled = false

  func start(_ task: URLSessionDataTask) {
    lock.lock()
    self.task = task
    let cancelled = isCancelled
    lock.unlock()
    if cancelled { task.cancel() }
    task.resume()
  }

  func cancel() {
    lock.lock()
    isCancelled = true
    let task = self.task
    lock.unlock()
    task?.cancel()
  }
}

extension Duration {
  /// The duration in seconds, as Foundation's `TimeInterval`.
  fileprivate var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
