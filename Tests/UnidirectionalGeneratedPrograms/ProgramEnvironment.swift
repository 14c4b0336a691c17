import Unidirectional

/// What the reducers of one run of a program share: the clock their effects sleep on, the recorder of how each
/// `run` effect ended, and the number of the reduction in progress (which names the effects it builds).
///
/// ```swift
/// let environment = ProgramEnvironment(clock: TestClock())
/// let feature = GeneratedFeature(program: program, environment: environment)
/// ```
final class ProgramEnvironment: Sendable {
  let clock: any Clock<Duration>
  let recorder = RunRecorder()
  /// On a live store: what the effects and the reducer record for the checks that do not depend on order.
  let live: LiveLog?
  /// Every action reduced, in order: the number of a reduction is its index. Changed only while the store reduces
  /// (under its lock), read by the reducer that builds effects.
  private let log = LockIsolated<[GeneratedFeature.Action]>([])

  init(clock: any Clock<Duration>, live: LiveLog? = nil) {
    self.clock = clock
    self.live = live
  }

  /// Called once at the start of every reduction.
  func beginReduction(of action: GeneratedFeature.Action) {
    log.withLock { $0.append(action) }
    live?.reduced()
  }

  /// The number of the reduction in progress (the first action reduced is number 0).
  var currentReduction: Int { reducedCount - 1 }

  var reducedCount: Int { log.withLock { $0.count } }

  /// The actions reduced after the first `count`.
  func reduced(since count: Int) -> [GeneratedFeature.Action] {
    log.withLock { Array($0[count...]) }
  }
}

/// Names a `run` effect: the reduction that built it and its place among the runs of that reduction's effect, in
/// pre-order.
struct RunID: Hashable, Sendable, Comparable, CustomStringConvertible {
  var reduction: Int
  var index: Int

  static func < (lhs: Self, rhs: Self) -> Bool { (lhs.reduction, lhs.index) < (rhs.reduction, rhs.index) }
  var description: String { "\(reduction).\(index)" }
}

/// How a `run` effect's operation ended.
enum RunOutcome: Hashable, Sendable, CustomStringConvertible {
  /// It did every step and was not cancelled.
  case completed
  /// It was cancelled: it ended by `CancellationError`, or ran its last step cancelled. A run the store never
  /// started because it was cancelled first counts as cancelled too.
  case cancelled
  /// A `fail` step threw while it was not cancelled: the handler ran.
  case threw

  var description: String {
    switch self {
    case .completed: "completed"
    case .cancelled: "cancelled"
    case .threw: "threw"
    }
  }
}

/// Records how each `run` effect of a program ended, from whatever thread it ran on.
final class RunRecorder: Sendable {
  private let outcomes = LockIsolated<[RunID: RunOutcome]>([:])

  func ended(_ id: RunID, _ outcome: RunOutcome) {
    outcomes.withLock { $0[id] = outcome }
  }

  var all: [RunID: RunOutcome] { outcomes.value }
}

/// The error a `fail` step throws.
struct GeneratedFailure: Error {}

/// The cancellation ids of generated effects.
struct GeneratedCancelID: Hashable, Sendable {
  let number: Int
}
