/// Reads a ``PhotoByteSource`` through one window of recent bytes, so walking small headers costs one `pread`
/// per window instead of one per header, and never holds more than the window (or one segment) in memory.
struct ByteWindow<Source: PhotoByteSource> {
  /// How much is read at once when a request falls outside the window.
  static var chunkSize: Int { 65_536 }

  private var source: Source
  private var window: [UInt8] = []
  private var windowStart = 0

  init(_ source: Source) { self.source = source }

  /// Up to `count` bytes at `offset`: fewer only where the source ends. A read outside the window fetches at least
  /// `readAhead` bytes (``chunkSize`` by default; less where the caller knows it will jump far ahead next).
  mutating func bytes(
    at offset: Int, count: Int, readAhead: Int = chunkSize
  ) throws(PhotoAnalysisError) -> ArraySlice<UInt8> {
    guard offset >= 0, count > 0 else { return [] }
    let (end, overflow) = offset.addingReportingOverflow(count)
    guard !overflow else { return [] }
    if offset >= windowStart, end <= windowStart + window.count {
      return window[(offset - windowStart)..<(end - windowStart)]
    }
    let windowEnd = windowStart + window.count
    if offset >= windowStart, offset < windowEnd {
      // Keep the part already read; read only what follows it.
      let keptCount = windowEnd - offset
      window.removeFirst(offset - windowStart)
      window += try source.read(at: windowEnd, count: max(count - keptCount, readAhead))
    } else {
      window = try source.read(at: offset, count: max(count, readAhead))
    }
    windowStart = offset
    return window[0..<min(count, window.count)]
  }

  /// The big-endian 16-bit number at `offset`, or nil past the end.
  mutating func uint16(at offset: Int) throws(PhotoAnalysisError) -> Int? {
    let bytes = try bytes(at: offset, count: 2)
    guard bytes.count == 2 else { return nil }
    return Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
  }

  /// The big-endian 32-bit number at `offset`, or nil past the end.
  mutating func uint32(at offset: Int) throws(PhotoAnalysisError) -> Int? {
    let bytes = try bytes(at: offset, count: 4)
    guard bytes.count == 4 else { return nil }
    return bytes.reduce(0) { $0 << 8 | Int($1) }
  }
}
