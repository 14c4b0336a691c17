import Testing
import Unidirectional
import UnidirectionalTesting

/// A cart whose coupon takes 10 off an order of at least 20. The bug: the coupon is checked when applied only, so
/// removing items after applying it keeps a discount the order no longer earns (and a total below zero). The fix
/// drops the coupon when the order falls below the minimum.
enum CouponAfterRemovalFixture {
  struct Cart: Reducer {
    struct State: Equatable {
      var prices: [Int] = []
      var hasCoupon = false
      var subtotal: Int { prices.reduce(0, +) }
      var total: Int { subtotal - (hasCoupon ? 10 : 0) }
    }
    enum Action: Equatable, Sendable {
      case add(price: Int), removeLast, applyCoupon
    }
    let isFixed: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .add(price):
        state.prices.append(price)
      case .removeLast:
        _ = state.prices.popLast()
        if isFixed, state.subtotal < 20 { state.hasCoupon = false }
      case .applyCoupon:
        if state.subtotal >= 20 { state.hasCoupon = true }
      }
      return .none
    }
  }

  static var actions: ActionGenerator<Cart.State, Cart.Action> {
    ActionGenerator { state in
      [
        ActionChoice(weight: 3, [5, 15, 25]) { Cart.Action.add(price: $0) },
        ActionChoice(weight: 2, state.prices.isEmpty ? [] : [Cart.Action.removeLast]),
        ActionChoice(weight: 1, .applyCoupon),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, replaying: pin, reporter: reporter) {
      TestStore(initialState: Cart.State()) { Cart(isFixed: fixed) }
    } check: { state, _ in
      #expect(!state.hasCoupon || state.subtotal >= 20, "a coupon on an order of \(state.subtotal)")
    }
  }
}
