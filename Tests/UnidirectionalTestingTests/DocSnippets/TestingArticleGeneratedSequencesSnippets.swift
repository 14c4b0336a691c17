// swift-format-ignore-file
// The "Testing" article's section on generated action sequences (Sources/UnidirectionalTesting/
// UnidirectionalTesting.docc/Testing.md), compiled and run here; Scripts/tests/test_doc_snippets.py checks that the
// article shows it verbatim. Not reformatted by swift-format, so that the article and this file stay the same text.
// The cart with the bug the article's failure shows is CouponAfterRemovalFixture.
import Testing
import Unidirectional
import UnidirectionalTesting

struct Cart: Reducer {
  struct State: Equatable {
    var prices: [Int] = []
    var hasCoupon = false
    var subtotal: Int { prices.reduce(0, +) }
  }
  enum Action: Equatable { case add(price: Int), removeLast, applyCoupon }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(price):
      state.prices.append(price)
    case .removeLast:
      _ = state.prices.popLast()
      if state.subtotal < 20 { state.hasCoupon = false }   // the fix: without it, a coupon outlives its order
    case .applyCoupon:
      if state.subtotal >= 20 { state.hasCoupon = true }
    }
    return .none
  }
}

struct Stepper: Reducer {
  struct State: Equatable { var value = 0 }
  enum Action: Equatable { case up(Int), reset }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .up(amount): state.value += amount
    case .reset: state.value = 0
    }
    return .none
  }
}

@Suite struct TestingArticleGeneratedSequencesSnippets {
  @Test func aCouponNeedsAnOrderOfTwenty() async {
    let actions = ActionGenerator<Cart.State, Cart.Action> { state in
      [
        ActionChoice(weight: 3, [5, 15, 25]) { .add(price: $0) },          // the simplest price first
        ActionChoice(weight: 2, state.prices.isEmpty ? [] : [.removeLast]),  // none: not a choice now
        ActionChoice(.applyCoupon),
      ]
    }
    await exploreActions(.random(seed: 1, sequences: 500, length: 12), generating: actions) {
      TestStore(initialState: Cart.State()) { Cart() }
    } check: { state, _ in
      #expect(!state.hasCoupon || state.subtotal >= 20, "a coupon on an order of \(state.subtotal)")
    }
  }

  @Test func theStepperFollowsItsModel() async {
    let actions = ActionGenerator<Stepper.State, Stepper.Action> { _ in
      [ActionChoice(weight: 4, 1...9) { .up($0) }, ActionChoice(.reset)]
    }
    await exploreActions(generating: actions, model: 0) {
      TestStore(initialState: Stepper.State()) { Stepper() }
    } update: { value, step in
      switch step {
      case let .send(.up(amount)): value += amount
      case .send(.reset): value = 0
      case .advance: break
      }
    } check: { state, value in
      #expect(state.value == value)
    }
  }
}
