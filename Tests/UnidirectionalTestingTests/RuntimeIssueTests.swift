import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

private final class EscapedSend: @unchecked Sendable {
  var send: Send<Int>?
}

private struct Escapes: Reducer {
  let box: EscapedSend
  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    if action > 0 {
      state = action
      return .none
    }
    return .run { [box] send in box.send = send }
  }
}

private struct Child: Reducer {
  func reduce(into state: inout Int, action: Void) -> Effect<Void> { .none }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable { var child: Int? }
  enum Action: Equatable, Sendable {
    case child
    static let childCase = CasePath<Action, Void>({ .child }) { if case .child = $0 { () } else { nil } }
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.childCase) { Child() }
  }
}

final class RuntimeIssueTests: XCTestCase {
  func testAnActionSentFromAFinishedEffectIsReportedAndDropped() async {
    let failures = TestFailures()
    let box = EscapedSend()
    let store = TestStore(initialState: 0, reducer: { Escapes(box: box) }, reporter: failures.reporter)
    await store.send(0)
    await store.finish()
    box.send?(5)
    XCTAssertEqual(store.state, 0)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].hasPrefix("An effect returned for the action 0 sent 5 after it had finished."),
      failures.messages[0])
  }

  func testALiveHostGetsAWarningOnItsIssueReporterInsteadOfACrash() throws {
    let pipe = Pipe()
    let store = Store(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.context = .live
      $0.issueReporter = .writing(to: pipe.fileHandleForWriting)
    }
    store.send(.child)
    try pipe.fileHandleForWriting.close()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertTrue(output.hasPrefix("[Unidirectional] warning: An \"ifLet\" at "), output)
    XCTAssertTrue(
      output.contains("received the child action Parent.Action.child while its child state was nil"), output)
    XCTAssertTrue(output.hasSuffix(")\n"), output)
  }

  func testTheLiveDefaultReporterWritesToStandardError() throws {
    let output = try captureStandardError {
      let store = Store(initialState: Parent.State()) {
        Parent()
      } withDependencies: {
        $0.context = .live
      }
      store.send(.child)
    }
    XCTAssertTrue(output.contains("[Unidirectional] warning: An \"ifLet\" at "), output)
  }

  /// Runs `body` with file descriptor 2 redirected to a pipe; returns what was written.
  private func captureStandardError(_ body: () -> Void) throws -> String {
    let pipe = Pipe()
    let saved = dup(STDERR_FILENO)
    XCTAssertGreaterThanOrEqual(saved, 0)
    dup2(pipe.fileHandleForWriting.fileDescriptor, STDERR_FILENO)
    body()
    dup2(saved, STDERR_FILENO)
    close(saved)
    try pipe.fileHandleForWriting.close()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}
