import Foundation
import LocalFiles

/// Writes a USDZ package: a ZIP archive whose files are stored uncompressed, each file's data starting at a
/// multiple of 64 bytes (the USDZ rules), the scene layer first.
///
/// Files are streamed from disk in 1 MiB chunks. The archive is written next to its destination (`.partial`) and
/// moved into place by ``finish()``, so a failed or cancelled write never leaves a half file at `url`.
///
/// ```swift
/// let writer = try USDZWriter(url: folder.appendingPathComponent("model.usdz"))
/// try writer.add(name: "scene.usda", data: Data(layerText.utf8))
/// try writer.add(name: "textures/shot-001.png", contentsOf: shotURL)
/// let size = try writer.finish()
/// ```
public final class USDZWriter {
  /// Where the finished archive goes.
  public let url: URL
  /// The files added so far, in order.
  public private(set) var entries: [USDZArchive.Entry] = []

  /// The alignment of every file's data.
  public static let alignment = 64
  /// The header id of the padding extra field (the one Pixar's own USDZ writer uses).
  static let paddingFieldID: UInt16 = 0x1986

  private let partialURL: URL
  private var handle: FileHandle?
  private var offset: UInt64 = 0
  private var isFinished = false

  /// Starts an archive for `url`; its folder is created if needed.
  ///
  /// - Throws: ``ModelReconstructionError/cannotWrite(path:reason:)``.
  public init(url: URL) throws(ModelReconstructionError) {
    self.url = url
    self.partialURL = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
    let manager = FileManager.default
    do throws(FolderAccessError) {
      try FolderAccess.create(url.deletingLastPathComponent())
    } catch {
      throw .cannotWrite(path: url.path, reason: error.reason)
    }
    try? manager.removeItem(at: partialURL)
    guard manager.createFile(atPath: partialURL.path, contents: nil),
      let handle = try? FileHandle(forWritingTo: partialURL)
    else {
      let problem = FolderAccess.problem(writingInto: url.deletingLastPathComponent())
      throw .cannotWrite(path: url.path, reason: problem ?? "the file cannot be created")
    }
    self.handle = handle
  }

  deinit {
    abandon()
  }

  /// Adds a file named `name` holding `data`.
  public func add(name: String, data: Data) throws(ModelReconstructionError) {
    let start = try beginEntry(name: name)
    try write(data)
    try endEntry(name: name, start: start, size: UInt64(data.count), crc: CRC32.checksum(data))
  }

  /// Adds a file named `name` with the contents of the file at `source`, read in 1 MiB chunks.
  ///
  /// - Throws: ``ModelReconstructionError/unreadableShot(path:reason:)`` when `source` cannot be read.
  public func add(name: String, contentsOf source: URL) throws(ModelReconstructionError) {
    let input: FileHandle
    do {
      input = try FileHandle(forReadingFrom: source)
    } catch {
      throw .unreadableShot(path: source.path, reason: FileErrorReason.words(for: error))
    }
    defer { try? input.close() }
    let start = try beginEntry(name: name)
    var crc = CRC32()
    var size: UInt64 = 0
    while true {
      let chunk: Data
      do {
        guard let read = try input.read(upToCount: 1 << 20), !read.isEmpty else { break }
        chunk = read
      } catch {
        throw .unreadableShot(path: source.path, reason: FileErrorReason.words(for: error))
      }
      crc.update(chunk)
      size += UInt64(chunk.count)
      try write(chunk)
    }
    guard size > 0 else { throw .unreadableShot(path: source.path, reason: "the file is empty") }
    try endEntry(name: name, start: start, size: size, crc: crc.value)
  }

  /// Writes the central directory and moves the archive to ``url``; returns its size in bytes.
  @discardableResult
  public func finish() throws(ModelReconstructionError) -> Int64 {
    guard !isFinished else { throw .cannotWrite(path: url.path, reason: "the archive is already finished") }
    let directoryStart = offset
    var directory = Data()
    for entry in entries {
      let name = Data(entry.name.utf8)
      directory.append(le32: 0x0201_4b50)
      directory.append(le16: 20)  // made by: version 2.0, MS-DOS attributes
      directory.append(le16: 10)  // needed: 1.0 (stored)
      directory.append(le16: 0)  // flags
      directory.append(le16: 0)  // method: stored
      directory.append(le16: Self.dosTime)
      directory.append(le16: Self.dosDate)
      directory.append(le32: entry.crc32)
      directory.append(le32: UInt32(entry.byteCount))
      directory.append(le32: UInt32(entry.byteCount))
      directory.append(le16: UInt16(name.count))
      directory.append(le16: 0)  // extra
      directory.append(le16: 0)  // comment
      directory.append(le16: 0)  // disk
      directory.append(le16: 0)  // internal attributes
      directory.append(le32: 0)  // external attributes
      directory.append(le32: UInt32(entry.headerOffset))
      directory.append(name)
    }
    try write(directory)
    guard offset <= UInt64(UInt32.max) else { throw .tooLarge("a USDZ archive holds at most 4 GiB") }
    var end = Data()
    end.append(le32: 0x0605_4b50)
    end.append(le16: 0)
    end.append(le16: 0)
    end.append(le16: UInt16(entries.count))
    end.append(le16: UInt16(entries.count))
    end.append(le32: UInt32(directory.count))
    end.append(le32: UInt32(directoryStart))
    end.append(le16: 0)
    try write(end)
    do {
      try handle?.synchronize()
      try handle?.close()
      handle = nil
      let manager = FileManager.default
      if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
      try manager.moveItem(at: partialURL, to: url)
    } catch {
      throw .cannotWrite(
        path: url.path, reason: "the finished archive cannot be moved into place: \(FileErrorReason.words(for: error))")
    }
    isFinished = true
    return Int64(offset)
  }

  /// Stops writing and removes the unfinished archive (nothing happens after ``finish()``).
  public func abandon() {
    guard !isFinished else { return }
    try? handle?.close()
    handle = nil
    try? FileManager.default.removeItem(at: partialURL)
  }

  // MARK: Entries

  /// Writes a local header with zero checksum and sizes (patched by `endEntry`), padded so the data is aligned.
  private func beginEntry(name: String) throws(ModelReconstructionError) -> UInt64 {
    guard !isFinished, handle != nil else { throw .cannotWrite(path: url.path, reason: "the archive is closed") }
    guard USDZArchive.isSafeEntryName(name) else {
      throw .cannotWrite(path: url.path, reason: "\(name.debugDescription) is not a safe file name in an archive")
    }
    guard entries.count < Int(UInt16.max) else { throw .tooLarge("a USDZ archive holds at most 65,535 files") }
    guard !entries.contains(where: { $0.name == name }) else {
      throw .cannotWrite(path: url.path, reason: "the archive already has a file named \(name)")
    }
    let nameBytes = Data(name.utf8)
    let start = offset
    let unpadded = Int((start + 30 + UInt64(nameBytes.count)) % UInt64(Self.alignment))
    var padding = unpadded == 0 ? 0 : Self.alignment - unpadded
    if padding > 0 && padding < 4 { padding += Self.alignment }  // an extra field needs 4 bytes of header
    var header = Data()
    header.append(le32: 0x0403_4b50)
    header.append(le16: 10)
    header.append(le16: 0)
    header.append(le16: 0)
    header.append(le16: Self.dosTime)
    header.append(le16: Self.dosDate)
    header.append(le32: 0)  // crc, patched
    header.append(le32: 0)  // compressed size, patched
    header.append(le32: 0)  // size, patched
    header.append(le16: UInt16(nameBytes.count))
    header.append(le16: UInt16(padding))
    header.append(nameBytes)
    if padding > 0 {
      header.append(le16: Self.paddingFieldID)
      header.append(le16: UInt16(padding - 4))
      header.append(Data(count: padding - 4))
    }
    try write(header)
    return start
  }

  /// Patches the entry's local header with its checksum and size, and records it.
  private func endEntry(name: String, start: UInt64, size: UInt64, crc: UInt32) throws(ModelReconstructionError) {
    guard offset <= UInt64(UInt32.max) else { throw .tooLarge("a USDZ archive holds at most 4 GiB") }
    let dataOffset = offset - size
    var patch = Data()
    patch.append(le32: crc)
    patch.append(le32: UInt32(size))
    patch.append(le32: UInt32(size))
    do {
      try handle?.seek(toOffset: start + 14)
      try handle?.write(contentsOf: patch)
      try handle?.seek(toOffset: offset)
    } catch {
      throw .cannotWrite(path: url.path, reason: FileErrorReason.words(for: error))
    }
    entries.append(
      USDZArchive.Entry(
        name: name, byteCount: Int64(size), crc32: crc, headerOffset: Int64(start), dataOffset: Int64(dataOffset)))
  }

  private func write(_ data: Data) throws(ModelReconstructionError) {
    guard let handle else { throw .cannotWrite(path: url.path, reason: "the archive is closed") }
    do {
      try handle.write(contentsOf: data)
    } catch {
      throw .cannotWrite(path: url.path, reason: FileErrorReason.words(for: error))
    }
    offset += UInt64(data.count)
  }

  /// 00:00:00 and 1980-01-01 in MS-DOS format: the same bytes for the same shots, whenever they are written.
  private static let dosTime: UInt16 = 0
  private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1
}

extension Data {
  /// Appends `value` as 2 little-endian bytes.
  mutating func append(le16 value: UInt16) {
    append(UInt8(truncatingIfNeeded: value))
    append(UInt8(truncatingIfNeeded: value >> 8))
  }

  /// Appends `value` as 4 little-endian bytes.
  mutating func append(le32 value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
  }
}
