/// Reads the fields ``PhotoMetadata`` reports from a TIFF structure — an EXIF block, or a whole TIFF file's start —
/// in either byte order: IFD0, then the Exif and GPS sub-IFDs it points to.
///
/// Every read is bounds-checked against `data`. Work is bounded: at most three IFDs are visited (IFD0, Exif, GPS;
/// the next-IFD chain, which holds thumbnails, is never followed), a sub-IFD pointing at an IFD already visited is
/// skipped, an entry table longer than the data is cut to the entries that fit, and an entry whose value lies past
/// the end (or whose size overflows) is skipped.
///
/// ```swift
/// let fields = try TIFFMetadataReader.read(exifBlock)
/// fields.make   // "SONY"
/// ```
struct TIFFMetadataReader {
  /// What the TIFF structure says, before it becomes ``PhotoMetadata``.
  struct Fields: Equatable {
    var make: String?
    var model: String?
    var software: String?
    var lensMake: String?
    var lensModel: String?
    var dateTime: String?
    var dateTimeOriginal: String?
    var offsetTime: String?
    var offsetTimeOriginal: String?
    var orientation: Int?
    var imageWidth: Int?
    var imageHeight: Int?
    var latitude: Double?
    var longitude: Double?
    var altitude: GPSAltitude?
  }

  /// One 12-byte IFD entry whose value lies inside the data.
  private struct Entry {
    var tag: Int
    var type: Int
    var count: Int
    /// Where the value's bytes start in the data (inside the entry when they fit in 4 bytes).
    var valueOffset: Int
  }

  /// The TIFF structure; offsets in it count from `base`, its first byte (a slice of a bigger buffer is not copied).
  private let data: ArraySlice<UInt8>
  private let base: Int
  private let littleEndian: Bool

  /// Reads `data`, which starts with a TIFF header (`II*\0` or `MM\0*`).
  static func read(_ data: ArraySlice<UInt8>) throws(PhotoAnalysisError) -> Fields {
    guard data.count >= 8 else {
      throw .metadataExtractionFailed("the EXIF block is \(data.count) bytes, too short for a TIFF header")
    }
    let littleEndian: Bool
    switch (data[data.startIndex], data[data.startIndex + 1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: throw .metadataExtractionFailed("the EXIF block has no TIFF byte-order mark (II or MM)")
    }
    let reader = TIFFMetadataReader(data: data, base: data.startIndex, littleEndian: littleEndian)
    guard reader.uint16(at: 2) == 42, let ifd0 = reader.uint32(at: 4) else {
      throw .metadataExtractionFailed("the EXIF block's TIFF header does not carry the number 42")
    }
    guard ifd0 >= 8, let ifd0Entries = reader.entries(at: ifd0) else {
      throw .metadataExtractionFailed("IFD0 starts at byte \(ifd0), outside the \(data.count)-byte EXIF block")
    }
    return reader.fields(ifd0: ifd0, entries: ifd0Entries)
  }

  private func fields(ifd0: Int, entries ifd0Entries: [Entry]) -> Fields {
    var fields = Fields()
    var visited: Set<Int> = [ifd0]
    var exifIFD: Int?
    var gpsIFD: Int?
    for entry in ifd0Entries {
      switch entry.tag {
      case 0x010F: fields.make = fields.make ?? string(entry)
      case 0x0110: fields.model = fields.model ?? string(entry)
      case 0x0131: fields.software = fields.software ?? string(entry)
      case 0x0132: fields.dateTime = fields.dateTime ?? string(entry)
      case 0x0112: fields.orientation = fields.orientation ?? integer(entry).flatMap { (1...8).contains($0) ? $0 : nil }
      case 0x0100: fields.imageWidth = fields.imageWidth ?? integer(entry)
      case 0x0101: fields.imageHeight = fields.imageHeight ?? integer(entry)
      case 0x8769: exifIFD = exifIFD ?? pointer(entry)
      case 0x8825: gpsIFD = gpsIFD ?? pointer(entry)
      default: break
      }
    }
    if let exifIFD, visited.insert(exifIFD).inserted, let entries = entries(at: exifIFD) {
      for entry in entries {
        switch entry.tag {
        case 0x9003: fields.dateTimeOriginal = fields.dateTimeOriginal ?? string(entry)
        case 0x9010: fields.offsetTime = fields.offsetTime ?? string(entry)
        case 0x9011: fields.offsetTimeOriginal = fields.offsetTimeOriginal ?? string(entry)
        case 0xA433: fields.lensMake = fields.lensMake ?? string(entry)
        case 0xA434: fields.lensModel = fields.lensModel ?? string(entry)
        default: break
        }
      }
    }
    if let gpsIFD, visited.insert(gpsIFD).inserted, let entries = entries(at: gpsIFD) {
      var byTag: [Int: Entry] = [:]
      for entry in entries where byTag[entry.tag] == nil { byTag[entry.tag] = entry }
      fields.latitude = coordinate(byTag[0x0002], reference: byTag[0x0001], positive: 0x4E, negative: 0x53, limit: 90)
      fields.longitude = coordinate(
        byTag[0x0004], reference: byTag[0x0003], positive: 0x45, negative: 0x57, limit: 180)
      if let value = byTag[0x0006].flatMap({ rationals($0, limit: 1).first }), let meters = value {
        let below = byTag[0x0005].flatMap(integer) == 1
        fields.altitude = GPSAltitude(meters: meters, reference: below ? .belowSeaLevel : .aboveSeaLevel)
      }
    }
    return fields
  }

  // MARK: - Entries

  /// The entries of the IFD at `offset`, cut to those that fit in the data; nil when the IFD's entry count itself
  /// lies outside.
  private func entries(at offset: Int) -> [Entry]? {
    guard offset >= 8, let declared = uint16(at: offset), declared >= 0 else { return nil }
    let table = offset + 2
    let fitting = min(declared, (data.count - table) / 12)
    var entries: [Entry] = []
    entries.reserveCapacity(fitting)
    for index in 0..<fitting {
      let position = table + index * 12
      guard let tag = uint16(at: position), let type = uint16(at: position + 2),
        let count = uint32(at: position + 4), let size = Self.typeSizes[type]
      else { continue }
      // count ≤ 2³²−1 and size ≤ 8, so the product fits in 64 bits; it may still exceed the data.
      let (byteCount, overflow) = count.multipliedReportingOverflow(by: size)
      guard !overflow, byteCount > 0 else { continue }
      let valueOffset: Int
      if byteCount <= 4 {
        valueOffset = position + 8
      } else {
        guard let pointed = uint32(at: position + 8), pointed >= 0, pointed <= data.count,
          byteCount <= data.count - pointed
        else { continue }
        valueOffset = pointed
      }
      entries.append(Entry(tag: tag, type: type, count: count, valueOffset: valueOffset))
    }
    return entries
  }

  /// Bytes per value of each TIFF field type; unknown types are skipped.
  private static let typeSizes: [Int: Int] = [
    1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4,
  ]

  /// ASCII (also UNDEFINED or BYTE, which some writers use) up to the first NUL, without trailing spaces, decoded
  /// as UTF-8 with invalid bytes replaced; nil when empty.
  private func string(_ entry: Entry) -> String? {
    guard entry.type == 2 || entry.type == 7 || entry.type == 1 else { return nil }
    var end = entry.valueOffset
    let limit = entry.valueOffset + entry.count
    while end < limit, data[base + end] != 0 { end += 1 }
    while end > entry.valueOffset, data[base + end - 1] == 0x20 { end -= 1 }
    guard end > entry.valueOffset else { return nil }
    return String(decoding: data[(base + entry.valueOffset)..<(base + end)], as: UTF8.self)
  }

  /// The first value of an integer entry, signed or not: BYTE, SHORT, LONG, SBYTE, SSHORT, SLONG, or IFD (13).
  /// Writers pick the type freely — Fujifilm's X-T3 and gThumb store Orientation as SLONG — and ExifTool reads them
  /// all, so a reader that insists on SHORT loses the value.
  private func integer(_ entry: Entry) -> Int? {
    switch entry.type {
    case 1: return Int(data[base + entry.valueOffset])
    case 3: return uint16(at: entry.valueOffset)
    case 4, 13: return uint32(at: entry.valueOffset)
    case 6: return Int(Int8(truncatingIfNeeded: data[base + entry.valueOffset]))
    case 8: return uint16(at: entry.valueOffset).map { Int(Int16(truncatingIfNeeded: $0)) }
    case 9: return uint32(at: entry.valueOffset).map { Int(Int32(truncatingIfNeeded: $0)) }
    default: return nil
    }
  }

  /// A sub-IFD offset: any non-negative integer entry. LONG is the standard; some writers use IFD (13) and some a
  /// signed LONG — the GPS pointer of a geotagged Canon PowerShot S5 IS JPEG is SLONG.
  private func pointer(_ entry: Entry) -> Int? {
    integer(entry).flatMap { $0 >= 0 ? $0 : nil }
  }

  /// The first `limit` RATIONAL values; each nil when its denominator is 0 (0/0 reads as 0, what cameras write for
  /// "unknown seconds").
  private func rationals(_ entry: Entry, limit: Int) -> [Double?] {
    guard entry.type == 5 else { return [] }
    return (0..<min(entry.count, limit)).map { index in
      guard let numerator = uint32(at: entry.valueOffset + index * 8),
        let denominator = uint32(at: entry.valueOffset + index * 8 + 4)
      else { return nil }
      if denominator == 0 { return numerator == 0 ? 0 : nil }
      return Double(numerator) / Double(denominator)
    }
  }

  /// Degrees + minutes/60 + seconds/3600 (1 to 3 RATIONALs), signed by the reference letter; nil without a valid
  /// reference, with a zero denominator under a non-zero numerator, or beyond `limit` degrees.
  private func coordinate(
    _ value: Entry?, reference: Entry?, positive: UInt8, negative: UInt8, limit: Double
  ) -> Double? {
    guard let value, let reference, reference.type == 2 || reference.type == 7 else { return nil }
    let sign: Double
    switch data[base + reference.valueOffset] {
    case positive: sign = 1
    case negative: sign = -1
    default: return nil
    }
    let parts = rationals(value, limit: 3)
    guard !parts.isEmpty else { return nil }
    var degrees = 0.0
    for (index, part) in parts.enumerated() {
      guard let part else { return nil }
      degrees += part / [1.0, 60.0, 3_600.0][index]
    }
    guard degrees <= limit else { return nil }
    return sign * degrees
  }

  // MARK: - Numbers

  private func uint16(at offset: Int) -> Int? {
    guard offset >= 0, offset <= data.count - 2 else { return nil }
    let (first, second) = (Int(data[base + offset]), Int(data[base + offset + 1]))
    return littleEndian ? second << 8 | first : first << 8 | second
  }

  private func uint32(at offset: Int) -> Int? {
    guard offset >= 0, offset <= data.count - 4 else { return nil }
    let start = base + offset
    let bytes = (Int(data[start]), Int(data[start + 1]), Int(data[start + 2]), Int(data[start + 3]))
    return littleEndian
      ? bytes.3 << 24 | bytes.2 << 16 | bytes.1 << 8 | bytes.0
      : bytes.0 << 24 | bytes.1 << 16 | bytes.2 << 8 | bytes.3
  }
}
