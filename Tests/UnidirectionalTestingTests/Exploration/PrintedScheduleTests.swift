import Testing
import Unidirectional
import UnidirectionalTesting

/// A failing schedule prints as a pin (`"4:1"`) and, choice by choice, as what ran: the test's step, the effect
/// and the action that started it, the racing call and the line it was made at.
@MainActor
struct PrintedScheduleTests {
  @Test func theFailurePrintsEachChoiceInWords() async {
    let failures = TestFailures()
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: failures.reporter) {
      await StaleSearchResponseTests.typeTwoLetters(fixed: false)
    }
    #expect(report.failingSchedule == "4:1")
    let deviation =
      "#4 in skipReceivedActions() at StaleSearchResponseTests.swift:43: answered withRacing at "
      + "StaleSearchResponseTests.swift:38 in effect 2 of .queryChanged(\"ab\") ← 4:1, instead of: answered "
      + "withRacing at StaleSearchResponseTests.swift:38 in effect 1 of .queryChanged(\"a\")"
    #expect(report.choices.dropLast().last == deviation)
    // Where the other answer landed, without a choice: after it.
    #expect(
      report.choices.last
        == "-  in skipReceivedActions() at StaleSearchResponseTests.swift:43: answered withRacing at "
        + "StaleSearchResponseTests.swift:38 in effect 1 of .queryChanged(\"a\")")
    #expect(
      report.choices.first
        == "#0 in send(.queryChanged(\"a\")) at StaleSearchResponseTests.swift:41: left waiting: withRacing at "
        + "StaleSearchResponseTests.swift:38")
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.contains("The schedule, choice by choice") == true)
    #expect(failures.messages.first?.contains("  " + deviation) == true)
  }

  @Test func aReplayPrintsTheScheduleItReplayed() async {
    let failures = TestFailures()
    let replay = await exploreInterleavings(replaying: "4:1", reporter: failures.reporter) {
      await StaleSearchResponseTests.typeTwoLetters(fixed: false)
    }
    #expect(replay.failingSchedule == "4:1")
    #expect(replay.choices.count == 6, "5 choice points, and the answer completed without a choice")
    #expect(replay.choices[4].contains("← 4:1, instead of:"))
    #expect(failures.messages.first?.contains(replay.choices[4]) == true)
    // A passing replay prints its choices too, in the report.
    let passing = await exploreInterleavings(replaying: "") {
      await StaleSearchResponseTests.typeTwoLetters(fixed: true)
    }
    #expect(passing.failingSchedule == nil)
    #expect(!passing.choices.isEmpty)
    #expect(!passing.choices.contains { $0.contains("←") }, "first in, first out: no deviation")
  }

  @Test func aPinPrintedBeforeChoicesWereDescribedStillReplays() async throws {
    // The pin format is unchanged: `point:option` pairs. "0:1" was the timer race's pin before, and is now.
    let replay = await exploreInterleavings(replaying: "0:1", reporter: TestFailures().reporter) {
      await TimerTickAfterStopTests.stopAtTheSecondTheTimerTicks(fixed: false)
    }
    #expect(replay.failingSchedule == "0:1")
    #expect(replay.failures.contains { $0.contains("a tick after the timer stopped") })
    #expect(try Schedule(" 4:1 , 9:2 ").description == "4:1,9:2")
  }
}
