import Foundation

/// The table of contents of a USDZ package (a ZIP archive of stored files), read from its central directory:
/// what a model preview lists, and how tests check a written model.
///
/// ```swift
/// let archive = try USDZArchive(contentsOf: modelURL, verifyingChecksums: true)
/// archive.entries.map(\.name)   // ["scene.usda", "textures/shot-001.png", …]
/// ```
public struct USDZArchive: Hashable, Sendable {
  /// One file in the archive.
  ///
  /// ```swift
  /// let scene = try USDZArchive(contentsOf: url).entries[0]
  /// scene.name                   // "scene.usda"
  /// scene.dataOffset % 64 == 0   // true in a USDZ file
  /// ```
  public struct Entry: Hashable, Sendable, Codable {
    /// Its path inside the archive.
    public var name: String
    /// Its size in bytes (stored, so the same in the archive).
    public var byteCount: Int64
    /// The CRC-32 of its bytes.
    public var crc32: UInt32
    /// Where its local header starts in the archive.
    public var headerOffset: Int64
    /// Where its bytes start in the archive (a multiple of 64 in a USDZ file).
    public var dataOffset: Int64

    /// An entry as found in an archive.
    public init(name: String, byteCount: Int64, crc32: UInt32, headerOffset: Int64, dataOffset: Int64) {
      self.name = name
      self.byteCount = byteCount
      self.crc32 = crc32
      self.headerOffset = headerOffset
      self.dataOffset = dataOffset
    }
  }

  /// The files, in directory order.
  public var entries: [Entry]

  /// Reads the archive at `url`; with `verifyingChecksums`, also reads every file and checks its CRC-32.
  ///
  /// - Throws: ``ModelReconstructionError/invalidModelFile(path:reason:)`` for anything that is not a ZIP of
  ///   stored files (truncated, compressed, corrupt).
  public init(contentsOf url: URL, verifyingChecksums: Bool = false) throws(ModelReconstructionError) {
    func invalid(_ reason: String) -> ModelReconstructionError { .invalidModelFile(path: url.path, reason: reason) }
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw invalid("the file cannot be opened")
    }
    defer { try? handle.close() }
    func read(_ count: Int, at position: UInt64) throws(ModelReconstructionError) -> [UInt8] {
      do {
        try handle.seek(toOffset: position)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw invalid("it ends early (truncated)") }
        return [UInt8](data)
      } catch let error as ModelReconstructionError {
        throw error
      } catch {
        throw invalid("reading failed")
      }
    }

    let size: UInt64
    do {
      size = try handle.seekToEnd()
    } catch {
      throw invalid("its size cannot be read")
    }
    guard size >= 22 else { throw invalid("it is too short to be a ZIP archive") }
    let tailLength = Int(min(size, 22 + 65_535))
    let tail = try read(tailLength, at: size - UInt64(tailLength))
    guard
      let endIndex = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.le32($0) == 0x0605_4b50 })
    else {
      throw invalid("it has no end-of-directory record")
    }
    let count = Int(tail.le16(endIndex + 10))
    let directorySize = UInt64(tail.le32(endIndex + 12))
    let directoryOffset = UInt64(tail.le32(endIndex + 16))
    guard directoryOffset + directorySize <= size - UInt64(tailLength - endIndex) else {
      throw invalid("its directory lies outside the file")
    }
    let directory = try read(Int(directorySize), at: directoryOffset)

    var entries: [Entry] = []
    var position = 0
    for index in 0..<count {
      guard position + 46 <= directory.count, directory.le32(position) == 0x0201_4b50 else {
        throw invalid("directory entry \(index + 1) is corrupt")
      }
      let method = directory.le16(position + 10)
      let crc = directory.le32(position + 16)
      let compressed = Int64(directory.le32(position + 20))
      let uncompressed = Int64(directory.le32(position + 24))
      let nameLength = Int(directory.le16(position + 28))
      let extraLength = Int(directory.le16(position + 30))
      let commentLength = Int(directory.le16(position + 32))
      let headerOffset = UInt64(directory.le32(position + 42))
      guard position + 46 + nameLength <= directory.count else {
        throw invalid("directory entry \(index + 1) is corrupt")
      }
      let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
      guard method == 0, compressed == uncompressed else {
        throw invalid("\(name) is compressed; USDZ files are stored uncompressed")
      }
      guard headerOffset + 30 <= directoryOffset else { throw invalid("\(name) has its header outside the file") }
      let local = try read(30, at: headerOffset)
      guard local.le32(0) == 0x0403_4b50 else { throw invalid("\(name) has no local header") }
      let dataOffset = headerOffset + 30 + UInt64(local.le16(26)) + UInt64(local.le16(28))
      guard dataOffset + UInt64(compressed) <= directoryOffset else { throw invalid("\(name) runs past the file") }
      entries.append(
        Entry(
          name: name, byteCount: uncompressed, crc32: crc, headerOffset: Int64(headerOffset),
          dataOffset: Int64(dataOffset)))
      position += 46 + nameLength + extraLength + commentLength
    }
    if verifyingChecksums {
      for entry in entries {
        var crc = CRC32()
        var remaining = entry.byteCount
        var cursor = UInt64(entry.dataOffset)
        while remaining > 0 {
          let length = Int(min(remaining, 1 << 20))
          let chunk = try read(length, at: cursor)
          chunk.withUnsafeBytes { crc.update($0) }
          remaining -= Int64(length)
          cursor += UInt64(length)
        }
        guard crc.value == entry.crc32 else { throw invalid("\(entry.name) does not match its checksum") }
      }
    }
    self.entries = entries
  }

  /// Whether `name` is a relative path without `..`, backslashes or control characters: safe to unpack anywhere.
  public static func isSafeEntryName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count < Int(UInt16.max), !name.hasPrefix("/") else { return false }
    if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" || $0.value == 0x7F }) { return false }
    return !name.split(separator: "/", omittingEmptySubsequences: false).contains {
      $0.isEmpty || $0 == ".." || $0 == "."
    }
  }
}

extension [UInt8] {
  /// The little-endian 16-bit number at `index`.
  fileprivate func le16(_ index: Int) -> UInt16 {
    UInt16(self[index]) | UInt16(self[index + 1]) << 8
  }

  /// The little-endian 32-bit number at `index`.
  fileprivate func le32(_ index: Int) -> UInt32 {
    UInt32(self[index]) | UInt32(self[index + 1]) << 8 | UInt32(self[index + 2]) << 16 | UInt32(self[index + 3]) << 24
  }
}
