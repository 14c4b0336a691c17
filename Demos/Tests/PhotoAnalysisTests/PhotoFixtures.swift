import Foundation

/// The committed test photos (`Tests/Fixtures/PhotoAnalysis/`, each corpus with its NOTICE.md) and builders of
/// synthetic ones.
enum PhotoFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/PhotoAnalysis")
  static let piexifFolder = folder.appendingPathComponent("piexif")
  /// The photo metadata fuzz target's committed corpus (`Tests/Fuzz/photo-metadata/corpus/`).
  static let fuzzCorpusFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/photo-metadata/corpus")

  /// A piexif photo by name, e.g. `"r_sony.jpg"`.
  static func piexif(_ name: String) -> URL { piexifFolder.appendingPathComponent(name) }

  /// Every real `.jpg` of the piexif set, sorted by name.
  static var piexifPhotos: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: piexifFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".jpg") }.sorted().map(piexif)
  }

  /// The folders of real photos from public test corpora, each with its licence and a NOTICE.md.
  static let realPhotoFolders = ["piexif", "pillow", "exiv2", "exiftool", "goexif"]
    .map { folder.appendingPathComponent($0) }

  /// A real photo by its path under `Tests/Fixtures/PhotoAnalysis`, e.g. `"exiv2/smiley1.jpg"`.
  static func real(_ path: String) -> URL { folder.appendingPathComponent(path) }

  /// Every real photo of every corpus (all files but the notices and licence texts), sorted by path.
  static var realPhotos: [URL] {
    realPhotoFolders.flatMap { corpus in
      ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
        .filter { !$0.hasSuffix(".md") && !$0.hasPrefix("LICENSE") && $0 != "COPYING" }
        .sorted().map { corpus.appendingPathComponent($0) }
    }
  }

  static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

  /// A minimal JPEG: SOI, an APP0 JFIF segment, the APP1 `Exif` segment (when given), a DQT, the SOF0 frame header,
  /// SOS with a few bytes of "scan", EOI.
  static func jpeg(exif: [UInt8]?, width: Int = 640, height: Int = 480, frameMarker: UInt8 = 0xC0) -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xD8]
    bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    if let exif { bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + exif) }
    bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    bytes += segment(
      frameMarker,
      [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
    bytes += segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0x34, 0x56, 0xFF, 0x00, 0x78]
    return bytes + [0xFF, 0xD9]
  }

  /// A JPEG segment: marker, big-endian length, body.
  static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    let length = body.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }

  /// A minimal PNG: signature, IHDR, `eXIf` (when given) before or after IDAT, IDAT, IEND. CRCs are zero: the
  /// reader does not check them.
  static func png(exif: [UInt8]?, width: Int = 320, height: Int = 200, exifAfterImageData: Bool = false) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0])
    if let exif, !exifAfterImageData { bytes += chunk("eXIf", exif) }
    bytes += chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
    if let exif, exifAfterImageData { bytes += chunk("eXIf", exif) }
    return bytes + chunk("IEND", [])
  }

  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    bigEndian32(body.count) + Array(type.utf8) + body + [0, 0, 0, 0]
  }

  static func bigEndian32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}

/// Builds a TIFF structure (an EXIF block) with IFD0 and optional Exif and GPS sub-IFDs, in either byte order.
///
/// ```swift
/// let exif = TIFFBuilder(order: .bigEndian, ifd0: [.ascii(0x010F, "Canon")], gps: [.ascii(0x0001, "S")]).bytes
/// ```
struct TIFFBuilder {
  enum ByteOrder { case littleEndian, bigEndian }

  /// One IFD entry: a tag, a TIFF type, and its values.
  struct Entry {
    var tag: Int
    var type: Int
    var count: Int
    var values: [UInt64]
    var valueSize: Int

    static func ascii(_ tag: Int, _ text: String) -> Entry { bytes(tag, Array(text.utf8) + [0], type: 2) }
    static func bytes(_ tag: Int, _ bytes: [UInt8], type: Int = 2) -> Entry {
      Entry(tag: tag, type: type, count: bytes.count, values: bytes.map(UInt64.init), valueSize: 1)
    }
    static func short(_ tag: Int, _ values: Int...) -> Entry {
      Entry(tag: tag, type: 3, count: values.count, values: values.map { UInt64($0) }, valueSize: 2)
    }
    static func long(_ tag: Int, _ values: Int...) -> Entry {
      Entry(tag: tag, type: 4, count: values.count, values: values.map { UInt64($0) }, valueSize: 4)
    }
    static func rational(_ tag: Int, _ values: [(UInt32, UInt32)]) -> Entry {
      Entry(
        tag: tag, type: 5, count: values.count, values: values.flatMap { [UInt64($0.0), UInt64($0.1)] }, valueSize: 4)
    }
    /// An entry whose count and value/offset field are written as given, pointing wherever the test wants.
    static func raw(_ tag: Int, type: Int, count: Int, valueOrOffset: Int) -> Entry {
      Entry(tag: tag, type: type, count: count, values: [UInt64(valueOrOffset)], valueSize: -1)
    }
  }

  var order: ByteOrder = .littleEndian
  var ifd0: [Entry]
  var exif: [Entry]?
  var gps: [Entry]?

  /// Where each IFD starts.
  var ifd0Offset: Int { 8 }
  var exifOffset: Int { ifd0Offset + Self.ifdSize(ifd0.count + pointerCount) }
  var gpsOffset: Int { exifOffset + (exif.map { Self.ifdSize($0.count) } ?? 0) }
  private var pointerCount: Int { (exif == nil ? 0 : 1) + (gps == nil ? 0 : 1) }
  private static func ifdSize(_ entries: Int) -> Int { 2 + 12 * entries + 4 }

  var bytes: [UInt8] {
    var header: [UInt8] = order == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
    header += encode(42, size: 2) + encode(8, size: 4)
    var pointers: [Entry] = []
    if exif != nil { pointers.append(.long(0x8769, exifOffset)) }
    if gps != nil { pointers.append(.long(0x8825, gpsOffset)) }
    let tables = [ifd0 + pointers, exif, gps].compactMap { $0 }
    var dataOffset = gpsOffset + (gps.map { Self.ifdSize($0.count) } ?? 0)
    var ifdBytes: [UInt8] = []
    var dataArea: [UInt8] = []
    for table in tables {
      ifdBytes += encode(UInt64(table.count), size: 2)
      for entry in table.sorted(by: { $0.tag < $1.tag }) {
        ifdBytes += encode(UInt64(entry.tag), size: 2) + encode(UInt64(entry.type), size: 2)
        ifdBytes += encode(UInt64(entry.count), size: 4)
        if entry.valueSize < 0 {
          ifdBytes += encode(entry.values[0], size: 4)
          continue
        }
        let value = entry.values.flatMap { encode($0, size: entry.valueSize) }
        if value.count <= 4 {
          ifdBytes += value + [UInt8](repeating: 0, count: 4 - value.count)
        } else {
          ifdBytes += encode(UInt64(dataOffset), size: 4)
          dataArea += value
          dataOffset += value.count
        }
      }
      ifdBytes += encode(0, size: 4)
    }
    return header + ifdBytes + dataArea
  }

  private func encode(_ value: UInt64, size: Int) -> [UInt8] {
    let littleEndian = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    return order == .littleEndian ? littleEndian : littleEndian.reversed()
  }
}

extension PhotoFixtures {
  /// Every field the reader reports, with a southern and western location below sea level and UTC offsets.
  static let everyField = TIFFBuilder(
    ifd0: [
      .ascii(0x010F, "Apple"), .ascii(0x0110, "iPhone 15 Pro"), .ascii(0x0131, "17.1"),
      .ascii(0x0132, "2024:01:02 03:04:05"), .short(0x0112, 6),
    ],
    exif: [
      .ascii(0x9003, "2024:01:02 03:04:00"), .ascii(0x9011, "-05:00"), .ascii(0x9010, "-05:00"),
      .ascii(0xA433, "Apple"), .ascii(0xA434, "iPhone 15 Pro back triple camera 6.86mm f/1.78"),
    ],
    gps: [
      .ascii(0x0001, "S"), .rational(0x0002, [(33, 1), (51, 1), (2_448, 100)]),
      .ascii(0x0003, "W"), .rational(0x0004, [(151, 1), (12, 1), (3_000, 100)]),
      .bytes(0x0005, [1], type: 1), .rational(0x0006, [(125, 10)]),
    ])

  /// Synthetic photos that reach each branch of the reader, committed as fuzz seeds (`Tests/Fuzz/photo-metadata/corpus/seed-*`).
  static var syntheticSeeds: [(String, [UInt8])] {
    let full = everyField
    var bigEndian = full
    bigEndian.order = .bigEndian
    let loops = TIFFBuilder(ifd0: [.ascii(0x010F, "Loop"), .long(0x8769, 8), .long(0x8825, 8)])
    let overflow = TIFFBuilder(ifd0: [
      .raw(0x010F, type: 2, count: 100, valueOrOffset: 0xFFFF_FF00),
      .raw(0x0110, type: 5, count: 0x7FFF_FFFF, valueOrOffset: 8),
    ])
    let tiff = TIFFBuilder(
      order: .bigEndian, ifd0: [.long(0x0100, 3_000), .short(0x0101, 2_000), .ascii(0x010F, "Nikon")])
    return [
      ("seed-jpeg-little-endian.jpg", jpeg(exif: full.bytes)),
      ("seed-jpeg-big-endian.jpg", jpeg(exif: bigEndian.bytes, frameMarker: 0xC2)),
      ("seed-jpeg-loops.jpg", jpeg(exif: loops.bytes)),
      ("seed-jpeg-overflow.jpg", jpeg(exif: overflow.bytes)),
      ("seed-png-exif.png", png(exif: full.bytes)),
      ("seed-tiff.tif", tiff.bytes),
    ]
  }
}
