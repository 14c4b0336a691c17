/// A replayed step read a kind of non-deterministic value a different number of times than the recording did: the
/// reducer changed how it uses `uuid()`, `date.now`, random numbers or a clock's `now` (a cause of an
/// ``ActionLogDivergence``).
///
/// ```swift
/// for mismatch in divergence.readMismatches { print(mismatch) }   // "uuid: read 2 times, recorded 1"
/// ```
public struct ActionLogReadMismatch: Sendable, Equatable, CustomStringConvertible {
  /// The kind of value, as the log names it: `uuid`, `date`, `random`, `clock.now`, `continuousClock.now`,
  /// `suspendingClock.now`.
  public let name: String
  /// How many the recording read.
  public let recorded: Int
  /// How many the replay read.
  public let replayed: Int

  /// A mismatch of `name`.
  public init(name: String, recorded: Int, replayed: Int) {
    self.name = name
    self.recorded = recorded
    self.replayed = replayed
  }

  /// `uuid: read 2 times, recorded 1`.
  public var description: String {
    "\(name): read \(Self.times(replayed)), recorded \(recorded)"
  }

  private static func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }
}
