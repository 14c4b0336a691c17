import Foundation
import Unidirectional
import XCTest

/// A short-lived program that prints changes and exits right after its last `send` loses none of them: the test
/// re-runs this test binary as a child process that does exactly that, and counts what it printed.
final class PrintChangesAtExitTests: XCTestCase {
  private static let childVariable = "UNIDIRECTIONAL_PRINT_CHANGES_EXIT_CHILD"
  private static let actions = 2_000

  func testAProgramThatExitsRightAfterSendingPrintsEveryChange() throws {
    if ProcessInfo.processInfo.environment[Self.childVariable] != nil { actAsChild() }
    #if os(Linux)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      process.arguments = ["UnidirectionalTests.PrintChangesAtExitTests/\(#function.dropLast(2))"]
      process.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      let data = LockIsolated(Data())
      let read = DispatchSemaphore(value: 0)
      Thread {
        data.setValue(output.fileHandleForReading.readDataToEndOfFile())
        read.signal()
      }.start()
      try process.run()
      // Standard output ends when the child exits; a child that hangs is killed instead of hanging the suite.
      guard read.wait(timeout: .now() + 120) == .success else {
        process.terminate()
        return XCTFail("the child process did not exit within 120 s")
      }
      process.waitUntilExit()

      XCTAssertEqual(process.terminationStatus, 0)
      let lines = String(decoding: data.value, as: UTF8.self).split(separator: "\n")
      let printed = lines.filter { $0.hasPrefix("action: ") }
      XCTAssertEqual(printed.count, Self.actions, "every action sent before exit is printed")
      XCTAssertEqual(printed.last, "action: Tally.Action.set(\(Self.actions))")
    #else
      throw XCTSkip("re-runs the test binary through /proc/self/exe")
    #endif
  }

  /// What the new user's program did: print changes to standard output, send, and exit at once.
  private func actAsChild() -> Never {
    let store = Store(initialState: Tally.State()) { Tally().printChanges() }
    for value in 1...Self.actions { store.send(.set(value)) }
    exit(0)
  }
}

private struct Tally: Reducer {
  struct State: Equatable, Sendable {
    var value = 0
    var name = "tally"
    var history: [Int] = []
  }
  enum Action: Equatable, Sendable { case set(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .set(value):
      state.value = value
      state.history = Array((state.history + [value]).suffix(3))
      return .none
    }
  }
}
