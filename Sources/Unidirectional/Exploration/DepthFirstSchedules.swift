/// Every schedule of a scenario, depth first, with at most `maxDeviations` choices that differ from first in, first
/// out (as loom bounds preemptions): after each run, the next prefix to follow is the last choice point of that run
/// that can take its next option within the bound.
///
/// ```swift
/// var search = DepthFirstSchedules(maxDeviations: 2)
/// var prefix: [Int]? = []
/// while let next = prefix {
///   let run = ExploredRun(.following(Schedule(), prefix: next))
///   … // the scenario
///   prefix = search.next(after: run.choices, optionCounts: run.optionCounts)
/// }
/// ```
package struct DepthFirstSchedules: Sendable {
  package let maxDeviations: Int

  package init(maxDeviations: Int) {
    self.maxDeviations = max(maxDeviations, 0)
  }

  /// The prefix of the next run, after a run that took `choices` at points with `optionCounts` options; nil when
  /// every schedule within the bound has run.
  package func next(after choices: [Int], optionCounts: [Int]) -> [Int]? {
    var deviationsBefore = [Int](repeating: 0, count: choices.count + 1)
    for index in choices.indices {
      deviationsBefore[index + 1] = deviationsBefore[index] + (choices[index] != 0 ? 1 : 0)
    }
    for index in choices.indices.reversed() where choices[index] + 1 < optionCounts[index] {
      // Taking the next option here deviates (it is above 0) once more than the prefix before it.
      guard deviationsBefore[index] + 1 <= maxDeviations else { continue }
      return Array(choices[..<index]) + [choices[index] + 1]
    }
    return nil
  }
}
