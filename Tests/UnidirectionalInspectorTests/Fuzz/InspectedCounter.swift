import Unidirectional

/// The reducer the inspector's fuzz targets show logs and a live store of: the demo counter's state and actions
/// (`demo inspect` opens `demo counter --record` logs through it), with `tickSize` 2 as the demo's
/// `--changed-counter`, plus actions with payloads for the step list's names. Counts saturate: the reducer never
/// traps on what a log holds.
///
/// ```swift
/// let model = try InspectorLogModel(contentsOf: url, reducer: InspectedCounter(tickSize: 2),
///                                   recordedReducer: InspectedCounter())
/// ```
struct InspectedCounter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var target = 3
    var isRunning = false
  }

  enum Action: Codable, Equatable, Sendable {
    case start
    case tick
    case add(Int)
    case note(text: String, detail: Detail?)
  }

  indirect enum Detail: Codable, Equatable, Sendable {
    case plain
    case nested(Detail?)
  }

  var tickSize = 1

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      // A live store's timeline gets an effect; a replay drops it (the tick it feeds back is in the log).
      return .run { send in send(.tick) }
    case .tick:
      state.count = Self.saturatingSum(state.count, tickSize)
      state.isRunning = state.count < state.target
    case let .add(amount):
      state.count = Self.saturatingSum(state.count, amount)
    case .note:
      break
    }
    return .none
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b < 0 ? .min : .max) : sum
  }
}
