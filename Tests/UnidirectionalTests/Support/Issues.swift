import Unidirectional

/// Collects runtime issues reported through a store's `issueReporter`.
final class CollectedIssues: @unchecked Sendable {
  private let lock = NSLockBox()
  private var issues: [RuntimeIssue] = []

  var reporter: IssueReporter {
    IssueReporter { issue in self.lock.withLock { self.issues.append(issue) } }
  }

  var messages: [String] { lock.withLock { issues.map(\.message) } }
}

/// Collects values appended from any thread.
final class Collected<Value>: @unchecked Sendable {
  private let lock = NSLockBox()
  private var values: [Value] = []

  func append(_ value: Value) { lock.withLock { values.append(value) } }
  var all: [Value] { lock.withLock { values } }
}

import Foundation

final class NSLockBox: @unchecked Sendable {
  private let lock = NSLock()
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
