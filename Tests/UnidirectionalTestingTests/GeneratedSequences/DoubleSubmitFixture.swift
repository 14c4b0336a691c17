import Testing
import Unidirectional
import UnidirectionalTesting

/// A form whose submit sends an order that takes a second to confirm. The bug: the button is only disabled once the
/// order is confirmed, so a second tap while the first is pending orders twice. The fix ignores taps while pending.
enum DoubleSubmitFixture {
  struct Checkout: Reducer {
    struct State: Equatable {
      var quantity = 1
      var isPending = false
      var confirmations: [Int] = []
    }
    enum Action: Equatable, Sendable {
      case quantityChanged(Int), submitTapped, confirmed(Int)
    }
    let isFixed: Bool
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .quantityChanged(quantity):
        state.quantity = quantity
        return .none
      case .submitTapped:
        if isFixed && state.isPending { return .none }
        state.isPending = true
        return .run { [quantity = state.quantity, clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.confirmed(quantity))
        }
      case let .confirmed(quantity):
        state.isPending = false
        state.confirmations.append(quantity)
        return .none
      }
    }
  }

  /// What the user ordered: one order per tap that was not made while an order was pending.
  struct Model {
    var isPending = false
    var pendingSince: Duration = .zero
    var now: Duration = .zero
    var orders = 0

    mutating func apply(_ step: GeneratedStep<Checkout.Action>) {
      switch step {
      case .send(.submitTapped) where !isPending:
        isPending = true
        pendingSince = now
      case let .advance(duration):
        now += duration
        if isPending, now - pendingSince >= .seconds(1) {
          isPending = false
          orders += 1
        }
      case .send:
        break
      }
    }
  }

  static var actions: ActionGenerator<Checkout.State, Checkout.Action> {
    ActionGenerator { _ in
      [
        ActionChoice(weight: 2, [1, 2, 3], Checkout.Action.quantityChanged),
        ActionChoice(weight: 3, .submitTapped),
        ActionChoice.advance(weight: 2, by: [.seconds(1), .milliseconds(500)]),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, model: Model(), replaying: pin, reporter: reporter) {
      TestStore(initialState: Checkout.State()) {
        Checkout(isFixed: fixed)
      } withDependencies: {
        $0.clock = TestClock()
      }
    } update: { model, step in
      model.apply(step)
    } check: { state, model in
      #expect(state.confirmations.count == model.orders, "orders confirmed: \(state.confirmations.count)")
    }
  }
}
