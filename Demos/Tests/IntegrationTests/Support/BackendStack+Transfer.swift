import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The backend's transfer test hooks (see "Transfer test hooks" in `Demos/Backend/app.py`): a second origin (the
/// witness) and what it received.
extension BackendStack {
  /// A request the witness received (`GET {witness}/events`); never the Authorization value.
  struct WitnessEvent: Decodable, Equatable {
    let method: String
    let path: String
    let hasAuthorization: Bool
    let userAgent: String?
    let contentLength: Int?
    let bytesReceived: Int
    let attempt: Int?
    let outcome: String?
  }

  /// The witness's base URL, `http://127.0.0.1:<another port>`: another origin than ``apiURL`` and ``s3URL``.
  func witness() async throws -> URL {
    struct Answer: Decodable { let base: String }
    let answer = try await get(Answer.self, "test-hooks/witness")
    guard let url = URL(string: answer.base), url.host == "127.0.0.1", url.port != apiURL.port else {
      throw BackendStackError.badAnswer("the witness is not another loopback origin: \(answer.base)")
    }
    return url
  }

  /// Everything the witness received, oldest first.
  func witnessEvents() async throws -> [WitnessEvent] {
    let url = try await witness().appendingPathComponent("events")
    let (_, data) = try await LoopbackHTTP.send("GET", url)
    return try JSONDecoder().decode([WitnessEvent].self, from: data)
  }

  /// The witness's events for paths starting with `prefix`.
  func witnessEvents(pathPrefix prefix: String) async throws -> [WitnessEvent] {
    try await witnessEvents().filter { $0.path.hasPrefix(prefix) }
  }
}
