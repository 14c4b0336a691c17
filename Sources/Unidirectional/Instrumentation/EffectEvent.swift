/// An effect a store started, cancelled or saw finish, as told to a ``StoreInstrument``.
///
/// Every effect is started by the reduction of one action (``startedBy``, its ``Reduction/sequence``); an effect
/// whose actions start more effects is their ``parent``.
///
/// ```swift
/// func effectDidChange(_ event: EffectEvent) {
///   print("effect \(event.effect) of action #\(event.startedBy): \(event.kind)")
/// }
/// ```
public struct EffectEvent: Sendable, Equatable {
  /// What happened to the effect.
  public enum Kind: String, Sendable, Equatable {
    /// The reducer returned it and the store started it.
    case started
    /// It was cancelled (by id, by its `send`'s task, or because the store was released); it may still be winding
    /// down, and ``finished`` follows when it has.
    case cancelled
    /// Its work has ended, after running to completion or after being cancelled.
    case finished
  }

  /// What happened.
  public let kind: Kind
  /// The effect's id: unique in its store, counting up from 1.
  public let effect: UInt64
  /// The ``Reduction/sequence`` of the action whose reduction started the effect.
  public let startedBy: UInt64
  /// The effect that fed back the action which started this one (reported with ``Kind/started``).
  public let parent: UInt64?
  /// When it happened, in ``InstrumentationClock`` nanoseconds, if the instrument ``StoreInstrument/measuresTime``.
  public let time: UInt64?

  /// An event record (stores make these; tests of instruments may too).
  public init(kind: Kind, effect: UInt64, startedBy: UInt64, parent: UInt64?, time: UInt64?) {
    self.kind = kind
    self.effect = effect
    self.startedBy = startedBy
    self.parent = parent
    self.time = time
  }
}
