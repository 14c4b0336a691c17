/// What a root core changes after init besides the state: its dependencies, its running effects and their
/// cancellation ids. Touched only with the store's lock held.
///
/// Not generic, so making and destroying a store looks up no runtime type for it; what depends on the store's
/// `State` and `Action` (queued actions, state streams) is in the core's `RareBookkeeping`, made the first time a
/// store needs it.
struct RootBookkeeping {
  var dependencies: ReducerDependencies
  var nextEffectID: UInt64 = 1
  var effects: [UInt64: EffectRecord] = [:]
  var cancellables: [CancelID: Set<UInt64>] = [:]
  /// The core's `RareBookkeeping`, once made (see ``RootCore/rare``).
  var rare: AnyObject?
}
