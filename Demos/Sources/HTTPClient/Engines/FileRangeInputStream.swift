#if canImport(FoundationNetworking)
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Bytes `offset ..< offset + length` of a file as an `InputStream`, read with `pread` straight into the
  /// caller's buffer: the body of an append that resumes mid-file, without copying the rest to a temporary file.
  ///
  /// FoundationNetworking sends such a body with `Transfer-Encoding: chunked` (the request's `Upload-Length` tells
  /// the server the size). If the file becomes shorter while it is read, the stream fails: the server then sees an
  /// incomplete body and keeps only what arrived.
  final class FileRangeInputStream: InputStream {
    // URLSession reads the stream from one thread at a time; the state below is touched only there.
    private let descriptor: Int32
    private var position: Int64
    private let end: Int64
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    /// A stream of `length` bytes of the file at `url` from `offset`; throws when the file cannot be opened.
    init(url: URL, offset: Int64, length: Int64) throws {
      let end = try HTTPRequestBody.Part.end(ofRangeIn: url, offset: offset, length: length)
      let descriptor = openDescriptor(url.path)
      guard descriptor >= 0 else {
        throw HTTPError.unreadableFile(path: url.path, reason: "it cannot be opened")
      }
      self.descriptor = descriptor
      self.position = offset
      self.end = end
      super.init(data: Data())
    }

    deinit {
      closeDescriptor(descriptor)
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }
    override var hasBytesAvailable: Bool { status == .open && position < end }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
      guard status == .open, position < end, length > 0 else {
        if status == .open { status = .atEnd }
        return 0
      }
      let wanted = Int(min(Int64(length), end - position))
      let count = pread(descriptor, buffer, wanted, off_t(position))
      guard count > 0 else {
        failure = HTTPError.unreadableFile(path: "", reason: "it became shorter while it was being sent")
        status = .error
        return -1
      }
      position += Int64(count)
      if position == end { status = .atEnd }
      return count
    }

    override func getBuffer(
      _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool { false }
  }

  // Inside the class, `open` and `close` mean the stream's methods.
  private func openDescriptor(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
  }

  private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }
#endif
