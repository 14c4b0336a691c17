import Unidirectional

/// The feature most TestStore tests drive — a counter with a timer, a fetch and a failing request — as an Xcode 26
/// app target writes it: main-actor isolated by default, `nonisolated` only on its action and cancel id enums.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var isTimerOn = false
    var fact: String?
  }

  nonisolated enum Action: Equatable {
    case increment
    case noop
    case startTimer
    case tick
    case stopTimer
    case fetchFact
    case factLoaded(String)
    case twoFacts

  }

  nonisolated enum CancelID { case timer }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .startTimer:
      state.isTimerOn = true
      // `clock` is read inside the effect: in this target that hops to the main actor before each sleep, and the
      // TestClock waits for the hop before it moves time.
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .tick:
      state.count += 1
      return .none
    case .stopTimer:
      state.isTimerOn = false
      return .cancel(id: CancelID.timer)
    case .fetchFact:
      let count = state.count
      return .run { send in send(.factLoaded("\(count) is a number")) }
    case let .factLoaded(fact):
      state.fact = fact
      return .none
    case .twoFacts:
      return .run { send in
        send(.factLoaded("one"))
        send(.factLoaded("two"))
      }
    }
  }
}
