import Foundation

@testable import HTTPClient

/// The body of `Scripts/fuzz request-body-file`, run by the corpus test over every committed input too: request
/// bodies made of byte strings and ranges of a file whose size and bytes come from outside (a picked file, a range a
/// resumable upload's server asked for), and which changes size while it is being sent. The input describes the
/// file, the parts and when the file grows or shrinks; the body is read as each engine reads it:
/// ``SocketBodyReader`` (between parts, the file is resized as the input says), ``HTTPRequestBody/write(to:)``
/// (URLSession's staged body) and `FileRangeInputStream` (URLSession's streamed append, Linux).
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - a body whose ranges all lie inside the file as it is when each is read gives exactly its bytes, in order;
/// - any other ends in an ``HTTPError`` (`unreadableFile`, or `invalidRequest`) after a prefix of those
///   bytes, never a trap, whatever the offsets and lengths (negative, `Int64.max`, past the end);
/// - the body's length is the sum of its parts' (`Int64.max` when that sum is larger).
///
/// The input: 2 bytes of file size (little endian, up to 4,096), the file's bytes, then steps of one byte each
/// followed by its operands — `0` bytes part (a length byte and the bytes), `1` file part (an offset code and a
/// length code, see ``number(_:size:)``), `2` resize the file (2 bytes: up to 4,096, or with the high bit set just
/// around 1 MiB, where the socket engine's reads are cut), `3` how many bytes each send takes (a byte).
///
/// ```swift
/// RequestBodyFileFuzz.fuzz(Data([4, 0, 1, 2, 3, 4, 1, 0, 243]))   // a 4-byte file sent whole
/// ```
enum RequestBodyFileFuzz {
  /// One step of the input.
  private enum Step {
    case part(HTTPRequestBody.Part)
    case resize(Int)
    case sendSize(Int)
  }

  static func fuzz(_ data: Data) {
    var input = data[...]
    let size = Int(UInt16(input.popFirst() ?? 0) | UInt16(input.popFirst() ?? 0) << 8) % 4_097
    let content = [UInt8](input.prefix(size)) + (0..<max(0, size - input.count)).map { UInt8(truncatingIfNeeded: $0) }
    input = input.dropFirst(size)
    let folder = FileManager.default.temporaryDirectory
    let url = folder.appendingPathComponent("request-body-fuzz-\(UUID().uuidString)")
    let staged = folder.appendingPathComponent("request-body-fuzz-staged-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: url)
      try? FileManager.default.removeItem(at: staged)
    }
    var steps: [Step] = []
    while steps.count < 32, let code = input.popFirst() {
      switch code % 4 {
      case 0:
        let bytes = Data(input.prefix(Int(input.popFirst() ?? 0) % 64))
        input = input.dropFirst(bytes.count)
        steps.append(.part(.bytes(bytes)))
      case 1:
        let offset = number(input.popFirst() ?? 0, size: size)
        steps.append(.part(.file(url, offset: offset, length: number(input.popFirst() ?? 0, size: size))))
      case 2:
        let value = Int(UInt16(input.popFirst() ?? 0) | UInt16(input.popFirst() ?? 0) << 8)
        steps.append(.resize(value & 0x8000 != 0 ? (1 << 20) + (value & 0x7FFF) - 16_384 : value % 4_097))
      default:
        steps.append(.sendSize(Int(input.popFirst() ?? 0) + 1))
      }
    }
    write(content, to: url)
    let parts = steps.compactMap { step -> HTTPRequestBody.Part? in
      if case let .part(part) = step { part } else { nil }
    }
    let body = HTTPRequestBody(parts)
    let (sum, overflow) = parts.filter { $0.length > 0 }.reduce((Int64(0), false)) { total, part in
      let (sum, overflow) = total.0.addingReportingOverflow(part.length)
      return (sum, total.1 || overflow)
    }
    fuzzRequire(body.length == (overflow ? .max : sum), "length \(body.length) of parts summing to \(sum)")

    readAsTheSocketEngine(steps, content: content, url: url)
    write(content, to: url)
    stageAsURLSession(body, content: content, into: staged)
    #if canImport(FoundationNetworking)
      for case let .file(_, offset, length) in parts { stream(offset: offset, length: length, content: content, url) }
    #endif
  }

  /// Offsets and lengths: mostly small, and the values that break arithmetic.
  static func number(_ code: UInt8, size: Int) -> Int64 {
    switch code {
    case 0..<240: Int64(code) * 7
    case 240: -1
    case 241: .max
    case 242: .min
    case 243: Int64(size)
    case 244: Int64(size) + 1
    case 245: .max - 1
    case 246: 1 << 20
    case 247: (1 << 20) + 1
    default: Int64(code - 247) * 1_000
    }
  }

  /// The bytes `part` gives from `content`, and whether they are all of it (the range lies inside the file).
  private static func expected(_ part: HTTPRequestBody.Part, _ content: [UInt8]) -> (bytes: [UInt8], whole: Bool) {
    switch part {
    case let .bytes(data):
      return ([UInt8](data), true)
    case let .file(_, offset, length):
      guard length > 0 else { return ([], true) }
      guard offset >= 0, offset <= Int64(content.count) else { return ([], false) }
      let end = offset.addingReportingOverflow(length)
      let available = Int(min(end.overflow ? .max : end.partialValue, Int64(content.count)))
      return (Array(content[Int(offset)..<available]), !end.overflow && end.partialValue <= Int64(content.count))
    }
  }

  private static func write(_ content: [UInt8], to url: URL) {
    guard FileManager.default.createFile(atPath: url.path, contents: Data(content)) else {
      fuzzFailure("cannot write \(url.path)")
    }
  }

  /// ``SocketBodyReader`` over the parts, the file resized between them as the steps say.
  private static func readAsTheSocketEngine(_ steps: [Step], content initial: [UInt8], url: URL) {
    var content = initial
    var sendSize = 1_024
    var reader = SocketBodyReader(
      parts: HTTPRequestBody(
        steps.compactMap { step in
          if case let .part(part) = step { part } else { nil }
        }
      ).parts)
    defer { reader.close() }
    var sent: [UInt8] = []
    var wanted: [UInt8] = []
    for step in steps {
      switch step {
      case let .resize(size):
        guard let handle = FileHandle(forUpdatingAtPath: url.path) else { fuzzFailure("cannot open \(url.path)") }
        do {
          try handle.truncate(atOffset: UInt64(size))
          try handle.close()
        } catch {
          fuzzFailure("cannot resize \(url.path): \(error)")
        }
        content = Array(content.prefix(size)) + [UInt8](repeating: 0, count: max(0, size - content.count))
      case let .sendSize(size):
        sendSize = size
      case let .part(part):
        guard part.length > 0 else { continue }
        let (bytes, whole) = expected(part, content)
        var remaining = part.length
        do {
          while remaining > 0 {
            let chunk = try reader.pending()
            // Small sends cut a chunk anywhere; a 1 MiB chunk is still sent in at most 16 of them.
            let count = min(max(sendSize, chunk.count / 16), chunk.count)
            fuzzRequire(count > 0 && Int64(chunk.count) <= remaining, "a chunk of \(chunk.count) of \(remaining) left")
            sent += chunk.prefix(count)
            reader.consume(count)
            remaining -= Int64(count)
          }
        } catch {
          fuzzRequire(!whole, "a range inside the file failed: \(error)")
          requireTyped(error)
          fuzzRequire(sent.starts(with: wanted) && (wanted + bytes).starts(with: sent), "bytes sent before a failure")
          return
        }
        fuzzRequire(whole, "a range past the file's end was sent")
        wanted += bytes
        fuzzRequire(sent == wanted, "the socket engine sent other bytes than the parts")
      }
    }
    fuzzRequire(reader.isFinished, "the reader has bytes after the last part")
  }

  /// ``HTTPRequestBody/write(to:)``, as URLSession's staged body.
  private static func stageAsURLSession(_ body: HTTPRequestBody, content: [UInt8], into staged: URL) {
    var wanted: [UInt8] = []
    var whole = true
    for part in body.parts where whole {
      let (bytes, complete) = expected(part, content)
      wanted += bytes
      whole = complete
    }
    do {
      try body.write(to: staged)
      fuzzRequire(whole, "a body with a range past the file's end was staged")
      fuzzRequire(contents(of: staged) == wanted, "the staged body differs")
    } catch {
      fuzzRequire(!whole, "a body inside the file failed to stage: \(error)")
      requireTyped(error)
    }
  }

  #if canImport(FoundationNetworking)
    /// `FileRangeInputStream` over one range, read in reads of 1 to 4,096 bytes.
    private static func stream(offset: Int64, length: Int64, content: [UInt8], _ url: URL) {
      let (bytes, whole) = expected(.file(url, offset: offset, length: length), content)
      let stream: FileRangeInputStream
      do {
        stream = try FileRangeInputStream(url: url, offset: offset, length: length)
      } catch {
        requireTyped(error)
        fuzzRequire(!whole || length <= 0, "a range inside the file does not open as a stream: \(error)")
        return
      }
      stream.open()
      var read: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4_096)
      var size = 1
      while true {
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
          guard let base = pointer.baseAddress else { return -1 }
          return stream.read(base, maxLength: size)
        }
        if count <= 0 {
          fuzzRequire(count == 0 || !whole, "a range inside the file failed as a stream")
          break
        }
        read += buffer[0..<count]
        size = (size + 1_021) % 4_096 + 1
      }
      stream.close()
      let wanted = length > 0 ? bytes : []
      fuzzRequire(whole || length <= 0 ? read == wanted : wanted.starts(with: read), "the stream read other bytes")
    }
  #endif

  /// The file's bytes, read with a file handle: Foundation on Linux keeps 4 KiB for good for each
  /// `FileManager.contents(atPath:)` or `Data(contentsOf:)` of an empty file (LeakSanitizer reports it).
  private static func contents(of url: URL) -> [UInt8]? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    do {
      return [UInt8](try handle.readToEnd() ?? Data())
    } catch {
      return nil
    }
  }

  private static func requireTyped(_ error: any Error) {
    switch error as? HTTPError {
    case .unreadableFile?, .invalidRequest?: break
    default: fuzzFailure("not a typed file error: \(error)")
    }
  }
}
