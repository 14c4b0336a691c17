import Testing
import Unidirectional
import UnidirectionalTesting

/// What `exploreActions` counts as a failure, how it picks steps, and what it reports.
@Suite struct ExploreActionsTests {
  /// A door: opening an open door is a runtime issue the reducer reports; a counter of knocks.
  struct Door: Reducer {
    struct State: Equatable {
      var isOpen = false
      var knocks = 0
    }
    enum Action: Equatable, Sendable { case open, close, knock(Int) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .open:
        if state.isOpen { reportIssue("The door is open already.") }
        state.isOpen = true
      case .close:
        state.isOpen = false
      case let .knock(times):
        state.knocks += times
      }
      return .none
    }
  }

  static var doorActions: ActionGenerator<Door.State, Door.Action> {
    ActionGenerator { _ in
      [ActionChoice(.open), ActionChoice(weight: 2, .close), ActionChoice(weight: 3, 1...9, Door.Action.knock)]
    }
  }

  static func door() -> TestStore<Door.State, Door.Action> {
    TestStore(initialState: Door.State()) { Door() }
  }

  @Test func aFailureOfTheTestStoreItselfIsAFailingSequence() async {
    let failures = TestFailures()
    let report = await exploreActions(
      .random(seed: 4, sequences: 100, length: 10), generating: Self.doorActions, reporter: failures.reporter,
      store: Self.door)
    #expect(report.steps == ["await store.send(.open)", "await store.send(.open)"])
    #expect(report.failures == ["The door is open already."])
    #expect(failures.messages.count == 1)
  }

  @Test func aCheckThatThrowsIsAFailingSequenceAndPayloadsShrinkToTheSimplest() async {
    struct TooManyKnocks: Error {}
    let report = await exploreActions(
      .random(seed: 5, sequences: 100, length: 10), generating: Self.doorActions, reporter: TestFailures().reporter,
      store: Self.door
    ) { state, _ in
      if state.knocks > 12 { throw TooManyKnocks() }
    }
    // Two knocks are the fewest that pass 12, and 9 and 4 the smallest that do.
    #expect(report.steps.sorted() == ["await store.send(.knock(4))", "await store.send(.knock(9))"])
    #expect(report.failures.first?.contains("TooManyKnocks") == true, "\(report.failures)")
  }

  @Test func anInvariantOfTheStoreIsChecked() async {
    let report = await exploreActions(
      .random(seed: 6, sequences: 100, length: 10), generating: Self.doorActions, reporter: TestFailures().reporter
    ) {
      let store = Self.door()
      store.checkEveryState { state, _ in
        #expect(state.knocks < 10 || !state.isOpen, "knocked on an open door")
      }
      return store
    }
    #expect(report.failingSequence != nil)
    #expect(report.failures.contains { $0.contains("knocked on an open door") }, "\(report.failures)")
  }

  @Test func aChoiceWithNoPayloadIsNeverTakenAndASequenceWithNoChoiceEnds() async {
    struct List: Reducer {
      struct State: Equatable { var items: [Int] = [] }
      enum Action: Equatable, Sendable { case add, remove(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .add: state.items.append(state.items.count)
        case let .remove(item): state.items.removeAll { $0 == item }
        }
        return .none
      }
    }
    let actions = ActionGenerator<List.State, List.Action> { state in
      [
        ActionChoice(weight: state.items.count < 3 ? 1 : 0, .add),
        ActionChoice(weight: 5, state.items.map(List.Action.remove)),
      ]
    }
    let report = await exploreActions(.random(seed: 7, sequences: 200, length: 30), generating: actions) {
      TestStore(initialState: List.State()) { List() }
    } check: { state, step in
      if case let .send(.remove(item)) = step { #expect(!state.items.contains(item)) }
      #expect(state.items.count <= 3)
    }
    #expect(report.failingSequence == nil)
    #expect(report.sequencesRun == 200)
  }

  @Test func theSameSeedRunsTheSameSequences() async {
    func run() async -> ActionExplorationReport {
      await exploreActions(
        .random(seed: 8, sequences: 100, length: 10), generating: Self.doorActions,
        reporter: TestFailures().reporter, store: Self.door
      ) { state, _ in
        #expect(state.knocks < 20)
      }
    }
    let first = await run()
    let second = await run()
    #expect(first.failingSequence != nil)
    #expect(first == second)
  }

  @Test func anAdvanceNeedsATestClock() async {
    struct Idle: Reducer {
      struct State: Equatable {}
      enum Action: Equatable, Sendable { case tap }
      func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
    }
    let actions = ActionGenerator<Idle.State, Idle.Action> { _ in [ActionChoice.advance(by: [.seconds(1)])] }
    let report = await exploreActions(generating: actions, reporter: TestFailures().reporter) {
      TestStore(initialState: Idle.State()) {
        Idle()
      } withDependencies: {
        $0.clock = ImmediateClock()
      }
    }
    #expect(report.steps == ["await clock.advance(by: .seconds(1))"])
    #expect(report.failures.first?.contains("set `$0.clock = clock` with a TestClock") == true, "\(report.failures)")
  }

  @Test func aPinThatIsNotOneFailsWithTheReason() async {
    let failures = TestFailures()
    let report = await exploreActions(
      generating: Self.doorActions, replaying: "1.x 2", reporter: failures.reporter, store: Self.door)
    #expect(report.sequencesRun == 0)
    #expect(
      failures.messages == [
        "\"1.x 2\" is not a generated sequence: expected steps like \"2.1 0 3\" (choice.payload), optionally "
          + "followed by \"@ \" and an interleaving schedule."
      ])
  }

  @Test func aPinThatPassesReportsNothing() async {
    let failures = TestFailures()
    let report = await exploreActions(
      generating: Self.doorActions, replaying: "0 1 0", reporter: failures.reporter, store: Self.door)
    #expect(report.sequencesRun == 1)
    #expect(report.failingSequence == nil)
    #expect(report.steps == ["await store.send(.open)", "await store.send(.close)", "await store.send(.open)"])
    #expect(failures.messages.isEmpty)
  }
}
