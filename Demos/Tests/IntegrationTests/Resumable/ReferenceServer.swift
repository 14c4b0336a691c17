import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Apple's resumable-upload reference server (`Demos/ResumableReferenceServer`, `NIOResumableUpload` from
/// swift-nio-extras 1.35.2, interop versions 3, 5 and 6) on 127.0.0.1, started and stopped by a test.
///
/// `Scripts/test` builds it before `swift test`; when it is not built, ``start(storage:port:arguments:)`` throws an
/// error that says how to build it (the test fails, it is never skipped).
///
/// ```swift
/// let server = try ReferenceServer.start(storage: folder, arguments: ["--drop-after", "15000000"])
/// defer { server.stop() }
/// … server.endpoint, server.storedFile(id), try await server.stats() …
/// ```
final class ReferenceServer: @unchecked Sendable {
  private struct ReadyLine: Decodable {
    let origin: String
    let port: Int
    let storage: String
  }

  /// `http://127.0.0.1:<port>`.
  let origin: URL
  let port: Int
  /// Where uploads are stored, one file per upload named after the `fileId` of the server's answer.
  let storage: URL
  private let server: ChildServer

  /// The package's folder.
  static let packageDirectory = BackendStack.repositoryRoot.appendingPathComponent("Demos/ResumableReferenceServer")
  /// The debug build `Scripts/test` makes.
  static let executable = packageDirectory.appendingPathComponent(".build/debug/ResumableReferenceServer")

  /// How to build the server, for failure messages.
  static let buildHint =
    "Apple's reference server is not built: run `swift build --package-path Demos/ResumableReferenceServer` "
    + "(Scripts/test does this before swift test; the first build takes a few minutes)."

  /// Starts the server storing into `storage` on `port` (0: a free one) with extra `arguments` (e.g.
  /// `--drop-after`, `--timeout`), and waits for its ready line.
  static func start(storage: URL, port: Int = 0, arguments: [String] = [], readyTimeout: TimeInterval = 15) throws
    -> ReferenceServer
  {
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      throw BackendStackError.notStarted(buildHint)
    }
    let (server, line) = try ChildServer.start(
      name: "reference-server", executable: executable,
      arguments: ["--storage", storage.path, "--port", String(port)] + arguments, readyTimeout: readyTimeout)
    guard let ready = try? JSONDecoder().decode(ReadyLine.self, from: Data(line.utf8)),
      let origin = URL(string: ready.origin)
    else {
      throw server.failure("the reference server printed an unexpected first line: \(line)")
    }
    return ReferenceServer(
      origin: origin, port: ready.port, storage: URL(fileURLWithPath: ready.storage), server: server)
  }

  private init(origin: URL, port: Int, storage: URL, server: ChildServer) {
    self.origin = origin
    self.port = port
    self.storage = storage
    self.server = server
  }

  /// Stops the server (stdin closed, then terminated, then killed). Safe to call more than once.
  func stop() {
    server.stop(timeout: 5)
  }

  /// The upload endpoint (any path but `/resumable_upload/…` and `/stats` takes uploads).
  var endpoint: URL { origin.appendingPathComponent("uploads") }

  /// The stored file of the upload the server answered with `fileId`.
  func storedFile(_ fileID: String) -> URL { storage.appendingPathComponent(fileID) }

  /// The fault hook's counters.
  struct Stats: Decodable {
    /// Bytes the server received in all (request heads and bodies, every connection).
    let bytesReceived: Int64
    let connectionsDropped: Int
    let uploadsCompleted: Int
  }

  /// `GET /stats`.
  func stats() async throws -> Stats {
    let (_, data) = try await LoopbackHTTP.send("GET", origin.appendingPathComponent("stats"))
    return try JSONDecoder().decode(Stats.self, from: data)
  }
}
