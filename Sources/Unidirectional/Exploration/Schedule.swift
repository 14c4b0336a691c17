/// The choices of one explored run that differ from first in, first out, by choice point: what an explorer prints
/// for a failing run and a test pins to replay exactly that run.
///
/// Written `point:option` pairs joined by commas (`"4:1,9:2"`: at the fifth choice point take option 1, at the
/// tenth option 2, option 0 everywhere else); the empty string is first in, first out.
///
/// ```swift
/// let schedule = try Schedule("4:1,9:2")
/// schedule.option(at: 4)   // 1
/// schedule.option(at: 5)   // 0
/// ```
package struct Schedule: Hashable, Sendable, CustomStringConvertible {
  /// Choice point → option, for the points that deviate.
  package private(set) var deviations: [Int: Int]

  /// First in, first out.
  package init() { deviations = [:] }

  /// The schedule a run took: its chosen option at each choice point.
  package init(choices: [Int]) {
    deviations = [:]
    for (point, option) in choices.enumerated() where option != 0 { deviations[point] = option }
  }

  /// Parses a printed schedule.
  package init(_ text: String) throws(ScheduleError) {
    deviations = [:]
    for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: ":")
      guard parts.count == 2, let point = Int(parts[0].trimmingCharacters(in: .whitespaces)),
        let option = Int(parts[1].trimmingCharacters(in: .whitespaces)), point >= 0, option > 0,
        deviations[point] == nil
      else { throw .malformed(text) }
      deviations[point] = option
    }
  }

  /// The option to take at choice point `point`.
  package func option(at point: Int) -> Int { deviations[point] ?? 0 }

  /// How many choices differ from first in, first out.
  package var count: Int { deviations.count }

  /// This schedule without the deviation at `point`.
  package func removing(_ point: Int) -> Schedule {
    var copy = self
    copy.deviations[point] = nil
    return copy
  }

  package var description: String {
    deviations.keys.sorted().map { "\($0):\(deviations[$0] ?? 0)" }.joined(separator: ",")
  }
}

/// Why a schedule cannot be replayed.
package enum ScheduleError: Error, Equatable, CustomStringConvertible {
  /// Not `point:option` pairs joined by commas, each point once, each option above 0.
  case malformed(String)

  package var description: String {
    switch self {
    case let .malformed(text):
      "\"\(text)\" is not a schedule: expected point:option pairs joined by commas, e.g. \"4:1,9:2\""
    }
  }
}
