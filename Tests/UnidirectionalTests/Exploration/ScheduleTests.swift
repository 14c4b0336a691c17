import Testing
import Unidirectional

/// A schedule prints as `point:option` pairs and parses back: the string a failing exploration prints is the one a
/// test pins.
struct ScheduleTests {
  @Test func itPrintsTheDeviationsInPointOrder() throws {
    #expect(Schedule(choices: [0, 0, 0, 0, 1, 0, 0, 0, 0, 2]).description == "4:1,9:2")
    #expect(Schedule(choices: [2, 0, 1]).description == "0:2,2:1")
    #expect(try Schedule("9:2,4:1").description == "4:1,9:2")
  }

  @Test func firstInFirstOutIsTheEmptyString() throws {
    #expect(Schedule().description == "")
    #expect(Schedule(choices: [0, 0, 0]).description == "")
    #expect(try Schedule("") == Schedule())
    #expect(try Schedule("").count == 0)
  }

  @Test func itNamesTheOptionAtEveryPoint() throws {
    let schedule = try Schedule("4:1,9:2")
    #expect(schedule.option(at: 4) == 1)
    #expect(schedule.option(at: 9) == 2)
    #expect(schedule.option(at: 0) == 0)
    #expect(schedule.option(at: 5) == 0)
    #expect(schedule.option(at: 1_000) == 0)
    #expect(schedule.count == 2)
    #expect(schedule.removing(4).description == "9:2")
  }

  @Test(arguments: ["", "0:1", "4:1,9:2", "12:3,13:1,40:7"])
  func printingThenParsingGivesTheSameSchedule(text: String) throws {
    let schedule = try Schedule(text)
    #expect(schedule.description == text)
    #expect(try Schedule(schedule.description) == schedule)
  }

  @Test func spacesAroundNumbersAndATrailingCommaAreAccepted() throws {
    #expect(try Schedule(" 4 : 1 , 9:2,").description == "4:1,9:2")
  }

  @Test(arguments: ["4", "4:", ":1", "4:1:2", "a:1", "4:b", "-1:1", "4:0", "4:-2", "4:1,4:2", "4;1"])
  func aMalformedScheduleIsRefusedNamingWhatIsExpected(text: String) {
    #expect(throws: ScheduleError.malformed(text)) { try Schedule(text) }
    let message = ScheduleError.malformed(text).description
    #expect(message.contains("point:option pairs joined by commas"))
    #expect(message.contains("\"\(text)\""))
  }
}
