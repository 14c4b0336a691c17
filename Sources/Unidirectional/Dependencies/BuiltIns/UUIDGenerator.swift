import Foundation

/// Generates UUIDs; inject it so tests get predictable identifiers.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()   // live: random; tests: `.incrementing` gives 00000000-0000-0000-0000-000000000000, …01, …
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator that calls `generate` for every UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// A new UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs (`UUID()`).
  public static let random = UUIDGenerator { UUID() }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// `00000000-0000-0000-0000-000000000000`, then `…001`, `…002`, … — one sequence per generator value.
  public static var incrementing: Self {
    let counter = LockIsolated<UInt64>(0)
    return Self {
      let next = counter.withLock { value -> UInt64 in
        defer { value += 1 }
        return value
      }
      return UUID(sequenceNumber: next)
    }
  }

  /// `uuids`, in order: the values a recorded session read (a test written from an action log injects them).
  /// Asking for more reports a test failure naming how many there were, then gives UUIDs numbered from 0.
  ///
  /// ```swift
  /// $0.uuid = .sequence([UUID(uuidString: "DEADBEEF-0000-4000-8000-000000000001")!, UUID(1)])
  /// ```
  public static func sequence(_ uuids: [UUID]) -> Self {
    let sequence = ValueSequence(uuids, use: "@Dependency(\\.uuid) was called")
    return Self { sequence.next { UUID(sequenceNumber: UInt64($0)) } }
  }

  /// Reports a test failure when called, then returns the zero UUID.
  public static let unimplemented = UUIDGenerator {
    reportIssue("@Dependency(\\.uuid) was used without an override. Set it, e.g. to .incrementing, in the test.")
    return UUID(sequenceNumber: 0)
  }
}

extension UUID {
  /// The UUID whose last 12 hex digits are `intValue`: `UUID(0)` is `00000000-0000-0000-0000-000000000000`, the
  /// first one `.incrementing` gives (TCA's spelling in tests). A negative value counts by its two's complement.
  public init(_ intValue: Int) {
    self.init(sequenceNumber: UInt64(truncatingIfNeeded: intValue))
  }

  /// The UUID whose last 12 hex digits are `sequenceNumber` (`00000000-0000-0000-0000-00000000002a` for 42).
  public init(sequenceNumber: UInt64) {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      for index in 0..<8 {
        buffer[15 - index] = UInt8(truncatingIfNeeded: sequenceNumber >> (8 * UInt64(index)))
      }
    }
    self.init(uuid: bytes)
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static let testValue = UUIDGenerator.unimplemented
}

extension DependencyValues {
  /// Generates UUIDs: random live and in previews; unimplemented in tests until overridden.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
