/// A date as a camera writes it in EXIF — `"YYYY:MM:DD HH:MM:SS"` on the camera's wall clock — with the UTC
/// offset from `OffsetTime…` when the camera wrote one. Parsed by hand: no formatter, no locale, no time zone
/// database on the read path.
///
/// ```swift
/// let date = PhotoDate(exif: "2013:04:13 10:22:18", offset: "+09:00")
/// date?.description                       // "2013:04:13 10:22:18+09:00"
/// date?.utcOffsetMinutes                  // 540
/// PhotoDate(exif: "0000:00:00 00:00:00")  // nil: cameras write this when the clock was never set
/// ```
public struct PhotoDate: Hashable, Sendable, Codable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  /// Minutes east of UTC (`+09:00` → 540), when known.
  public var utcOffsetMinutes: Int?

  /// A date whose fields are already known to be valid (used by tests and previews).
  public init(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, utcOffsetMinutes: Int? = nil
  ) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.utcOffsetMinutes = utcOffsetMinutes
  }

  /// Parses EXIF's `"YYYY:MM:DD HH:MM:SS"` (trailing spaces allowed) and an optional `"±HH:MM"` offset.
  /// Also parses the ISO 8601 form some tools write into EXIF date tags — `"2004-07-13T21:23:44Z"`,
  /// `"2019-10-17T16:55:20-07:00"` (fractional seconds and `±HHMM`/`±HH` zones too) — whose own
  /// zone, when it has one, wins over `offset`. Nil when the date is not a real calendar date; an unreadable
  /// `offset` is dropped, keeping the date.
  public init?(exif text: String, offset: String? = nil) {
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 { bytes.removeLast() }
    guard bytes.count >= 19, bytes[13] == 0x3A, bytes[16] == 0x3A else { return nil }
    let zone: Int?
    if bytes[4] == 0x3A, bytes[7] == 0x3A, bytes[10] == 0x20, bytes.count == 19 {
      zone = offset.flatMap(Self.offsetMinutes)
    } else if bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
      let suffix = Self.isoSuffix(bytes[19...])
    {
      zone = suffix.zoneMinutes ?? offset.flatMap(Self.offsetMinutes)
    } else {
      return nil
    }
    guard let year = Self.number(bytes, 0, 4), let month = Self.number(bytes, 5, 2), let day = Self.number(bytes, 8, 2),
      let hour = Self.number(bytes, 11, 2), let minute = Self.number(bytes, 14, 2),
      let second = Self.number(bytes, 17, 2),
      year >= 1, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    self.init(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetMinutes: zone)
  }

  /// `"YYYY:MM:DD HH:MM:SS"`, followed by `±HH:MM` when the offset is known.
  public var description: String {
    var text = "\(Self.pad(year, 4)):\(Self.pad(month, 2)):\(Self.pad(day, 2)) "
    text += "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))"
    if let offset = utcOffsetMinutes {
      let magnitude = abs(offset)
      text += "\(offset < 0 ? "-" : "+")\(Self.pad(magnitude / 60, 2)):\(Self.pad(magnitude % 60, 2))"
    }
    return text
  }

  /// Seconds since 1970-01-01 00:00:00 on the same wall clock, ignoring the offset.
  public var wallClockSeconds: Int {
    Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
  }

  /// Seconds from `self` to `later`: in absolute time when both offsets are known, else on the wall clock
  /// (a camera's two dates share one clock, so their difference is still meaningful).
  public func seconds(until later: PhotoDate) -> Int {
    var difference = later.wallClockSeconds - wallClockSeconds
    if let offset = utcOffsetMinutes, let laterOffset = later.utcOffsetMinutes {
      difference -= (laterOffset - offset) * 60
    }
    return difference
  }

  /// `±HH:MM` with hours 0…14 and minutes 0…59, in minutes east of UTC.
  static func offsetMinutes(_ text: String) -> Int? {
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 { bytes.removeLast() }
    guard bytes.count == 6, bytes[0] == 0x2B || bytes[0] == 0x2D, bytes[3] == 0x3A,
      let hours = number(bytes, 1, 2), let minutes = number(bytes, 4, 2), hours <= 14, minutes <= 59
    else { return nil }
    let total = hours * 60 + minutes
    return bytes[0] == 0x2D ? -total : total
  }

  /// What follows the seconds of an ISO 8601 date.
  private struct ISOSuffix {
    /// Minutes east of UTC; nil when no zone is written.
    var zoneMinutes: Int?
  }

  /// Reads what may follow the seconds of an ISO 8601 date: `.fraction` (dropped), then nothing, `Z`, `±HH:MM`,
  /// `±HHMM` or `±HH`. Nil when something else follows.
  private static func isoSuffix(_ rest: ArraySlice<UInt8>) -> ISOSuffix? {
    var rest = rest
    if rest.first == 0x2E {
      rest = rest.dropFirst()
      let digits = rest.prefix { (0x30...0x39).contains($0) }
      guard !digits.isEmpty else { return nil }
      rest = rest.dropFirst(digits.count)
    }
    if rest.isEmpty { return ISOSuffix(zoneMinutes: nil) }
    if rest.elementsEqual([0x5A]) { return ISOSuffix(zoneMinutes: 0) }
    var zone = Array(rest)
    if zone.count == 3 { zone += [0x3A, 0x30, 0x30] }  // ±HH
    if zone.count == 5 { zone.insert(0x3A, at: 3) }  // ±HHMM
    guard let minutes = offsetMinutes(String(decoding: zone, as: UTF8.self)) else { return nil }
    return ISOSuffix(zoneMinutes: minutes)
  }

  /// The decimal number in `bytes[start ..< start + count]`, all ASCII digits.
  private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for byte in bytes[start..<start + count] {
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
