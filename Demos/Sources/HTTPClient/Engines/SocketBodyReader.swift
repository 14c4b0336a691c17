#if canImport(Glibc)
  import Foundation
  import Glibc

  /// The request's bytes in order: memory parts as they are, file parts read 1 MiB at a time with `pread` into one
  /// reused buffer.
  struct SocketBodyReader {
    private let parts: [HTTPRequestBody.Part]
    private var partIndex = 0
    private var offsetInPart: Int64 = 0
    /// `chunk[chunkOffset..<chunkEnd]` is read but not yet sent.
    private var chunk = Data()
    private var chunkOffset = 0
    private var chunkEnd = 0
    private var fileBuffer = Data()
    private var file: (url: URL, descriptor: Int32)?

    init(parts: [HTTPRequestBody.Part]) {
      self.parts = parts.filter { $0.length > 0 }
    }

    var isFinished: Bool { partIndex >= parts.count }

    /// The bytes to send next (never empty while not finished).
    mutating func pending() throws -> Data.SubSequence {
      if chunkOffset < chunkEnd { return chunk[chunkOffset..<chunkEnd] }
      switch parts[partIndex] {
      case let .bytes(data):
        chunk = data
        chunkOffset = 0
        chunkEnd = data.count
      case let .file(url, offset, length):
        if offsetInPart == 0 { _ = try HTTPRequestBody.Part.end(ofRangeIn: url, offset: offset, length: length) }
        let descriptor = try open(url)
        let count = Int(min(length - offsetInPart, 1 << 20))
        if fileBuffer.count < count { fileBuffer = Data(count: count) }
        var filled = 0
        while filled < count {
          let start = off_t(offset + offsetInPart) + off_t(filled)
          let read = fileBuffer.withUnsafeMutableBytes { raw in
            pread(descriptor, raw.baseAddress.map { $0 + filled }, count - filled, start)
          }
          if read < 0, errno == EINTR { continue }
          guard read > 0 else {
            throw HTTPError.unreadableFile(
              path: url.path, reason: read == 0 ? "the file became shorter while uploading" : "I/O error while reading")
          }
          filled += read
        }
        chunk = fileBuffer
        fileBuffer = Data()  // handed to `chunk`; taken back when it is sent, so the buffer is never copied
        chunkOffset = 0
        chunkEnd = count
      }
      return chunk[chunkOffset..<chunkEnd]
    }

    /// `count` bytes of what ``pending()`` returned were sent.
    mutating func consume(_ count: Int) {
      chunkOffset += count
      offsetInPart += Int64(count)
      guard chunkOffset >= chunkEnd else { return }
      if case .file = parts[partIndex] { fileBuffer = chunk }
      chunk = Data()
      chunkOffset = 0
      chunkEnd = 0
      if offsetInPart >= parts[partIndex].length {
        partIndex += 1
        offsetInPart = 0
      }
    }

    private mutating func open(_ url: URL) throws -> Int32 {
      if let file, file.url == url { return file.descriptor }
      close()
      let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw HTTPError.unreadableFile(path: url.path, reason: "permission denied or I/O error")
      }
      file = (url, descriptor)
      return descriptor
    }

    mutating func close() {
      if let file { Glibc.close(file.descriptor) }
      file = nil
    }
  }
#endif
