import Features
import Foundation
import Unidirectional
import XCTest

/// Files, memory readings and small helpers shared by the upload integration tests.
enum UploadIntegrationSupport {
  /// Writes `size` bytes starting with `header` followed by pseudo-random bytes (seeded, so reproducible),
  /// 1 MiB at a time; returns the file's SHA-256 computed while writing.
  @discardableResult
  static func writeFile(at url: URL, header: [UInt8] = [], size: Int, seed: UInt64) throws -> SHA256.Digest {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw BackendStackError.notStarted("cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    var state = seed
    var written = 0
    let chunkSize = 1 << 20
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while written < size {
      let count = min(chunkSize, size - written)
      chunk.withUnsafeMutableBytes { buffer in
        let words = buffer.bindMemory(to: UInt64.self)
        for index in words.indices {
          // SplitMix64.
          state &+= 0x9E37_79B9_7F4A_7C15
          var z = state
          z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
          z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
          words[index] = z ^ (z >> 31)
        }
      }
      if written == 0 {
        for (index, byte) in header.prefix(count).enumerated() { chunk[index] = byte }
      }
      let data = Data(chunk[0..<count])
      try handle.write(contentsOf: data)
      hasher.update(data)
      written += count
    }
    return hasher.finalize()
  }

  static let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let jpegHeader: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
  static let gifHeader: [UInt8] = Array("GIF89a".utf8)

  /// A value from `/proc/self/status` in bytes (`VmRSS`, `VmHWM`), or nil where there is no procfs.
  static func memory(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }

  /// Resets the peak resident set size (`VmHWM`) to the current one; false where the kernel does not allow it.
  static func resetPeakMemory() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
  }

  /// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held.
  static func waitUntil(timeout: TimeInterval, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if try await condition() { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
  }

  /// The first of `states` (a store's ``Store/states``: the current state, then the state after every action)
  /// that satisfies `condition`, or nil when none has within `timeout`. A test waits for the state it asserts, not
  /// for a sign that it should have arrived.
  static func firstState<State: Sendable>(
    of states: AsyncStream<State>, timeout: Duration, where condition: @escaping @Sendable (State) -> Bool
  ) async -> State? {
    await withTaskGroup(of: State?.self) { group in
      group.addTask {
        for await state in states where condition(state) { return state }
        return nil
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }

  /// The upload configuration for `stack` (or another API base URL on it).
  static func configuration(
    _ stack: BackendStack,
    apiBaseURL: URL? = nil,
    token: String? = nil,
    headers: [String: String] = [:],
    maxConcurrentUploads: Int = 4,
    requestTimeout: TimeInterval = 30,
    retryPolicy: RetryPolicy = .standard,
    transport: UploadServerConfiguration.Transport = .automatic
  ) -> UploadServerConfiguration {
    UploadServerConfiguration(
      apiBaseURL: apiBaseURL ?? stack.apiURL, token: BearerToken(token ?? stack.token),
      maxConcurrentUploads: maxConcurrentUploads, requestTimeout: requestTimeout, additionalHeaders: headers,
      retryPolicy: retryPolicy, transport: transport)
  }

  /// The backend's `put-hang` hook holds its answer back this long at most (`HANG_SECONDS` in Demos/Backend/app.py).
  static let hangCapSeconds: TimeInterval = 60
  /// A client request timeout for tests of the `put-hang` hook: above its cap, so that only a cancel, never the
  /// client's own timeout, can end the hanging request before the server answers.
  static let outlastingTheHang: TimeInterval = hangCapSeconds * 2

  /// Both HTTP engines: the socket engine (`.automatic` on Linux for http://) and URLSession (what https uses).
  static let engines: [UploadServerConfiguration.Transport] = [.automatic, .urlSession]

  /// `host:port` of `url`, as errors name servers.
  static func hostPort(_ url: URL) -> String { "\(url.host ?? ""):\(url.port ?? 80)" }

  /// Whether any `length`-character piece of `secret` occurs in `text` (a partly leaked secret).
  static func containsPart(of secret: String, length: Int = 6, in text: String) -> Bool {
    let characters = Array(secret)
    guard characters.count >= length else { return text.contains(secret) }
    return (0...(characters.count - length)).contains { text.contains(String(characters[$0..<($0 + length)])) }
  }
}

/// A UUID generator that remembers what it generated, so a test knows the object keys the server used.
final class RecordingUUIDs: @unchecked Sendable {
  private let lock = NSLock()
  private var generated: [UUID] = []

  var generator: UUIDGenerator {
    UUIDGenerator {
      let uuid = UUID()
      self.lock.withLock { self.generated.append(uuid) }
      return uuid
    }
  }

  var values: [UUID] { lock.withLock { generated } }
}

/// Collects progress reports from `@Sendable` callbacks.
final class ProgressLog<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []

  func append(_ value: Value) { lock.withLock { storage.append(value) } }
  var values: [Value] { lock.withLock { storage } }
}
