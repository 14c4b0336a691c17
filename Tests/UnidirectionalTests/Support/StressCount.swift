import Foundation

/// How many times a race test repeats: `default` in the test command, more when `UNIDIRECTIONAL_STRESS_COUNT` says
/// so (`Scripts/stress` runs the race tests thousands of times, with every core busy too).
func stressCount(default count: Int) -> Int {
  ProcessInfo.processInfo.environment["UNIDIRECTIONAL_STRESS_COUNT"].flatMap(Int.init) ?? count
}
