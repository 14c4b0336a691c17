import Foundation
import Unidirectional

/// A store trace opened alone in the inspector, as an action log with its effect timeline: the steps, each
/// action's description, and — in a trace of the store's states (`StoreTracer.instrument(for:recordingStates:)`,
/// which the interleaving explorer writes for a failing run) — the state after every step and the diff it made. No
/// reducer and no `Codable` actions are needed: the trace holds the text.
///
/// ```swift
/// let model = try InspectorTraceModel(contentsOf: URL(fileURLWithPath: "failing-run.trace.json"))
/// let server = try InspectorServer(model: model)
/// print(server.url)
/// ```
public final class InspectorTraceModel: InspectorModel, Sendable {
  private let trace: InspectorTrace
  private let steps: InspectorTraceSteps

  /// Reads the trace at `url` (the store with the most actions when it has several, or the one named `feature`).
  public init(contentsOf url: URL, feature: String? = nil) throws(InspectorError) {
    do {
      trace = try InspectorTrace(contentsOf: url, feature: feature, keepsSteps: true)
    } catch {
      throw .cannotRead(path: url.path, reason: error.description)
    }
    steps = trace.steps ?? InspectorTraceSteps(data: Data(), steps: [])
  }

  /// How many steps (actions) the trace has.
  public var stepCount: Int { steps.count }

  /// How many effects its timeline has.
  public var effectCount: Int { trace.effectCount }

  /// Whether it has the state after each step (a trace written with `recordingStates: true`).
  public var hasStates: Bool { steps.hasStates }

  package func info() -> InspectorInfo {
    var notes = trace.notes
    if !steps.hasStates { notes.append("the trace has no states: each step shows its action only") }
    return InspectorInfo(
      mode: "trace",
      feature: trace.storeName.hasSuffix(" store") ? String(trace.storeName.dropLast(6)) : trace.storeName,
      stepCount: steps.count, firstDivergence: nil, dropped: 0, ended: true,
      timeline: InspectorTimelineInfo(
        source: trace.fileURL.lastPathComponent, effectCount: trace.effectCount, notes: notes, error: nil))
  }

  package func steps(from: Int, count: Int, filter: String?) -> InspectorStepPage {
    .window(
      from: from, count: count, total: steps.count, matches: filter.map { steps.steps(matching: $0) },
      summary: { steps.summary(of: $0) })
  }

  package func step(_ number: Int) throws(InspectorError) -> InspectorStepDetail {
    guard number >= 0, number <= steps.count else { throw .noSuchStep(number) }
    guard number > 0 else {
      return InspectorStepDetail(
        n: 0, name: "", action: "", origin: "", time: 0,
        state: "(a trace records the state after each action: the one before the first is not in it)", diff: nil,
        matchesRecording: nil, recorded: nil)
    }
    return steps.detail(of: number)
  }

  package func effects(from first: Int, to last: Int, offset: Int, count: Int) -> InspectorEffectPage {
    trace.effects(from: first, to: last, offset: offset, count: count)
  }
}
