import Features
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real server the resumable-upload cases run against, started by the test: the backend (interop 8) or
/// Apple's reference server (interop 6).
protocol ResumableUploadPeer: Sendable {
  /// The interop version the client ends up speaking with this server.
  var interopVersion: Int { get }
  /// The client's configuration for the server's resumable endpoint (retries fast, for tests).
  func configuration() -> ResumableUploadConfiguration
  /// A configuration under which this server shows no resumable support the client can use.
  func configurationWithoutTheDraft() -> ResumableUploadConfiguration
  /// The file the server stored for `receipt` (a local copy of it).
  func storedFile(_ receipt: ResumableUploadReceipt) async throws -> URL
  /// Body bytes the server received for the upload of `receipt` (all requests, interrupted ones too).
  func bytesReceived(_ receipt: ResumableUploadReceipt) async throws -> Int64
  /// Stops the server and starts it again on the same port (it forgets every upload in progress).
  func restart() throws
  func stop()
}

extension ResumableUploadPeer {
  /// Retries quickly: the cases interrupt on purpose.
  static var testRetryPolicy: RetryPolicy {
    RetryPolicy(
      maxAttempts: 4, maxTotalDuration: .seconds(30), initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(200))
  }
}

/// What a peer is started with.
struct PeerOptions {
  /// Drop the connection when the upload reaches these byte counts.
  var dropAfter: [Int64] = []
  /// Forget an upload left alone this long (seconds).
  var expiry: Int?
  /// The backend's `max-append-size` (bytes).
  var maxAppendSize: Int64?
  /// The backend's `max-size` (bytes).
  var maxSize: Int64?
}

/// The backend (`Demos/Backend`, run by `run_stack.py`, every byte in S3): `/resumable-uploads` speaks the draft,
/// `/plain-uploads` does not. With `instances` > 1, several app instances behind a round-robin proxy.
final class BackendPeer: ResumableUploadPeer, @unchecked Sendable {
  let interopVersion = 8
  private let options: PeerOptions
  private let folder: URL
  private let instances: Int
  private let lock = NSLock()
  private var stack: BackendStack

  init(folder: URL, options: PeerOptions, instances: Int = 1) throws {
    self.options = options
    self.folder = folder
    self.instances = instances
    self.stack = try Self.start(options: options, instances: instances, apiPort: nil)
  }

  private static func start(options: PeerOptions, instances: Int, apiPort: Int?) throws -> BackendStack {
    var environment: [String: String] = [:]
    if let expiry = options.expiry { environment["RESUMABLE_MAX_AGE_SECONDS"] = String(expiry) }
    if let maxAppendSize = options.maxAppendSize { environment["RESUMABLE_MAX_APPEND_BYTES"] = String(maxAppendSize) }
    if let maxSize = options.maxSize { environment["MAX_UPLOAD_BYTES"] = String(maxSize) }
    return try BackendStack.start(testHooks: true, environment: environment, apiPort: apiPort, instances: instances)
  }

  private var current: BackendStack { lock.withLock { stack } }

  func configuration() -> ResumableUploadConfiguration {
    let stack = current
    var headers: [String: String] = [:]
    if !options.dropAfter.isEmpty {
      headers["X-Test-Drop-After"] = options.dropAfter.map(String.init).joined(separator: ",")
    }
    return ResumableUploadConfiguration(
      endpoint: stack.apiURL.appendingPathComponent("resumable-uploads"), token: BearerToken(stack.token),
      retryPolicy: Self.testRetryPolicy, requestTimeout: 10, additionalHeaders: headers)
  }

  func configurationWithoutTheDraft() -> ResumableUploadConfiguration {
    var configuration = configuration()
    configuration.endpoint = current.apiURL.appendingPathComponent("plain-uploads")
    return configuration
  }

  func storedFile(_ receipt: ResumableUploadReceipt) async throws -> URL {
    let fileID = try XCTUnwrap(receipt.fileID, "the backend answers with a fileId")
    return try await current.storedFile(key: "uploads/\(fileID).bin", in: folder)
  }

  /// The keys of the files the backend stored (S3, `uploads/`).
  func storedKeys() async throws -> [String] {
    try await current.objectKeys(prefix: "uploads/")
  }

  /// The upload's counters on the backend (`GET /test-hooks/resumable-uploads?fileId=`).
  struct Counters: Decodable {
    let offset: Int64
    let complete: Bool
    let bytesReceived: Int64
    let requests: Int
    let conflicts: Int
    let drops: Int
    /// The instances that appended to the upload, first one first.
    let instances: [String]
  }

  func counters(_ receipt: ResumableUploadReceipt) async throws -> Counters {
    let fileID = try XCTUnwrap(receipt.fileID)
    return try await current.get(
      Counters.self, "test-hooks/resumable-uploads", query: [URLQueryItem(name: "fileId", value: fileID)])
  }

  func bytesReceived(_ receipt: ResumableUploadReceipt) async throws -> Int64 {
    try await counters(receipt).bytesReceived
  }

  /// Stops the whole stack, S3 (moto, in memory) included, and starts a fresh one on the same API port: a server
  /// that has lost every upload in progress.
  func restart() throws {
    let old = current
    old.stop()
    let port = try XCTUnwrap(old.apiURL.port)
    let new = try Self.start(options: PeerOptions(), instances: instances, apiPort: port)
    lock.withLock { stack = new }
  }

  /// Restarts every app instance on its port; S3 keeps the uploads.
  func restartInstances() throws { try current.restartInstances() }

  func stop() { current.stop() }
}

/// Apple's reference server (`Demos/ResumableReferenceServer`): interop 6 only, so the client falls back from 8.
final class ReferencePeer: ResumableUploadPeer, @unchecked Sendable {
  let interopVersion = 6
  private let options: PeerOptions
  private let storage: URL
  private let lock = NSLock()
  private var server: ReferenceServer

  init(folder: URL, options: PeerOptions) throws {
    self.options = options
    self.storage = folder.appendingPathComponent("store", isDirectory: true)
    self.server = try ReferenceServer.start(storage: storage, arguments: Self.arguments(options))
  }

  private static func arguments(_ options: PeerOptions) -> [String] {
    var arguments: [String] = []
    if !options.dropAfter.isEmpty {
      arguments += ["--drop-after", options.dropAfter.map(String.init).joined(separator: ",")]
    }
    if let expiry = options.expiry { arguments += ["--timeout", String(expiry)] }
    return arguments
  }

  private var current: ReferenceServer { lock.withLock { server } }

  func configuration() -> ResumableUploadConfiguration {
    ResumableUploadConfiguration(endpoint: current.endpoint, retryPolicy: Self.testRetryPolicy, requestTimeout: 10)
  }

  func configurationWithoutTheDraft() -> ResumableUploadConfiguration {
    // The server speaks 3, 5 and 6; a client of version 8 only has no version in common with it.
    var configuration = configuration()
    configuration.interopVersions = [8]
    return configuration
  }

  func storedFile(_ receipt: ResumableUploadReceipt) async throws -> URL {
    current.storedFile(try XCTUnwrap(receipt.fileID, "the reference server answers with a fileId"))
  }

  func bytesReceived(_ receipt: ResumableUploadReceipt) async throws -> Int64 {
    try await current.stats().bytesReceived
  }

  func restart() throws {
    let old = current
    old.stop()
    let new = try ReferenceServer.start(storage: storage, port: old.port)
    lock.withLock { server = new }
  }

  func stop() { current.stop() }
}
