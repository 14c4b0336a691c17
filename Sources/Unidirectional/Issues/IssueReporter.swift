import Foundation

/// A misuse found at run time: a child action sent while its `ifLet` child is nil, an error an effect did not
/// handle, an unimplemented dependency used in a test.
public struct RuntimeIssue: Sendable, Equatable, CustomStringConvertible {
  /// What went wrong and how to fix it.
  public var message: String
  /// Where it was detected.
  public var fileID: String
  /// The line where it was detected.
  public var line: UInt

  /// An issue with `message` detected at `fileID`:`line`.
  public init(message: String, fileID: String, line: UInt) {
    self.message = message
    self.fileID = fileID
    self.line = line
  }

  public var description: String { "\(fileID):\(line): \(message)" }
}

/// Where runtime issues go: a warning on standard error in a live host, a test failure under test.
///
/// ```swift
/// let issues = LockedIssues()   // in your own test helpers
/// let reporter = IssueReporter { issues.append($0) }
/// ```
public struct IssueReporter: Sendable {
  private let handler: @Sendable (RuntimeIssue) -> Void

  /// A reporter that hands each issue to `handler`.
  public init(_ handler: @escaping @Sendable (RuntimeIssue) -> Void) {
    self.handler = handler
  }

  /// Reports `issue`.
  public func report(_ issue: RuntimeIssue) { handler(issue) }

  /// Prints `[Unidirectional] warning: <message> (file:line)` to standard error: the live default.
  public static let standardError = writing(to: .standardError)

  /// Writes each issue as a `[Unidirectional] warning: …` line to `handle`.
  public static func writing(to handle: FileHandle) -> IssueReporter {
    IssueReporter { issue in
      handle.write(Data("[Unidirectional] warning: \(issue.message) (\(issue.fileID):\(issue.line))\n".utf8))
    }
  }

  /// Forwards to ``testFallback``, read at the time of each report.
  static let forwardingToTestFallback = IssueReporter { issue in
    testFallbackStorage.value.report(issue)
  }

  /// The reporter for issues raised in a test process outside any `TestStore`. `UnidirectionalTesting` sets it to
  /// fail the running XCTest or Swift Testing test; until then it prints to standard error.
  public static var testFallback: IssueReporter {
    get { testFallbackStorage.value }
    set { testFallbackStorage.setValue(newValue) }
  }

  private static let testFallbackStorage = LockIsolated(IssueReporter.standardError)
}

private enum IssueReporterKey: DependencyKey {
  static let liveValue = IssueReporter.standardError
  static let testValue = IssueReporter.forwardingToTestFallback
}

extension DependencyValues {
  /// Where runtime issues raised in this context are reported.
  public var issueReporter: IssueReporter {
    get { self[IssueReporterKey.self] }
    set { self[IssueReporterKey.self] = newValue }
  }
}

/// Reports a runtime issue through the current context's ``IssueReporter``.
public func reportIssue(_ message: String, fileID: StaticString = #fileID, line: UInt = #line) {
  // A default read while an override is being written is not a use (see `DependencyValues.configuring`).
  guard !DependencyValues.isConfiguring else { return }
  DependencyValues.current.issueReporter.report(
    RuntimeIssue(message: message, fileID: "\(fileID)", line: line)
  )
}
