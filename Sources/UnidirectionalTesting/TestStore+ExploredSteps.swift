import Unidirectional

// The test's steps as an interleaving explorer sees them.
extension TestStore {
  /// Under an interleaving explorer, names the test's step for the choice points that come up in it (`send(.tapped)
  /// at FeatureTests.swift:12` in a printed schedule) and lets racing calls complete again; nothing otherwise.
  func beginExploredStep(_ name: @escaping @Sendable () -> String, at location: Location) {
    guard runtime.isExplored else { return }
    runtime.beginStep(runtime.describesChoices ? location.label(name) : nil)
  }

  /// Ends the explored step begun at `location`, reporting there what went wrong with racing calls during it (a
  /// call that did not answer when completed, calls that answered without end).
  func endExploredStep(at location: Location) {
    guard runtime.isExplored else { return }
    for problem in runtime.endStep() { report(problem, at: location) }
  }
}

extension Location {
  /// `name` at this file and line, in words for a printed schedule: `send(.tapped) at FeatureTests.swift:12`.
  func label(_ name: @escaping @Sendable () -> String) -> ScheduleLabel {
    let (fileID, line) = (fileID, line)
    return ScheduleLabel { "\(name()) at \(ScheduleLabel.place(fileID, line))" }
  }
}
