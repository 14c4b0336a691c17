import Foundation
import Unidirectional

/// One store's actions in a trace, as the inspector shows a trace opened alone (``InspectorTraceModel``): each
/// step's name, origin, time and description, and — in a trace of the store's states
/// (`StoreTracer.instrument(for:recordingStates:)`, as the interleaving explorer writes a failing run) — the state
/// after it and what it changed. The file stays mapped; each text is decoded when its step is shown.
///
/// ```swift
/// let trace = try InspectorTrace(contentsOf: url, keepsSteps: true)
/// let steps = trace.steps
/// steps?.summary(of: 1).name   // "queryChanged"
/// ```
package final class InspectorTraceSteps: Sendable {
  /// The longest state or diff shown: the rest is cut.
  static let stateLimit = 1 << 20

  private let data: Data
  private let steps: [TraceStoreTrack.Step]

  init(data: Data, steps: [TraceStoreTrack.Step]) {
    self.data = data
    self.steps = steps
  }

  /// How many steps there are.
  package var count: Int { steps.count }

  /// Whether the trace has the states after its actions.
  package var hasStates: Bool { steps.contains { $0.state != nil } }

  /// Step `number` (from 1) as a row of the step list.
  package func summary(of number: Int) -> InspectorStepSummary {
    let step = steps[number - 1]
    return InspectorStepSummary(
      n: number, name: Self.caseName(text(step.name) ?? ""), origin: text(step.origin) ?? "",
      time: step.time / 1e6)
  }

  /// The numbers of the steps whose name contains `filter`, ignoring case.
  package func steps(matching filter: String) -> [Int] {
    let needle = filter.lowercased()
    return steps.indices.map { $0 + 1 }.filter { summary(of: $0).name.lowercased().contains(needle) }
  }

  /// Step `number` (from 1) in full.
  package func detail(of number: Int) -> InspectorStepDetail {
    let step = steps[number - 1]
    let state =
      text(step.state, limit: Self.stateLimit)
      ?? "(the trace does not record states: trace the store with recordingStates: true)"
    return InspectorStepDetail(
      n: number, name: Self.caseName(text(step.name) ?? ""), action: text(step.action) ?? text(step.name) ?? "",
      origin: text(step.origin) ?? "", time: step.time / 1e6, state: state,
      diff: text(step.diff, limit: Self.stateLimit), matchesRecording: nil, recorded: nil)
  }

  private func text(_ text: TraceEvent.Text?, limit: Int = TraceEventReader.keptStringLimit) -> String? {
    guard let text else { return nil }
    return data.withUnsafeBytes { TraceEvent.decode(text, in: $0, limit: limit) }
  }

  /// An action's case path from the short name a trace gives it: `.row(id: 3, action: .tap)` → `row.tap`,
  /// `.queryChanged("ab")` → `queryChanged`.
  static func caseName(_ shortName: String) -> String {
    var names: [Substring] = []
    var rest = Substring(shortName)
    while rest.first == "." {
      rest = rest.dropFirst()
      let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      guard !name.isEmpty else { break }
      names.append(name)
      rest = rest.dropFirst(name.count)
      guard rest.first == "(" else { break }
      rest = rest.dropFirst()
      // A labelled payload's last value is the nested action, as the inspector names a log's: `action: .tap`.
      if let nested = rest.range(of: ": .", options: .backwards), !rest.hasPrefix(".") {
        rest = rest[rest.index(nested.upperBound, offsetBy: -1)...]
      }
    }
    return names.isEmpty ? shortName : names.joined(separator: ".")
  }
}
