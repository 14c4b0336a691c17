import Foundation

@testable import UnidirectionalInspector

/// The body of `Scripts/fuzz inspector-trace`, run by the corpus test over every committed input too: the input is a
/// trace file as `demo inspect --trace` opens it (``InspectorTrace``), read with the standard limits and with limits
/// small enough for an input to pass them.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - reading ends in a timeline or an ``InspectorTraceError``; `tooLarge` only when a limit was small;
/// - the last step is not negative, and the effect count is what a window of every step shows;
/// - a window of the timeline, whatever its steps, offset and count (`Int.min`…`Int.max`), has at most `count`
///   effects, each running at some step of the window, and a total of at least what it shows from its offset;
/// - a window's answer encodes as JSON (the server sends it so).
///
/// ```swift
/// InspectorTraceFuzz.fuzz(Data(contentsOf: corpusFile))
/// ```
enum InspectorTraceFuzz {
  /// Limits an input of a few KB can go past.
  static let smallLimits = InspectorTrace.Limits(bytes: 4_096, effects: 8, actions: 16)

  static func fuzz(_ data: Data) {
    let file = FuzzFile(data, name: "inspector-trace")
    defer { file.remove() }
    for (limits, feature) in [(InspectorTrace.Limits.standard, "Jobs"), (smallLimits, nil)] {
      let trace: InspectorTrace
      do {
        trace = try InspectorTrace(contentsOf: file.url, feature: feature, limits: limits)
      } catch {
        switch error {
        case .malformed(_, let offset, _):
          fuzzRequire((0...data.count).contains(offset), "malformed at byte \(offset) of \(data.count)")
        case .tooLarge:
          fuzzRequire(limits.bytes == smallLimits.bytes, "a trace of \(data.count) bytes is past the standard limits")
        case .cannotRead:
          fuzzFailure("a regular file could not be read: \(error)")
        }
        continue
      }
      check(trace)
    }
  }

  private static let steps = [Int.min, -1, 0, 1, 2, 7, Int.max - 1, Int.max]

  private static func check(_ trace: InspectorTrace) {
    fuzzRequire(trace.lastStep >= 0, "last step \(trace.lastStep)")
    let everything = trace.effects(from: Int.min, to: Int.max, offset: 0, count: Int.max)
    fuzzRequire(everything.total == trace.effectCount, "\(everything.total) of \(trace.effectCount) effects shown")
    for first in steps + [trace.lastStep] {
      for last in steps + [trace.lastStep] where first <= last {
        for offset in [Int.min, 0, 1, Int.max] {
          for count in [Int.min, 0, 1, 500, Int.max] {
            let page = trace.effects(from: first, to: last, offset: offset, count: count)
            fuzzRequire(page.effects.count <= max(0, count), "\(page.effects.count) effects for count \(count)")
            fuzzRequire(page.from == first && page.to == last && page.offset == max(0, offset), "page \(page)")
            let shown = page.total > page.offset ? min(page.total - page.offset, max(0, count)) : 0
            fuzzRequire(page.effects.count == shown, "\(page.effects.count) effects of \(page.total) from \(offset)")
            for effect in page.effects {
              fuzzRequire(!effect.isOutside(first, last), "effect \(effect.id) outside steps \(first)…\(last)")
            }
            if offset == 0, count == 500 {
              fuzzRequire((try? JSONEncoder().encode(page)) != nil, "a page does not encode as JSON")
            }
          }
        }
      }
    }
  }
}
