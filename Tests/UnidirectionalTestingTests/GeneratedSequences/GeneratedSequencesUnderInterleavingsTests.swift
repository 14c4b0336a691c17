import Testing
import Unidirectional
import UnidirectionalTesting

/// A bug that needs both an order of user actions and an order of effects: two adds to a shared total, each from an
/// effect that reads the total, waits for the price and writes back what it read plus the price. One add alone, or
/// two in the order the plain test store runs their effects, are right; two adds whose effects overlap lose one.
@Suite struct GeneratedSequencesUnderInterleavingsTests {
  struct Cart: Reducer {
    struct State: Equatable {
      @Shared var total: Int
      var added = 0
    }
    enum Action: Equatable, Sendable { case add(String), priced(Int), clear }
    /// The fix: read and write the total in one `withLock`, after the price is known.
    let isFixed: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .add(item):
        return .run { [total = state.$total, isFixed] send in
          let before = total.wrappedValue
          let price = try await withRacing { item.count }
          total.withLock { $0 = (isFixed ? $0 : before) + price }
          send(.priced(price))
        }
      case let .priced(price):
        state.added += price
        return .none
      case .clear:
        return .none
      }
    }
  }

  static var actions: ActionGenerator<Cart.State, Cart.Action> {
    ActionGenerator { _ in
      [ActionChoice(weight: 2, ["tea", "bread"].map(Cart.Action.add)), ActionChoice(.clear)]
    }
  }

  static func explore(
    fixed: Bool, interleavings: ExplorationStrategy?, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(
      .random(seed: 3, sequences: 30, length: 4), generating: actions, replaying: pin, interleavings: interleavings,
      reporter: reporter
    ) {
      TestStore(initialState: Cart.State(total: Shared(value: 0))) { Cart(isFixed: fixed) }
    } check: { state, _ in
      #expect(state.total == state.added, "the total lost an added price")
    }
  }

  @Test func aPlainRunOfEachSequenceMissesTheLostUpdate() async {
    let report = await Self.explore(fixed: false, interleavings: nil, reporter: .automatic)
    #expect(report.failingSequence == nil)
    #expect(report.sequencesRun == 30)
  }

  @Test func underItsInterleavingsASequenceOfTwoAddsLosesOne() async {
    let failures = TestFailures()
    let report = await Self.explore(
      fixed: false, interleavings: .exhaustive(maxDeviations: 1), reporter: failures.reporter)
    #expect(report.steps == [#"await store.send(.add("tea"))"#, #"await store.send(.add("tea"))"#])
    let pin = report.failingSequence ?? ""
    #expect(pin.hasPrefix("0 0 @ "), "\(pin)")
    let message = failures.messages.first ?? ""
    #expect(message.contains("under the interleaving"), "\(message)")
    #expect(message.contains("await exploreInterleavings(replaying: "), "\(message)")

    let replayed = await Self.explore(
      fixed: false, interleavings: nil, replaying: pin, reporter: TestFailures().reporter)
    #expect(replayed.failingSequence == pin)
    #expect(replayed.failures.contains { $0.contains("the total lost an added price") })
  }

  @Test func theFixedCartPassesEverySequenceUnderItsInterleavings() async {
    let report = await Self.explore(fixed: true, interleavings: .exhaustive(maxDeviations: 2), reporter: .automatic)
    #expect(report.failingSequence == nil)
  }
}
