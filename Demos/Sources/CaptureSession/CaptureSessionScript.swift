import Foundation

/// A capture session written down: what the simulator reports, and after how long. Each step waits its delay on
/// the injected clock, then reports a state change or takes a shot.
///
/// Scripts can also be read from text, one step a line (`#` starts a comment):
///
/// ```
/// # delay  event
/// 200ms    ready
/// 0.3s     detecting
/// 200ms    capturing
/// 100ms    shot
/// 100ms    shot
/// 200ms    finishing
/// 200ms    completed
/// ```
///
/// ```swift
/// let script = try CaptureSessionScript(parsing: text)
/// let client = CaptureSessionClient.simulator(script: script)
/// ```
///
/// A script may contain steps a real session would never report (`capturing` straight after `ready`): the
/// feature refuses them, which is how the lifecycle rules can be watched in a demo.
public struct CaptureSessionScript: Hashable, Sendable {
  /// What one step reports.
  ///
  /// ```swift
  /// CaptureSessionScript.Event.state(.ready)   // written "ready"
  /// CaptureSessionScript.Event.shot            // written "shot"
  /// ```
  public enum Event: Hashable, Sendable, CustomStringConvertible {
    /// The session reports this state.
    case state(CaptureSessionState)
    /// The session takes its next shot.
    case shot

    /// The step as written in a script: `ready`, `failed Not enough light`, `shot`.
    public var description: String {
      switch self {
      case let .state(.failed(reason)): return "failed \(reason)"
      case let .state(state): return state.description
      case .shot: return "shot"
      }
    }
  }

  /// One step: wait `delay`, then report `event`.
  ///
  /// ```swift
  /// let step = CaptureSessionScript.Step(delay: .milliseconds(200), event: .state(.ready))   // "200ms ready"
  /// ```
  public struct Step: Hashable, Sendable {
    /// How long to wait after the previous step.
    public var delay: Duration
    /// What to report then.
    public var event: Event

    /// Waits `delay`, then reports `event`.
    public init(delay: Duration, event: Event) {
      self.delay = delay
      self.event = event
    }
  }

  /// Why a script's text was refused.
  ///
  /// ```swift
  /// try CaptureSessionScript(parsing: "soon ready")
  /// // throws .invalidLine(number: 1, reason: "\"soon\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")
  /// ```
  public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The script file cannot be read.
    case unreadable(path: String, reason: String)
    /// A line is not `DELAY EVENT`.
    case invalidLine(number: Int, reason: String)
    /// The script has no steps.
    case empty

    public var description: String {
      switch self {
      case let .unreadable(path, reason): return "Cannot read the script \(path): \(reason)."
      case let .invalidLine(number, reason): return "Script line \(number): \(reason)."
      case .empty: return "The script has no steps."
      }
    }
  }

  /// The steps, in order.
  public var steps: [Step]

  /// A script of `steps`.
  public init(steps: [Step]) {
    self.steps = steps
  }

  /// How many shots the script takes.
  public var shotCount: Int { steps.filter { $0.event == .shot }.count }

  /// The longest delay one step may have.
  public static let maximumDelay: Duration = .seconds(3_600)

  /// A session that goes the whole way: `ready`, `detecting`, `capturing`, `shotCount` shots, `finishing`,
  /// `completed`, with `stepDelay` before each state change and `shotInterval` before each shot.
  public static func standard(
    shotCount: Int = 8, stepDelay: Duration = .milliseconds(200), shotInterval: Duration = .milliseconds(100)
  ) -> CaptureSessionScript {
    var steps = [CaptureSessionState.ready, .detecting, .capturing].map { Step(delay: stepDelay, event: .state($0)) }
    steps += Array(repeating: Step(delay: shotInterval, event: .shot), count: max(0, shotCount))
    steps += [CaptureSessionState.finishing, .completed].map { Step(delay: stepDelay, event: .state($0)) }
    return CaptureSessionScript(steps: steps)
  }

  /// Reads a script from its text (see the type's documentation for the format).
  public init(parsing text: String) throws(ParseError) {
    var steps: [Step] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let first = words.first else { continue }
      let number = index + 1
      guard let delay = Self.delay(String(first)) else {
        throw .invalidLine(
          number: number, reason: "\"\(first)\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")
      }
      guard words.count >= 2 else { throw .invalidLine(number: number, reason: "an event must follow the delay") }
      let name = words[1].lowercased()
      let rest = words.dropFirst(2).joined(separator: " ")
      let event: Event
      switch name {
      case "initializing": event = .state(.initializing)
      case "ready": event = .state(.ready)
      case "detecting": event = .state(.detecting)
      case "capturing": event = .state(.capturing)
      case "finishing": event = .state(.finishing)
      case "completed": event = .state(.completed)
      case "shot": event = .shot
      case "failed":
        event = .state(.failed(reason: rest.isEmpty ? "The capture session failed." : rest))
      default:
        throw .invalidLine(
          number: number,
          reason: "unknown event \"\(words[1])\" (expected initializing, ready, detecting, capturing, finishing, "
            + "completed, failed REASON or shot)")
      }
      if name != "failed", !rest.isEmpty {
        throw .invalidLine(number: number, reason: "unexpected \"\(rest)\" after \(name)")
      }
      steps.append(Step(delay: delay, event: event))
    }
    guard !steps.isEmpty else { throw .empty }
    self.init(steps: steps)
  }

  /// Reads the script in the file at `url`.
  public init(contentsOf url: URL) throws(ParseError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: url.path, reason: "the file cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .unreadable(path: url.path, reason: "it is not UTF-8 text")
    }
    try self.init(parsing: text)
  }

  /// `200ms`, `0.2s` or `0.2` (seconds), from 0 to ``maximumDelay``.
  private static func delay(_ text: String) -> Duration? {
    let lowered = text.lowercased()
    let (number, scale): (Substring, Double) =
      lowered.hasSuffix("ms")
      ? (lowered.dropLast(2), 0.001) : lowered.hasSuffix("s") ? (lowered.dropLast(1), 1) : (Substring(lowered), 1)
    guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
    let milliseconds = value * scale * 1_000
    guard milliseconds <= 3_600_000 else { return nil }
    return .microseconds(Int64((milliseconds * 1_000).rounded()))
  }
}
