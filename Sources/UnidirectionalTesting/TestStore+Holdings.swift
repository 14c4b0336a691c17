import Unidirectional

extension TestStore {
  /// What the store under test holds for its effects: after `finish()`, a store that keeps nothing per finished
  /// effect holds ``StoreHoldings/empty``. Package-only, for the library's tests of long use.
  ///
  /// ```swift
  /// await store.finish()
  /// #expect(store.holdings == .empty)
  /// ```
  package var holdings: StoreHoldings { store.holdings }
}
