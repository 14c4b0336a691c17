/// What a root store holds for its effects right now: the counts a test of long use checks are back to zero once
/// every effect has finished (a store that lives for days must keep nothing per finished effect).
///
/// Package-only: the generated-program tests and the memory tests read it.
///
/// ```swift
/// await store.finish()
/// #expect(store.holdings == .empty)
/// ```
package struct StoreHoldings: Equatable, Sendable, CustomStringConvertible {
  /// Records in the effect table: effects started and not finished.
  package var effects = 0
  /// Ids in the cancellation table.
  package var cancellationIDs = 0
  /// Effects registered under those ids, counted once per id.
  package var cancellationEntries = 0
  /// Work registered by `withTaskCancellation(id:)` inside effects, counted once per id.
  package var registeredWork = 0
  /// Actions sent re-entrantly and not yet reduced.
  package var queuedActions = 0

  package init() {}

  /// Nothing held.
  package static let empty = StoreHoldings()

  package var description: String {
    """
    effects: \(effects), cancellation ids: \(cancellationIDs) (\(cancellationEntries) entries), \
    registered work: \(registeredWork), queued actions: \(queuedActions)
    """
  }
}

extension Store {
  /// What this root store holds for its effects (``StoreHoldings``); empty for a scoped store.
  package var holdings: StoreHoldings {
    (core as? any HoldingsReporting)?.holdings ?? .empty
  }
}

/// A store core that can count what it holds.
protocol HoldingsReporting {
  var holdings: StoreHoldings { get }
}

extension RootCore: HoldingsReporting {
  var holdings: StoreHoldings {
    locked {
      var holdings = StoreHoldings()
      holdings.effects = mutable.pointee.effects.count
      holdings.cancellationIDs = mutable.pointee.cancellables.count
      holdings.cancellationEntries = mutable.pointee.cancellables.values.reduce(0) { $0 + $1.count }
      holdings.registeredWork = rare?.registeredWork.values.reduce(0) { $0 + $1.count } ?? 0
      holdings.queuedActions = rare?.queue.count ?? 0
      return holdings
    }
  }
}
