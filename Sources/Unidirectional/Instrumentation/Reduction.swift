/// What a store tells a ``StoreInstrument`` about one reduced action, besides the action and the state.
///
/// ```swift
/// func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
///   print("#\(reduction.sequence) \(reduction.origin): \(describe(action))")
/// }
/// ```
public struct Reduction: Sendable, Equatable {
  /// The action's place among every action this store reduced: 1 for the first.
  public let sequence: UInt64
  /// Sent by the host, or fed back by an effect.
  public let origin: ActionOrigin
  /// The running effect (its ``EffectEvent/effect`` id) that caused the action — it sent it, or sent an action
  /// whose `.send` effects fed it back — or `nil`.
  public let effect: UInt64?
  /// When the reducer ran and for how long, if the instrument ``StoreInstrument/measuresTime``.
  public let timing: ReducerTiming?

  /// A reduction record (stores make these; tests of instruments may too).
  public init(sequence: UInt64, origin: ActionOrigin, effect: UInt64?, timing: ReducerTiming?) {
    self.sequence = sequence
    self.origin = origin
    self.effect = effect
    self.timing = timing
  }
}

/// When a reducer call started and how long it took, on ``InstrumentationClock``.
///
/// ```swift
/// if let timing = reduction.timing { print("reducer: \(timing.duration)") }
/// ```
public struct ReducerTiming: Sendable, Equatable {
  /// When the reducer was called, in ``InstrumentationClock`` nanoseconds.
  public let start: UInt64
  /// How long it ran, in nanoseconds.
  public let nanoseconds: UInt64

  /// A timing of `nanoseconds` from `start`.
  public init(start: UInt64, nanoseconds: UInt64) {
    self.start = start
    self.nanoseconds = nanoseconds
  }

  /// How long the reducer ran.
  public var duration: Duration { .nanoseconds(Int64(clamping: nanoseconds)) }
}
