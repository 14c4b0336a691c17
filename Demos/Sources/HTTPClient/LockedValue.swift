import Foundation

/// A value shared between threads, one caller at a time. The HTTP layer depends on Foundation only, so it keeps its
/// own small lock box instead of the core's `LockedValue`.
///
/// ```swift
/// let sent = LockedValue<Int64>(0)
/// sent.withLock { $0 += 512 }
/// sent.value   // 512
/// ```
final class LockedValue<Value>: @unchecked Sendable {
  // @unchecked: `stored` is read and written only while `lock` is held.
  private var stored: Value
  private let lock = NSLock()

  init(_ value: Value) {
    stored = value
  }

  /// Runs `body` with the value while holding the lock; keep it short.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }

  /// A copy of the value.
  var value: Value { withLock { $0 } }

  /// Replaces the value.
  func setValue(_ value: Value) {
    withLock { $0 = value }
  }
}
