import Testing
import Unidirectional

/// After each run, `DepthFirstSchedules.next` names the prefix of the next: the last choice point of the run that
/// can take its next option within the bound, that option, and first in, first out after it.
struct DepthFirstSchedulesTests {
  @Test func theNextScheduleTakesTheNextOptionAtTheLastPointThatHasOne() {
    let search = DepthFirstSchedules(maxDeviations: 2)
    #expect(search.next(after: [0, 0, 0], optionCounts: [2, 3, 2]) == [0, 0, 1])
    #expect(search.next(after: [0, 0, 1], optionCounts: [2, 3, 2]) == [0, 1])
    #expect(search.next(after: [0, 1, 0], optionCounts: [2, 3, 2]) == [0, 1, 1])
    #expect(search.next(after: [0, 1, 1], optionCounts: [2, 3, 2]) == [0, 2])
  }

  @Test func aPointWhoseOptionsAreUsedUpIsPassedOver() {
    let search = DepthFirstSchedules(maxDeviations: 3)
    #expect(search.next(after: [0, 2, 1], optionCounts: [2, 3, 2]) == [1])
  }

  @Test func theBoundIsNeverExceeded() {
    let search = DepthFirstSchedules(maxDeviations: 1)
    // Two deviations are not allowed: the last point cannot deviate after the first did, so the search backs up.
    #expect(search.next(after: [0, 1, 0], optionCounts: [2, 3, 2]) == [0, 2])
    #expect(search.next(after: [0, 2, 0], optionCounts: [2, 3, 2]) == [1])
    #expect(search.next(after: [1, 0, 0], optionCounts: [2, 3, 2]) == nil)
  }

  @Test func withNoDeviationsAllowedFirstInFirstOutIsTheOnlySchedule() {
    let search = DepthFirstSchedules(maxDeviations: 0)
    #expect(search.next(after: [0, 0, 0], optionCounts: [4, 3, 2]) == nil)
    #expect(DepthFirstSchedules(maxDeviations: -3).maxDeviations == 0)
  }

  @Test func aRunWithoutChoicePointsIsTheOnlySchedule() {
    #expect(DepthFirstSchedules(maxDeviations: 2).next(after: [], optionCounts: []) == nil)
  }

  @Test(arguments: [(0, 1), (1, 7), (2, 18), (3, 24)])
  func followingItToTheEndVisitsEveryScheduleWithinTheBoundOnce(bound: Int, expected: Int) {
    // Runs of a model with three choice points of 4, 3 and 2 options (four tasks ready at once), every run meeting
    // all three: at most `bound` of its choices differ from 0.
    let search = DepthFirstSchedules(maxDeviations: bound)
    var seen: Set<[Int]> = []
    var prefix: [Int]? = []
    while let next = prefix {
      let choices = next + Array(repeating: 0, count: 3 - next.count)
      #expect(seen.insert(choices).inserted, "\(choices) ran twice")
      #expect(choices.filter { $0 != 0 }.count <= bound)
      prefix = search.next(after: choices, optionCounts: [4, 3, 2])
    }
    #expect(seen.count == expected)
  }
}
