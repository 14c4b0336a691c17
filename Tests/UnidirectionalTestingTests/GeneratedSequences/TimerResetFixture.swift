import Testing
import Unidirectional
import UnidirectionalTesting

/// A stopwatch with start, stop and reset. The bug: reset zeroes the time and shows the stopwatch stopped, but leaves
/// its timer running, so time passes on a stopped stopwatch (and a start after it runs two timers). It takes a reset
/// while running, then time; the fix cancels the timer on reset.
enum TimerResetFixture {
  struct Stopwatch: Reducer {
    struct State: Equatable {
      var seconds = 0
      var isRunning = false
    }
    enum Action: Equatable, Sendable {
      case startTapped, stopTapped, resetTapped, tick
    }
    enum CancelID { case timer }
    let isFixed: Bool
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .startTapped:
        guard !state.isRunning else { return .none }
        state.isRunning = true
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .resetTapped:
        state.seconds = 0
        state.isRunning = false
        return isFixed ? .cancel(id: CancelID.timer) : .none
      case .tick:
        state.seconds += 1
        return .none
      }
    }
  }

  /// The stopwatch a user reads: seconds pass while it runs, one tick a second from its start.
  struct Model {
    var seconds = 0
    var isRunning = false
    var elapsedInSecond: Duration = .zero

    mutating func apply(_ step: GeneratedStep<Stopwatch.Action>) {
      switch step {
      case .send(.startTapped) where !isRunning:
        isRunning = true
        elapsedInSecond = .zero
      case .send(.stopTapped):
        isRunning = false
      case .send(.resetTapped):
        seconds = 0
        isRunning = false
      case let .advance(duration) where isRunning:
        elapsedInSecond += duration
        while elapsedInSecond >= .seconds(1) {
          seconds += 1
          elapsedInSecond -= .seconds(1)
        }
      case .send, .advance:
        break
      }
    }
  }

  static var actions: ActionGenerator<Stopwatch.State, Stopwatch.Action> {
    ActionGenerator { _ in
      [
        ActionChoice(weight: 2, .startTapped),
        ActionChoice(weight: 1, .stopTapped),
        ActionChoice(weight: 1, .resetTapped),
        ActionChoice.advance(weight: 3, by: [.seconds(1), .milliseconds(500)]),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, model: Model(), replaying: pin, reporter: reporter) {
      TestStore(initialState: Stopwatch.State()) {
        Stopwatch(isFixed: fixed)
      } withDependencies: {
        $0.clock = TestClock()
      }
    } update: { model, step in
      model.apply(step)
    } check: { state, model in
      #expect(state.seconds == model.seconds, "the stopwatch shows \(state.seconds) s")
    }
  }
}
