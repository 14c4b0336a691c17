import Foundation
import Unidirectional
import UnidirectionalActionLog

/// An action log as the inspector shows it: the step list from an index of the file, and each step's state and
/// diff replayed through the feature's reducer when the page asks for it.
///
/// With `recordedReducer` (the reducer as it was when recording), the log is replayed through `reducer` as a
/// changed one: the page opens at the first step whose state differs from the recording, and every step shows the
/// recorded state next to the replayed one. With the run's trace (`trace`), the page shows its effect timeline; a
/// trace that cannot be read leaves the log open without it (``traceError``).
///
/// ```swift
/// let model = try InspectorLogModel(contentsOf: logURL, reducer: Counter())
/// let server = try InspectorServer(model: model)
/// ```
public final class InspectorLogModel<R: Reducer>: InspectorModel, @unchecked Sendable
where R.State: Codable, R.Action: Decodable {
  private let index: InspectorLogIndex
  private let header: ActionLogHeader
  private let isChanged: Bool
  private let timeline: Result<InspectorTrace, InspectorTraceError>?
  // Replays are stateful: one request at a time uses them.
  private let lock = NSLock()
  private let cursor: ReplayCursor<R>
  private let recordedCursor: ReplayCursor<R>?
  private var divergence: Int??

  /// Indexes the log at `url` and prepares to replay it through `reducer` (and `recordedReducer`, if given); reads
  /// the run's effect timeline from `trace`, if given.
  public init(contentsOf url: URL, reducer: R, recordedReducer: R? = nil, trace: URL? = nil) throws(InspectorError) {
    index = try InspectorLogIndex(url: url)
    do {
      cursor = try ReplayCursor(url: url, reducer: reducer)
      recordedCursor = try recordedReducer.map { reducer throws(ActionLogError) in
        try ReplayCursor(url: url, reducer: reducer)
      }
      header = try ActionLogHeader.read(from: url)
    } catch {
      throw .cannotRead(path: url.path, reason: error.description)
    }
    isChanged = recordedReducer != nil
    let feature = header.feature
    timeline = trace.map { url in
      Result { () throws(InspectorTraceError) in try InspectorTrace(contentsOf: url, feature: feature) }
    }
  }

  /// How many steps (actions) the log has, not counting the initial state.
  public var stepCount: Int { index.stepCount }

  /// How many effects the trace's timeline has: 0 without a trace, or with one that could not be read.
  public var effectCount: Int {
    guard case let .success(trace) = timeline else { return 0 }
    return trace.effectCount
  }

  /// Why the trace given to `init` could not be read, if it could not: the log opens without the effect timeline.
  public var traceError: InspectorTraceError? {
    guard case let .failure(error) = timeline else { return nil }
    return error
  }

  package func info() -> InspectorInfo {
    InspectorInfo(
      mode: isChanged ? "changed" : "log", feature: header.feature, stepCount: index.stepCount,
      firstDivergence: isChanged ? firstDivergence() : lock.withLock { cursor.firstDivergence?.number },
      dropped: 0, ended: true, timeline: timelineInfo())
  }

  package func effects(from first: Int, to last: Int, offset: Int, count: Int) throws(InspectorError)
    -> InspectorEffectPage
  {
    guard case let .success(trace) = timeline else { throw .noTimeline }
    return trace.effects(from: first, to: last, offset: offset, count: count)
  }

  private func timelineInfo() -> InspectorTimelineInfo? {
    switch timeline {
    case nil:
      return nil
    case let .failure(error):
      return InspectorTimelineInfo(source: "", effectCount: 0, notes: [], error: error.description)
    case let .success(trace):
      var notes = trace.notes
      if trace.lastStep != index.stepCount {
        notes.append(
          "the trace's last action is step \(trace.lastStep) but the log has \(index.stepCount) steps: "
            + "they may not be of the same run")
      }
      return InspectorTimelineInfo(
        source: trace.fileURL.lastPathComponent, effectCount: trace.effectCount, notes: notes, error: nil)
    }
  }

  package func steps(from: Int, count: Int, filter: String?) -> InspectorStepPage {
    .window(
      from: from, count: count, total: index.stepCount, matches: filter.map { index.steps(matching: $0) },
      summary: { index.summary(of: $0) })
  }

  package func step(_ number: Int) throws(InspectorError) -> InspectorStepDetail {
    guard number >= 0, number <= index.stepCount else { throw .noSuchStep(number) }
    lock.lock()
    defer { lock.unlock() }
    do {
      guard number > 0 else {
        return InspectorStepDetail(
          n: 0, name: "", action: "", origin: "", time: 0, state: customDump(cursor.initialState), diff: nil,
          matchesRecording: nil, recorded: nil)
      }
      guard let step = try cursor.step(number) else { throw InspectorError.noSuchStep(number) }
      var detail = InspectorStepDetail(
        n: number, name: InspectorActionName.of(step.action), action: customDump(step.action),
        origin: step.origin.rawValue, time: Self.seconds(step.time), state: customDump(step.state),
        diff: step.stateDiff, matchesRecording: step.matchesRecording, recorded: nil)
      if let recordedStep = try recordedCursor?.step(number) {
        detail.recorded = InspectorRecordedState(
          state: customDump(recordedStep.state), diff: diff(recordedStep.state, step.state))
      }
      return detail
    } catch let error as InspectorError {
      throw error
    } catch {
      throw .cannotShow(step: number, reason: "\(error)")
    }
  }

  /// Replays through the changed reducer until the first divergence (once).
  private func firstDivergence() -> Int? {
    lock.withLock {
      if let divergence { return divergence }
      let found = try? cursor.findFirstDivergence()
      divergence = .some(found)
      return found
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
