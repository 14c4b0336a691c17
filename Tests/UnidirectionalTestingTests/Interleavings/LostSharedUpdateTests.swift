import Testing
import Unidirectional
import UnidirectionalTesting

/// A lost update between two effects writing `@Shared`: each reads the shared total, waits for a price, and writes
/// back what it read plus the price, so the second write discards the first.
@MainActor
struct LostSharedUpdateTests {
  struct Cart: Reducer {
    struct State: Equatable {
      @Shared var total: Int
    }
    enum Action: Equatable { case add(String) }
    let price: @Sendable (String) async throws -> Int
    /// The fix: read and write the total in one `withLock`, after the price is known.
    let addsUnderTheLock: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .add(item):
        let total = state.$total
        return .run { [price, addsUnderTheLock] _ in
          if addsUnderTheLock {
            let price = try await price(item)
            total.withLock { $0 += price }
          } else {
            let before = total.wrappedValue
            let price = try await price(item)
            total.withLock { $0 = before + price }
          }
        }
      }
    }
  }

  static func addTwoItems(fixed: Bool) async {
    let store = TestStore(initialState: Cart.State(total: Shared(value: 0))) {
      Cart(price: { item in try await withRacing { item.count } }, addsUnderTheLock: fixed)
    }
    store.exhaustivity = .off
    await store.send(.add("tea"))
    await store.send(.add("bread"))
    await store.finish()
    #expect(store.state.total == 8)
  }

  @Test func theExplorerFindsTheLostUpdate() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.addTwoItems(fixed: false)
    }
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("store.state.total") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    await Self.addTwoItems(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.addTwoItems(fixed: true) }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}
