import PhotoAnalysis
import XCTest

final class PhotoDateTests: XCTestCase {
  func testParsesEXIFDatesWithAndWithoutOffset() {
    XCTAssertEqual(
      PhotoDate(exif: "2013:04:13 10:22:18"),
      PhotoDate(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18))
    XCTAssertEqual(PhotoDate(exif: "2013:04:13 10:22:18", offset: "+09:00")?.utcOffsetMinutes, 540)
    XCTAssertEqual(PhotoDate(exif: "2013:04:13 10:22:18", offset: "-03:30")?.utcOffsetMinutes, -210)
    XCTAssertEqual(PhotoDate(exif: "2013:04:13 10:22:18  ")?.second, 18, "trailing spaces")
    XCTAssertEqual(PhotoDate(exif: "2024:02:29 23:59:60")?.day, 29, "leap day, leap second")
  }

  func testParsesISO8601DatesAsSomeToolsWriteThemIntoEXIF() {
    let date = PhotoDate(year: 2004, month: 7, day: 13, hour: 21, minute: 23, second: 44)
    func zoned(_ minutes: Int) -> PhotoDate {
      PhotoDate(year: 2004, month: 7, day: 13, hour: 21, minute: 23, second: 44, utcOffsetMinutes: minutes)
    }
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44Z"), zoned(0))
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44Z")?.description, "2004:07:13 21:23:44+00:00")
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44-07:00"), zoned(-420))
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44+0530"), zoned(330))
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44+09"), zoned(540))
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44.250Z"), zoned(0), "fractional seconds are dropped")
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44"), date)
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44 "), date, "trailing spaces")
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44", offset: "+02:00"), zoned(120), "no zone: OffsetTime")
    XCTAssertEqual(PhotoDate(exif: "2004-07-13T21:23:44Z", offset: "+02:00"), zoned(0), "its own zone wins")
    for text in [
      "2004-07-13T21:23:44X", "2004-07-13T21:23:44+15:00", "2004-07-13T21:23:44+9", "2004-07-13T21:23:44.Z",
      "2004-07-13T21:23", "2004-02-30T21:23:44Z", "2004-07-13T25:23:44Z", "2004:07:13T21:23:44", "2004-07-13t21:23:44",
      "20040713T212344Z",
    ] {
      XCTAssertNil(PhotoDate(exif: text), text)
    }
  }

  func testRejectsWhatIsNotACalendarDate() {
    for text in [
      "0000:00:00 00:00:00", "    :  :     :  :  ", "2013-04-13 10:22:18", "2013:04:13T10:22:18", "2013:04:13",
      "2013:13:01 00:00:00", "2023:02:29 00:00:00", "2013:04:31 00:00:00", "2013:04:13 24:00:00",
      "2013:04:13 10:60:00", "2013:04:13 10:22:61", "２０１３:04:13 10:22:18", "", "2013:04:13 10:22:18.123",
    ] {
      XCTAssertNil(PhotoDate(exif: text), text)
    }
  }

  func testAnUnreadableOffsetIsDroppedAndTheDateKept() {
    for offset in ["", "   :  ", "+15:00", "09:00", "+09:60", "+9:00", "Z"] {
      let date = PhotoDate(exif: "2013:04:13 10:22:18", offset: offset)
      XCTAssertEqual(date?.hour, 10, offset)
      XCTAssertNil(date?.utcOffsetMinutes, offset)
    }
  }

  func testDescriptionRoundTrips() {
    XCTAssertEqual(PhotoDate(exif: "0987:01:02 03:04:05")?.description, "0987:01:02 03:04:05")
    XCTAssertEqual(PhotoDate(exif: "2013:04:13 10:22:18", offset: "-03:30")?.description, "2013:04:13 10:22:18-03:30")
  }

  func testSecondsBetweenDates() throws {
    let capture = try XCTUnwrap(PhotoDate(exif: "2012:12:31 23:59:00"))
    XCTAssertEqual(capture.seconds(until: try XCTUnwrap(PhotoDate(exif: "2013:01:01 00:01:00"))), 120, "across a year")
    XCTAssertEqual(capture.seconds(until: try XCTUnwrap(PhotoDate(exif: "2012:12:31 23:58:00"))), -60)
    // Both offsets known: absolute time. 10:00+09:00 is 01:00 UTC; 02:30+01:00 is 01:30 UTC.
    let tokyo = try XCTUnwrap(PhotoDate(exif: "2020:06:01 10:00:00", offset: "+09:00"))
    let paris = try XCTUnwrap(PhotoDate(exif: "2020:06:01 02:30:00", offset: "+01:00"))
    XCTAssertEqual(tokyo.seconds(until: paris), 1_800)
    // One offset missing: the wall clocks are compared.
    XCTAssertEqual(tokyo.seconds(until: try XCTUnwrap(PhotoDate(exif: "2020:06:01 10:00:30"))), 30)
  }

  func testWallClockSecondsMatchTheUnixEpoch() throws {
    XCTAssertEqual(try XCTUnwrap(PhotoDate(exif: "1970:01:01 00:00:00")).wallClockSeconds, 0)
    XCTAssertEqual(try XCTUnwrap(PhotoDate(exif: "2000:03:01 00:00:00")).wallClockSeconds, 951_868_800)
    XCTAssertEqual(try XCTUnwrap(PhotoDate(exif: "1900:01:01 00:00:00")).wallClockSeconds, -2_208_988_800)
  }
}
