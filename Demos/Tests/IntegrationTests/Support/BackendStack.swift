import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real backend (`Demos/Backend/run_stack.py`: moto S3 + the FastAPI app, or several app instances behind
/// its round-robin proxy) on free 127.0.0.1 ports, started and stopped by an integration test. Everything the
/// backend stores is in S3 (``storedFile(key:in:)`` fetches it).
///
/// One stack per test class: subclass ``BackendStackTestCase``, then in a test
///
/// ```swift
/// let stack = try Self.backend.stack()   // fails the test if the stack could not start
/// … stack.apiURL, stack.token, try await stack.events() …
/// ```
///
/// The stack exits when its stdin closes, so even a crashed test process leaves nothing running.
final class BackendStack: @unchecked Sendable {
  /// The line `run_stack.py` prints once both servers answer.
  private struct ReadyLine: Decodable {
    let api: String
    let s3: String
    let bucket: String
    let token: String
    let instances: [String]
  }

  /// The API server, e.g. `http://127.0.0.1:41234`.
  let apiURL: URL
  /// The S3 server (moto).
  let s3URL: URL
  /// The bucket media goes to.
  let bucket: String
  /// The API server's bearer token (generated per stack; never print it).
  let token: String
  /// Each app instance's own URL (``apiURL`` is the proxy in front of them when there are several).
  let instanceURLs: [URL]

  private let server: ChildServer

  /// The repository's root folder, found from this file's path.
  static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // IntegrationTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // Demos
    .deletingLastPathComponent()

  /// Starts `python3 Demos/Backend/run_stack.py` and waits at most `readyTimeout` seconds for its JSON line.
  ///
  /// The stack starts in 2–5 s on an idle machine; while other test processes start theirs on two busy cores, one
  /// uvicorn took over 15 s to import its app (run_stack.py's own default budget). So the budget is generous: a
  /// stack that cannot start still fails, a slow one is waited for.
  ///
  /// - Parameters:
  ///   - testHooks: Enables `/test-hooks/*` and the `X-Test-Fault` header.
  ///   - environment: Extra environment for the app (e.g. `RESUMABLE_MAX_AGE_SECONDS`).
  ///   - apiPort: The API's port (default: a free one); a restarted stack takes its predecessor's.
  ///   - instances: App instances; more than one puts run_stack.py's round-robin proxy at ``apiURL``.
  static func start(
    testHooks: Bool = true,
    environment extraEnvironment: [String: String] = [:],
    apiPort: Int? = nil,
    instances: Int = 1,
    readyTimeout: TimeInterval = 90
  ) throws -> BackendStack {
    let script = repositoryRoot.appendingPathComponent("Demos/Backend/run_stack.py")
    guard FileManager.default.fileExists(atPath: script.path) else {
      throw BackendStackError.notStarted("no run_stack.py at \(script.path)")
    }
    guard TestPython.isAvailable else { throw BackendStackError.notStarted(TestPython.missingMessage) }
    var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
    environment["PYTHONUNBUFFERED"] = "1"
    environment["NO_PROXY"] = "127.0.0.1,localhost"
    environment["no_proxy"] = "127.0.0.1,localhost"
    let (server, line) = try ChildServer.start(
      name: "run_stack.py", executable: TestPython.executable,
      arguments: [script.path] + (testHooks ? ["--test-hooks"] : [])
        + (apiPort.map { ["--api-port", String($0)] } ?? [])
        + ["--instances", String(instances), "--timeout", String(max(1, Int(readyTimeout) - 10))],
      environment: environment, readyTimeout: readyTimeout)
    guard let ready = try? JSONDecoder().decode(ReadyLine.self, from: Data(line.utf8)),
      let api = URL(string: ready.api), let s3 = URL(string: ready.s3)
    else {
      throw server.failure("run_stack.py printed an unexpected first line (\(line.count) characters)")
    }
    return BackendStack(
      apiURL: api, s3URL: s3, bucket: ready.bucket, token: ready.token,
      instanceURLs: ready.instances.compactMap(URL.init(string:)), server: server)
  }

  private init(apiURL: URL, s3URL: URL, bucket: String, token: String, instanceURLs: [URL], server: ChildServer) {
    self.apiURL = apiURL
    self.s3URL = s3URL
    self.bucket = bucket
    self.token = token
    self.instanceURLs = instanceURLs
    self.server = server
  }

  /// Restarts every app instance on its port (S3 keeps everything): run_stack.py's `restart` command.
  func restartInstances(timeout: TimeInterval = 60) throws {
    let answer = try server.send("restart", timeout: timeout)
    guard answer.contains("\"ok\"") else { throw BackendStackError.badAnswer("restart answered \(answer)") }
  }

  /// Stops the stack: closes its stdin (it shuts its servers down and exits), then terminates it if it has not
  /// exited within `timeout` seconds, and kills it as a last resort. Safe to call more than once.
  func stop(timeout: TimeInterval = 10) {
    server.stop(timeout: timeout)
  }

  // MARK: Talking to the stack

  /// A GET to the API server's `path` (with `query`), decoded as `T`; throws on a non-2xx answer.
  func get<T: Decodable>(_ type: T.Type, _ path: String, query: [URLQueryItem] = []) async throws -> T {
    var components = URLComponents(url: apiURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
    if !query.isEmpty { components?.queryItems = query }
    guard let url = components?.url else { throw BackendStackError.badAnswer("bad URL for \(path)") }
    let (status, data) = try await LoopbackHTTP.send("GET", url, headers: [("Accept", "application/json")])
    guard (200..<300).contains(status) else {
      throw BackendStackError.badAnswer(
        "GET \(path) answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))")
    }
    return try JSONDecoder().decode(T.self, from: data)
  }

  /// A request a test hook recorded (`GET /test-hooks/events`).
  struct Event: Decodable, Equatable {
    let id: Int?
    let kind: String
    let method: String
    let path: String
    let contentType: String?
    let hasAuthorization: Bool
    let userAgent: String?
    let bytesReceived: Int
    let disconnectedEarly: Bool
    let completed: Bool
    let code: String?
  }

  /// Every request the test hooks have recorded, oldest first.
  func events() async throws -> [Event] {
    try await get([Event].self, "test-hooks/events")
  }

  /// An object as S3 stored it (`GET /test-hooks/object?key=`).
  struct StoredObject: Decodable, Equatable {
    let key: String
    let sha256: String
    let size: Int
    let contentType: String?
  }

  /// The object stored under `key`.
  func object(key: String) async throws -> StoredObject {
    try await get(StoredObject.self, "test-hooks/object", query: [URLQueryItem(name: "key", value: key)])
  }

  /// The keys of the objects under `prefix` (`GET /test-hooks/objects`), e.g. `uploads/` for stored files.
  func objectKeys(prefix: String) async throws -> [String] {
    struct Listing: Decodable { let keys: [String] }
    return try await get(Listing.self, "test-hooks/objects", query: [URLQueryItem(name: "prefix", value: prefix)]).keys
  }

  /// Downloads the object stored under `key` into `folder` (straight from moto) and returns the file, e.g. to
  /// compare it with what was uploaded.
  func storedFile(key: String, in folder: URL) async throws -> URL {
    let url = s3URL.appendingPathComponent(bucket).appendingPathComponent(key)
    // moto answers an anonymous GET of a private object 403, but never checks a signature: any SigV4-shaped
    // header for its default account will do (no secret involved).
    let (status, data) = try await LoopbackHTTP.send("GET", url, headers: [("Authorization", Self.motoAuthorization)])
    guard status == 200 else { throw BackendStackError.badAnswer("GET \(key) from S3 answered \(status)") }
    let file = folder.appendingPathComponent("stored-\(UUID().uuidString)-\(url.lastPathComponent)")
    try data.write(to: file)
    return file
  }

  /// What moto takes for a signed request (it does not verify signatures).
  static let motoAuthorization =
    "AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0"

  /// A 127.0.0.1 port nothing listens on (bound, then released), for "server down" tests.
  static func unusedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BackendStackError.notStarted("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw BackendStackError.notStarted("bind() failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw BackendStackError.notStarted("getsockname() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// Why the stack could not be used.
enum BackendStackError: Error, CustomStringConvertible {
  case notStarted(String)
  case badAnswer(String)

  var description: String {
    switch self {
    case let .notStarted(reason): return "The backend stack did not start: \(reason)"
    case let .badAnswer(reason): return "The backend stack answered unexpectedly: \(reason)"
    }
  }
}

/// A stack shared by the tests of one class: started in `class func setUp()`, stopped in `class func tearDown()`.
final class SharedBackendStack: @unchecked Sendable {
  private let lock = NSLock()
  private var started: Result<BackendStack, any Error>?
  private let testHooks: Bool

  /// A shared stack, with the test hooks unless `testHooks` is false.
  init(testHooks: Bool = true) { self.testHooks = testHooks }

  /// Starts the stack unless it is running; remembers a failure to report it from each test.
  func start() {
    lock.withLock {
      guard started == nil else { return }
      started = Result { try BackendStack.start(testHooks: testHooks) }
    }
  }

  /// The running stack; throws (failing the test) when it could not start.
  func stack() throws -> BackendStack {
    let result = lock.withLock { started }
    guard let result else { throw BackendStackError.notStarted("start() was not called (class setUp)") }
    return try result.get()
  }

  /// Stops the stack.
  func stop() {
    let result = lock.withLock {
      defer { started = nil }
      return started
    }
    if case let .success(stack) = result { stack.stop() }
  }
}
