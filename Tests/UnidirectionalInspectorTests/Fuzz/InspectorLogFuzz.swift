import Foundation

@testable import UnidirectionalInspector

/// The body of `Scripts/fuzz inspector-log`, run by the corpus test over every committed input too: the input is an
/// action log as `demo inspect` opens it — indexed (``InspectorLogIndex``) and shown through the log model
/// (``InspectorLogModel``), as recorded and as replayed through a changed reducer.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - the index and the model open the file or throw ``InspectorError/cannotRead(path:reason:)`` or
///   ``InspectorError/tooManyLines(path:limit:)`` (the latter only past the limit given);
/// - any row or line number, however far outside the log, gives a row (`?` outside it) and no more bytes than the
///   file has;
/// - a window of the step list, whatever its `from` and `count` (`Int.min`…`Int.max`), has at most `count` rows,
///   numbered one after another inside the log, and its total is the log's (or the filter's) count; a filtered
///   window's rows all match the filter, and the index's matches are steps of the log, in order;
/// - any step number gives that step, ``InspectorError/noSuchStep(_:)`` outside the log, or
///   ``InspectorError/cannotShow(step:reason:)`` for a line that does not replay;
/// - every answer encodes as JSON (the server sends it so).
///
/// ```swift
/// InspectorLogFuzz.fuzz(Data(contentsOf: corpusFile))
/// ```
enum InspectorLogFuzz {
  /// The index's limit here: small enough for an input to go past it.
  static let maxSteps = 64
  /// Step numbers shown one by one from 0 (each replays at most that far).
  static let shownSteps = 24

  static func fuzz(_ data: Data) {
    let file = FuzzFile(data, name: "inspector-log")
    defer { file.remove() }
    let lines = data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } + (data.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)

    do {
      checkIndex(try InspectorLogIndex(url: file.url, maxSteps: maxSteps), size: data.count)
    } catch {
      if case .tooManyLines = error {
        fuzzRequire(lines - 1 > maxSteps, "a log of \(lines) lines refused as too long")
      } else {
        guard case .cannotRead = error else { fuzzFailure("the index threw \(error)") }
      }
    }
    for changed in [false, true] {
      let model: InspectorLogModel<InspectedCounter>
      do {
        model = try InspectorLogModel(
          contentsOf: file.url, reducer: InspectedCounter(tickSize: changed ? 2 : 1),
          recordedReducer: changed ? InspectedCounter() : nil)
      } catch {
        guard case .cannotRead = error else { fuzzFailure("the model threw \(error)") }
        continue
      }
      checkModel(model, changed: changed)
    }
  }

  private static let extremes = [Int.min, -1, 0, 1, Int.max - 1, Int.max]

  private static func checkIndex(_ index: InspectorLogIndex, size: Int) {
    fuzzRequire((0...maxSteps).contains(index.stepCount), "\(index.stepCount) steps indexed")
    for number in extremes + [index.stepCount, index.stepCount + 1] {
      fuzzRequire(index.line(number).count <= size, "line \(number) is longer than the file")
      let row = index.summary(of: number)
      fuzzRequire(row.n == number, "row \(number) is numbered \(row.n)")
      if number < 1 || number > index.stepCount { fuzzRequire(row.name == "?", "row \(number) outside the log") }
    }
    for filter in ["", "t", "TICK"] {
      let steps = index.steps(matching: filter)
      fuzzRequire(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }, "the steps matching \(filter) are not in order")
      fuzzRequire(
        steps.allSatisfy { (1...Int32(index.stepCount)).contains($0) }, "a step matching \(filter) is outside")
    }
  }

  private static func checkModel(_ model: InspectorLogModel<InspectedCounter>, changed: Bool) {
    let info = model.info()
    fuzzRequire(info.mode == (changed ? "changed" : "log") && info.stepCount >= 0, "info \(info)")
    encodes(info)
    let total = info.stepCount
    for filter in [nil, "", "TICK", "a"] as [String?] {
      for from in extremes + [total - 1, total] {
        for count in [Int.min, 0, 1, 3, Int.max] {
          let page = model.steps(from: from, count: count, filter: filter)
          fuzzRequire(page.steps.count <= max(0, count), "\(page.steps.count) rows for count \(count)")
          if let filter {
            fuzzRequire(page.total >= page.steps.count, "a filtered total below its rows")
            let needle = filter.lowercased()
            for row in page.steps where !needle.isEmpty {
              fuzzRequire(row.name.lowercased().contains(needle), "row \(row.n) \(row.name) does not match \(filter)")
            }
          } else {
            fuzzRequire(page.total == total, "total \(page.total) of a log of \(total) steps")
            // Rows only inside the log, so `from` is below the step count here: no overflow.
            for (offset, row) in page.steps.enumerated() {
              fuzzRequire(row.n == max(0, from) + 1 + offset && row.n <= total, "row \(row.n) in a window from \(from)")
            }
          }
          if count == 3, from == 0 { encodes(page) }
        }
      }
    }
    let numbers = Array(0...min(total, shownSteps)) + extremes + [total, total + 1]
    for number in numbers {
      do {
        let detail = try model.step(number)
        fuzzRequire(detail.n == number && (0...total).contains(number), "step \(number) answered as \(detail.n)")
        if number <= 2 { encodes(detail) }
      } catch {
        switch error {
        case let .noSuchStep(missing):
          fuzzRequire(missing == number && !(0...total).contains(number), "step \(number) of \(total): no such step")
        case .cannotShow(let step, _):
          fuzzRequire(step == number && (1...total).contains(number), "step \(number) not shown as \(step)")
        default:
          fuzzFailure("step \(number) threw \(error)")
        }
      }
    }
  }

  private static func encodes(_ value: some Encodable) {
    fuzzRequire((try? JSONEncoder().encode(value)) != nil, "an answer does not encode as JSON: \(value)")
  }
}
