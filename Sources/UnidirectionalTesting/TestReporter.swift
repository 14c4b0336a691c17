import Testing
import Unidirectional
import XCTest

/// A failed expectation of a `TestStore`, with the test source location it belongs to.
public struct TestFailure: Sendable, CustomStringConvertible {
  /// What was expected and what happened, with a state diff where relevant.
  public var message: String
  /// The file of the `TestStore` call that failed (`#fileID`).
  public var fileID: StaticString
  /// The file of the `TestStore` call that failed (`#filePath`).
  public var filePath: StaticString
  /// The line of the `TestStore` call that failed.
  public var line: UInt
  /// The column of the `TestStore` call that failed.
  public var column: UInt
  /// An assertion the test chose to skip (non-exhaustive with `showSkippedAssertions`, or a `skip…` call): an
  /// informational note, not a failure.
  public var isSkippedAssertion = false

  public var description: String { "\(fileID):\(line): \(message)" }
}

/// Where a `TestStore`'s failures go: by default, the running XCTest or Swift Testing test.
///
/// Inject a collecting reporter to test the failure paths themselves:
///
/// ```swift
/// let failures = TestFailures()
/// let store = TestStore(initialState: …, reducer: { … }, reporter: failures.reporter)
/// await store.send(.tap) { $0.count = 2 }
/// XCTAssertEqual(failures.messages.count, 1)
/// ```
public struct TestReporter: Sendable {
  private let handler: @Sendable (TestFailure) -> Void

  /// A reporter that hands each failure to `handler`.
  public init(_ handler: @escaping @Sendable (TestFailure) -> Void) {
    self.handler = handler
  }

  /// Reports `failure`.
  public func report(_ failure: TestFailure) { handler(failure) }

  /// Records an issue in the current Swift Testing test when one is running, else fails the current XCTest.
  /// A skipped assertion is a known issue in Swift Testing and a printed note in XCTest: never a failure.
  public static let automatic = TestReporter { failure in
    if Test.current != nil {
      let record: () -> Void = {
        _ = Issue.record(
          Comment(rawValue: failure.message),
          sourceLocation: SourceLocation(
            fileID: "\(failure.fileID)", filePath: "\(failure.filePath)", line: Int(failure.line),
            column: Int(failure.column)))
      }
      if failure.isSkippedAssertion {
        withKnownIssue(isIntermittent: true, record)
      } else {
        record()
      }
    } else if failure.isSkippedAssertion {
      print("\(failure.filePath):\(failure.line): note: \(failure.message)")
    } else {
      XCTFail(failure.message, file: failure.filePath, line: failure.line)
    }
  }
}

/// Collects a `TestStore`'s failures instead of failing the test: for testing failure messages.
///
/// ```swift
/// let failures = TestFailures()
/// let store = TestStore(initialState: State(), reporter: failures.reporter) { Feature() }
/// ```
public final class TestFailures: Sendable {
  private let storage = LockIsolated<[TestFailure]>([])

  /// An empty collection.
  public init() {}

  /// A reporter that appends to this collection.
  public var reporter: TestReporter {
    TestReporter { failure in self.storage.withLock { $0.append(failure) } }
  }

  /// The failures collected so far, oldest first.
  public var all: [TestFailure] { storage.withLock { $0 } }

  /// The messages of the failures collected so far (skipped assertions, which are not failures, excluded).
  public var messages: [String] { all.filter { !$0.isSkippedAssertion }.map(\.message) }

  /// The messages of the skipped assertions collected so far.
  public var skippedAssertionMessages: [String] { all.filter(\.isSkippedAssertion).map(\.message) }

  /// Removes and returns the collected failures.
  public func removeAll() -> [TestFailure] {
    storage.withLock { failures in
      defer { failures.removeAll() }
      return failures
    }
  }
}
