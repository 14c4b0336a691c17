import Unidirectional

/// The feature the action-log fuzz target replays logs through: the demo counter's fields and actions (`count`,
/// `target`, `isRunning`; `start`, `tick`), so a log `demo counter --record` wrote replays as it is, and values of
/// every other shape a log's JSON holds (strings, optionals, arrays, sets, doubles, an enum with associated values).
///
/// Missing state fields take their defaults: a demo counter's initial state decodes. The reducer never traps on
/// what a log says: counts saturate and the history keeps its last 64 entries.
///
/// ```swift
/// let replay = try ActionLogReplay(contentsOf: url, reducer: FuzzedLogFeature())
/// ```
struct FuzzedLogFeature: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var target = 0
    var isRunning = false
    var label: String?
    var history: [Int] = []
    var tags: Set<String> = []
    var ratio = 1.0
    var mode = Mode.idle

    init() {}

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
      target = try container.decodeIfPresent(Int.self, forKey: .target) ?? 0
      isRunning = try container.decodeIfPresent(Bool.self, forKey: .isRunning) ?? false
      label = try container.decodeIfPresent(String.self, forKey: .label)
      history = try container.decodeIfPresent([Int].self, forKey: .history) ?? []
      tags = try container.decodeIfPresent(Set<String>.self, forKey: .tags) ?? []
      ratio = try container.decodeIfPresent(Double.self, forKey: .ratio) ?? 1
      mode = try container.decodeIfPresent(Mode.self, forKey: .mode) ?? .idle
    }
  }

  enum Mode: Codable, Equatable, Sendable {
    case idle
    case busy(step: Int, note: String?)
  }

  enum Action: Codable, Equatable, Sendable {
    case start
    case tick
    case add(Int)
    case setLabel(String?)
    case tag(String)
    case scale(Double)
    case setMode(Mode)
    case reset
  }

  /// What each tick adds (2: the demo's `--changed-counter`).
  var tickSize = 1

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      return .run { send in send(.tick) }
    case .tick:
      state.count = Self.saturatingSum(state.count, tickSize)
      state.isRunning = state.count < state.target
    case let .add(amount):
      state.count = Self.saturatingSum(state.count, amount)
      state.history.append(amount)
      if state.history.count > 64 { state.history.removeFirst(state.history.count - 64) }
    case let .setLabel(label):
      state.label = label
    case let .tag(tag):
      state.tags.insert(tag)
    case let .scale(factor):
      state.ratio *= factor
    case let .setMode(mode):
      state.mode = mode
    case .reset:
      state = State()
    }
    return .none
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b < 0 ? .min : .max) : sum
  }
}
