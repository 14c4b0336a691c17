import Testing
import Unidirectional

// swift-concurrency-extras' `AnyHashableSendable`, which TCA re-exports, ported from its `AnyHashableSendableTests`:
// equality and hashing as `AnyHashable` has them, no double wrapping, literals.

@Suite struct AnyHashableSendableTests {
  @Test func equalWhenTheWrappedValuesAre() {
    #expect(AnyHashableSendable(1) == AnyHashableSendable(1))
    #expect(AnyHashableSendable(1) != AnyHashableSendable(2))
    #expect(AnyHashableSendable("1") != AnyHashableSendable(1))
    #expect(AnyHashableSendable(1 as Int) == AnyHashableSendable(1 as UInt8), "as AnyHashable compares numbers")
  }

  @Test func hashesAsAnyHashable() {
    let set: Set<AnyHashableSendable> = [AnyHashableSendable(1), AnyHashableSendable("one"), AnyHashableSendable(1)]
    #expect(set.count == 2)
    #expect(AnyHashableSendable(1).hashValue == AnyHashableSendable(1 as UInt8).hashValue)
  }

  @Test func wrappingTwiceKeepsTheValue() {
    let once = AnyHashableSendable("id")
    let twice = AnyHashableSendable(once)
    #expect(twice == once)
    #expect(twice.base as? String == "id")
  }

  @Test func literals() {
    let ids: [AnyHashableSendable] = [true, 42, 1.5, "upload"]
    #expect(ids.map(\.description) == ["true", "42", "1.5", "upload"])
    #expect(AnyHashableSendable(42).debugDescription == "AnyHashableSendable(42)")
  }

  @Test func asACancelID() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { state, start in
        guard start else { return .cancel(id: AnyHashableSendable("timer")) }
        return .run { _ in try await Task.never() }.cancellable(id: AnyHashableSendable("timer"))
      }
    }
    let task = store.send(true)
    store.send(false)
    await task.finish()
  }
}
