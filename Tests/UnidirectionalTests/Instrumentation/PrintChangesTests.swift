import Dispatch
import Foundation
import Unidirectional
import XCTest

private struct Profile: Reducer {
  struct State: Equatable, Sendable {
    var name = "Ada"
    var visits = 0
    var tags: [String] = ["a", "b", "c"]
    var city = "London"
    var language = "en"
    var probe = ThreadProbe()
  }
  enum Action: Equatable, Sendable { case visited, renamed(String), nothing }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .visited:
      state.visits += 1
      return .send(.nothing)
    case let .renamed(name):
      state.name = name
      return .none
    case .nothing:
      return .none
    }
  }
}

/// A parent that changes its printed child's state itself (`resetVisits`) between the child's actions.
private struct Household: Reducer {
  struct State: Equatable, Sendable {
    var member = Profile.State()
  }
  enum Action: Equatable, Sendable {
    case member(Profile.Action)
    case resetVisits(to: Int)
  }
  static let memberCase = CasePath(Action.member) { if case let .member(action) = $0 { action } else { nil } }
  /// Made once, so one printing reducer sees every action of the child (a `body` builds its reducers anew).
  let member: PrintChangesReducer<Profile>

  init(printer: ChangePrinter) {
    member = Profile().printChanges(to: printer)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.member, action: Self.memberCase) { member }
    Reduce { state, action in
      if case let .resetVisits(count) = action { state.member.visits = count }
      return .none
    }
  }
}

/// Renders as `probe` and notes the thread that rendered it.
private struct ThreadProbe: Equatable, Sendable, CustomDumpStringConvertible {
  static let renderingThreads = LockIsolated<[pthread_t]>([])
  var customDumpDescription: String {
    Self.renderingThreads.withLock { $0.append(pthread_self()) }
    return "probe"
  }
}

/// A printer collecting what it writes.
private final class Output: Sendable {
  let texts = LockIsolated<[String]>([])
  let writingThreads = LockIsolated<[pthread_t]>([])
  let printer: ChangePrinter

  init() {
    let (texts, writingThreads) = (texts, writingThreads)
    printer = ChangePrinter { text in
      writingThreads.withLock { $0.append(pthread_self()) }
      texts.withLock { $0.append(text) }
    }
  }

  var text: String { texts.value.joined() }
}

final class PrintChangesTests: XCTestCase {
  func testEachActionPrintsWithOnlyTheChangedPartsOfTheState() {
    let output = Output()
    let printer = output.printer
    let store = Store(initialState: Profile.State()) { Profile().printChanges(to: printer) }
    store.send(.visited)
    store.send(.renamed("Grace"))
    printer.flush()
    XCTAssertEqual(
      output.text,
      """
      action: Profile.Action.visited
        Profile.State(
          name: "Ada",
      -   visits: 0,
      +   visits: 1,
          … (4 unchanged)
        )
      action: Profile.Action.nothing (no state change)
      action: Profile.Action.renamed("Grace")
        Profile.State(
      -   name: "Ada",
      +   name: "Grace",
          … (5 unchanged)
        )

      """)
  }

  func testFormattingAndWritingHappenOffTheSendingThread() {
    let output = Output()
    let printer = output.printer
    let store = Store(initialState: Profile.State()) { Profile().printChanges(to: printer) }
    ThreadProbe.renderingThreads.setValue([])
    let sender = pthread_self()
    for _ in 0..<20 { store.send(.visited) }
    printer.flush()
    XCTAssertFalse(ThreadProbe.renderingThreads.value.isEmpty)
    XCTAssertFalse(ThreadProbe.renderingThreads.value.contains { pthread_equal($0, sender) != 0 })
    XCTAssertFalse(output.writingThreads.value.contains { pthread_equal($0, sender) != 0 })
    XCTAssertEqual(output.text.components(separatedBy: "action: Profile.Action.visited\n").count - 1, 20)
  }

  func testAChildPrintsWhatItsOwnActionChangedAfterItsParentChangedItsStateInBetween() {
    let output = Output()
    let printer = output.printer
    let store = Store(initialState: Household.State()) { Household(printer: printer) }
    store.send(.member(.visited))
    store.send(.resetVisits(to: 100))
    store.send(.member(.visited))
    store.send(.member(.nothing))
    store.send(.resetVisits(to: 100))
    store.send(.member(.visited))
    printer.flush()
    let visits = output.text.components(separatedBy: "\n").filter { $0.contains("visits:") }
    XCTAssertEqual(
      visits,
      [
        "-   visits: 0,", "+   visits: 1,", "-   visits: 100,", "+   visits: 101,", "-   visits: 100,",
        "+   visits: 101,",
      ],
      output.text)
    XCTAssertEqual(output.text.components(separatedBy: "(no state change)").count - 1, 4, output.text)
  }

  func testANilPrinterPrintsNothingAndTheReducerStillRuns() {
    let store = Store(initialState: Profile.State()) { Profile().printChanges(to: nil) }
    store.send(.visited)
    XCTAssertEqual(store.visits, 1)
  }

  func testAPrinterThatFallsBehindSkipsActionsAndSaysHowMany() {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let texts = LockIsolated<[String]>([])
    let printer = ChangePrinter(limit: 2) { text in
      if texts.withLock({ $0.isEmpty }) {
        entered.signal()
        _ = release.wait(timeout: .now() + 10)
      }
      texts.withLock { $0.append(text) }
    }
    let store = Store(initialState: Profile.State()) { Profile().printChanges(to: printer) }
    store.send(.renamed("1"))
    XCTAssertEqual(entered.wait(timeout: .now() + 10), .success, "the printer never started writing")
    for name in ["2", "3", "4", "5"] { store.send(.renamed(name)) }
    release.signal()
    printer.flush()
    let text = texts.value.joined()
    XCTAssertTrue(text.contains(#"Profile.Action.renamed("1")"#), text)
    XCTAssertTrue(text.contains(#"Profile.Action.renamed("2")"#), text)
    XCTAssertTrue(text.contains(#"Profile.Action.renamed("3")"#), text)
    XCTAssertFalse(text.contains(#"Profile.Action.renamed("4")"#), text)
    XCTAssertTrue(text.hasSuffix("… 2 actions not printed: the printer fell behind\n"), text)
  }
}
