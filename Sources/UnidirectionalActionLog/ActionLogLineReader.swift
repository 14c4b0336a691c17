import Foundation
import Unidirectional

/// Reads a file line by line through a fixed-size buffer, so memory does not grow with the file's length (only
/// with its longest line, up to ``maximumLineLength``).
final class ActionLogLineReader {
  /// One line, without its newline.
  struct Line {
    /// The line's bytes.
    let bytes: Data
    /// 1-based line number.
    let number: Int
    /// Whether the line ended with a newline (the last line of a file cut short does not).
    let terminated: Bool
  }

  /// The longest line accepted (a header with a large initial state is the longest).
  static let maximumLineLength = 64 << 20
  private static let chunkSize = 256 << 10

  private let handle: FileHandle
  private let path: String
  /// The bytes read and not yet returned start at `start`; lines are returned as slices of it (no copy).
  private var buffer = Data()
  private var start = 0
  /// The file offset of `buffer`'s first byte.
  private var bufferOffset = 0
  /// How far `buffer` has been searched for a newline without finding one.
  private var searched = 0
  private var isAtEnd = false
  private var lineNumber = 0

  /// Opens the file at `url` to read from `offset`, a line start, numbering the lines after `linesBefore`.
  init(url: URL, offset: Int = 0, linesBefore: Int = 0) throws(ActionLogError) {
    path = url.path
    do {
      handle = try FileHandle(forReadingFrom: url)
      if offset > 0 { try handle.seek(toOffset: UInt64(offset)) }
    } catch {
      throw .cannotOpen(path: url.path, reason: Self.reason(error))
    }
    bufferOffset = offset
    lineNumber = linesBefore
  }

  /// The file offset of the next line: where a reader opened later resumes.
  var offset: Int { bufferOffset + start }

  /// The number of the last line returned (0 before the first).
  var linesRead: Int { lineNumber }

  deinit {
    try? handle.close()
  }

  /// The next line, or `nil` at the end of the file.
  func nextLine() throws(ActionLogError) -> Line? {
    while true {
      if let newline = findNewline() {
        lineNumber += 1
        let bytes = buffer[start..<newline]
        start = newline + 1
        searched = start
        return Line(bytes: bytes, number: lineNumber, terminated: true)
      }
      if buffer.count - start > Self.maximumLineLength {
        throw .lineTooLong(line: lineNumber + 1, limit: Self.maximumLineLength)
      }
      if isAtEnd {
        guard start < buffer.count else { return nil }
        lineNumber += 1
        let bytes = buffer[start...]
        start = buffer.count
        return Line(bytes: bytes, number: lineNumber, terminated: false)
      }
      try fill()
    }
  }

  /// The index of the next newline in the unread bytes, if they hold one.
  private func findNewline() -> Int? {
    guard searched < buffer.count else { return nil }
    let from = searched
    let found: Int? = buffer.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress, let match = memchr(base + from, 0x0A, bytes.count - from) else {
        return nil
      }
      return base.distance(to: UnsafeRawPointer(match))
    }
    if found == nil { searched = buffer.count }
    return found
  }

  /// Keeps the unread bytes (a partial line) and appends the next chunk of the file.
  private func fill() throws(ActionLogError) {
    let chunk: Data?
    do {
      chunk = try handle.read(upToCount: Self.chunkSize)
    } catch {
      throw .cannotRead(path: path, reason: Self.reason(error))
    }
    guard let chunk, !chunk.isEmpty else {
      isAtEnd = true
      return
    }
    var next = Data(capacity: buffer.count - start + chunk.count)
    next.append(buffer[start...])
    next.append(chunk)
    searched -= start
    bufferOffset += start
    start = 0
    buffer = next
  }

  private static func reason(_ error: any Error) -> String {
    (error as NSError).localizedDescription
  }
}
