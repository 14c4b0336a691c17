/// What a root store holds for its running effects, counted: after every effect has finished, all of it is zero
/// (a store that lives for days keeps nothing for an effect that has finished).
///
/// ```swift
/// await store.send(.refresh).finish()
/// #expect(store.bookkeeping == StoreBookkeeping())
/// ```
package struct StoreBookkeeping: Equatable, Sendable, CustomStringConvertible {
  /// Effects running (records in the effect table).
  package var effects = 0
  /// Keys of the cancellation table, and the effect ids registered under them in all.
  package var cancellationKeys = 0
  package var cancellationEntries = 0
  /// Units of `withTaskCancellation(id:)` registered inside effects, in all keys.
  package var registeredWork = 0
  /// Open `states` streams.
  package var streams = 0
  /// Actions queued re-entrantly, waiting to be reduced.
  package var queued = 0

  package init() {}

  package var description: String {
    """
    effects \(effects), cancellation keys \(cancellationKeys) (\(cancellationEntries) entries), registered work \
    \(registeredWork), streams \(streams), queued \(queued)
    """
  }
}

extension RootCore {
  /// The counts of the store's tables now.
  var bookkeeping: StoreBookkeeping {
    locked {
      var counts = StoreBookkeeping()
      counts.effects = mutable.pointee.effects.count
      counts.cancellationKeys = mutable.pointee.cancellables.count
      counts.cancellationEntries = mutable.pointee.cancellables.values.reduce(0) { $0 + $1.count }
      counts.registeredWork = rare?.registeredWork.values.reduce(0) { $0 + $1.count } ?? 0
      counts.streams = rare?.streams.count ?? 0
      counts.queued = rare?.queue.count ?? 0
      return counts
    }
  }
}
