import Foundation
import Unidirectional
import UnidirectionalActionLog

/// Replays one log to any step on request: forward from where it stands, or from the nearest kept
/// ``ActionLogReplay/Position`` (one every ``interval`` steps, taken as it passes them), so stepping back and
/// forth through a long log never replays it from the start again.
///
/// ```swift
/// let cursor = try ReplayCursor(url: logURL, reducer: Counter())
/// let step = try cursor.step(4_097)      // replays 1…4,097 once; `step(10)` then resumes from the start
/// ```
final class ReplayCursor<R: Reducer> where R.State: Codable, R.Action: Decodable {
  /// Steps between kept positions.
  static var interval: Int { 1_024 }

  private let url: URL
  private let reducer: R
  private var replay: ActionLogReplay<R>
  private let start: ActionLogReplay<R>.Position
  private var positions: [Int: ActionLogReplay<R>.Position] = [:]

  init(url: URL, reducer: R) throws(ActionLogError) {
    self.url = url
    self.reducer = reducer
    replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
    start = replay.position
  }

  /// The log's initial state.
  var initialState: R.State { replay.initialState }

  /// The first divergence the replay has met so far.
  var firstDivergence: ActionLogDivergence<R.Action>? { replay.firstDivergence }

  /// Replays step `number` (from 1), or `nil` past the end of the log.
  func step(_ number: Int) throws(ActionLogError) -> ActionLogStep<R.State, R.Action>? {
    try move(to: number - 1)
    guard replay.stepCount == number - 1 else { return nil }
    return try advance()
  }

  /// Replays forward until a divergence or the end; returns the divergent step's number.
  func findFirstDivergence() throws(ActionLogError) -> Int? {
    if let found = replay.firstDivergence { return found.number }
    try move(to: 0)
    while try advance() != nil {
      if let found = replay.firstDivergence { return found.number }
    }
    return replay.firstDivergence?.number
  }

  /// Leaves the replay after `target` steps (or at the end of a shorter log).
  private func move(to target: Int) throws(ActionLogError) {
    if replay.stepCount > target || target - replay.stepCount > Self.interval {
      let resume = nearestKept(atOrBefore: target)
      if resume.stepCount > replay.stepCount || replay.stepCount > target {
        replay = try ActionLogReplay(contentsOf: url, reducer: reducer, resumingAt: resume)
      }
    }
    while replay.stepCount < target, try advance() != nil {}
  }

  /// The kept position closest before step `target` (or the start).
  private func nearestKept(atOrBefore target: Int) -> ActionLogReplay<R>.Position {
    let kept = target / Self.interval * Self.interval
    return (stride(from: kept, through: 1, by: -Self.interval).lazy.compactMap { self.positions[$0] }.first) ?? start
  }

  private func advance() throws(ActionLogError) -> ActionLogStep<R.State, R.Action>? {
    let step: ActionLogStep<R.State, R.Action>?
    do {
      step = try replay.next()
    } catch {
      // The line that failed has been read: without going back before it, the same step asked again would read
      // the line after it (or the end) and answer "no such step", or replay the wrong line in its place.
      rewind(to: replay.stepCount)
      throw error
    }
    guard let step else { return nil }
    if step.number % Self.interval == 0, positions[step.number] == nil { positions[step.number] = replay.position }
    return step
  }

  /// Reopens the replay after `target` steps (each of which replayed before), before the line that follows them.
  private func rewind(to target: Int) {
    let resume = nearestKept(atOrBefore: target)
    guard let reopened = try? ActionLogReplay(contentsOf: url, reducer: reducer, resumingAt: resume) else { return }
    replay = reopened
    while replay.stepCount < target, (try? replay.next()) != nil {}
  }
}
