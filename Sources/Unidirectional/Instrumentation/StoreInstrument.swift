/// Sees what a store does, as it does it: every action it reduces — where it came from, its place in the store's
/// sequence and, if asked, how long the reducer took — and every effect it starts, cancels and finishes.
///
/// Install instruments when you create the store (``Store/init(initialState:instruments:reducer:withDependencies:)``);
/// action logs (`UnidirectionalActionLog`), ``StoreTracer`` and the `TestStore` are built on this hook.
///
/// ```swift
/// final class SlowActionLogger: StoreInstrument, @unchecked Sendable {
///   var measuresTime: Bool { true }
///   func didReduce(_ action: Counter.Action, _ reduction: Reduction, state: ReducedState<Counter.State>) {
///     if let timing = reduction.timing, timing.nanoseconds > 1_000_000 { print("slow: \(describe(action))") }
///   }
/// }
/// let store = Store(initialState: Counter.State(), instruments: [SlowActionLogger()]) { Counter() }
/// ```
///
/// **Every method is called with the store's lock held**, in the order things happen, one call at a time: keep it
/// short (copy what you need and format or write it on another thread), don't block, and don't call back into the
/// store. State an instrument changes only from these methods needs no lock of its own.
///
/// Cost: a store without instruments pays nothing for this hook. With one that does nothing, a `send` pays for the
/// calls (a few nanoseconds); ``measuresTime`` adds two clock readings per action.
public protocol StoreInstrument<State, Action>: AnyObject, Sendable {
  /// The observed store's state.
  associatedtype State
  /// The observed store's actions.
  associatedtype Action: Sendable

  /// Whether the store reads ``InstrumentationClock`` for this instrument: the start and duration of every reducer
  /// call (``Reduction/timing``) and the time of every effect event. Read once, when the store is created; when
  /// several instruments share a store, all of them get times if any asks.
  var measuresTime: Bool { get }

  /// A buffer the store copies each step into itself, on its send path, instead of calling
  /// ``didReduce(_:_:state:)`` — when this is the store's only instrument (see ``StepBuffer``). Read once, when the
  /// store is created. `nil` by default.
  var stepBuffer: StepBuffer<State, Action>? { get }

  /// Called once, as the store is created, before it reduces anything.
  func storeDidStart(_ store: InstrumentedStore<State>)

  /// Called after the reducer has run for `action`, with the state it left (read in place: copy `state.value` to
  /// keep it).
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>)

  /// Called when an effect starts, is cancelled, and finishes.
  func effectDidChange(_ event: EffectEvent)

  /// Called once, when the store (and every store scoped from it) has been released and its last effect has
  /// ended: nothing more will be reported.
  func storeDidEnd()
}

extension StoreInstrument {
  /// No clock readings.
  public var measuresTime: Bool { false }
  /// No step buffer: the store calls ``didReduce(_:_:state:)``.
  public var stepBuffer: StepBuffer<State, Action>? { nil }
  /// Does nothing.
  public func storeDidStart(_ store: InstrumentedStore<State>) {}
  /// Does nothing.
  public func effectDidChange(_ event: EffectEvent) {}
  /// Does nothing.
  public func storeDidEnd() {}
}
