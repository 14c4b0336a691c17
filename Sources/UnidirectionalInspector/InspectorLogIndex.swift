import Foundation

#if canImport(Darwin)
  import Darwin
#else
  import Glibc
#endif

/// An action log mapped into memory with every line's offset and action name found in one pass, so any window
/// of the step list is read without scanning the file again (a 1,000,000-line log indexes in a fraction of a
/// second) and the list filters by name without parsing a line.
///
/// The index keeps 12 bytes per line (its offset and its name's number), so it takes at most ``standardMaxSteps``
/// action lines: the lines are counted first, and a longer file is refused before anything is kept (a 100 MB file
/// of empty lines once grew the index to 1.42 GB).
///
/// ```swift
/// let index = try InspectorLogIndex(url: logURL)
/// index.stepCount                        // action lines after the header
/// index.summary(of: 1)                   // n 1, "start", "sent", 0.0
/// index.steps(matching: "tick")          // [2, 3, …]
/// ```
final class InspectorLogIndex: @unchecked Sendable {
  /// The most action lines indexed: ~120 MB of index; as many as the effect timeline's actions
  /// (``InspectorTrace/Limits/standard``).
  static let standardMaxSteps = 10_000_000

  /// How many action lines follow the header.
  let stepCount: Int

  private let base: UnsafeMutableRawPointer?
  private let length: Int
  /// `lineStarts[k]` is where step k's line starts (k 0 is the header); one more entry marks the end.
  private let lineStarts: [Int]
  private let nameIDs: [Int32]
  private let names: [String]
  // The last filter's matches, kept for paging through them.
  private let lock = NSLock()
  private var lastFilter: (text: String, steps: [Int32])?

  /// Maps the file at `url` and indexes it; a file of more than `maxSteps` action lines is refused.
  init(url: URL, maxSteps: Int = standardMaxSteps) throws(InspectorError) {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotRead(path: url.path, reason: InspectorError.systemReason) }
    defer { _ = close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .cannotRead(path: url.path, reason: InspectorError.systemReason)
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .cannotRead(path: url.path, reason: "not a regular file") }
    length = Int(status.st_size)
    guard length > 0 else { throw .cannotRead(path: url.path, reason: "the file is empty (no header)") }
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
      throw .cannotRead(path: url.path, reason: InspectorError.systemReason)
    }
    base = mapped
    let bytes = UnsafeRawBufferPointer(start: mapped, count: length)
    let lineCount = Self.lineCount(mapped, length: length)
    guard lineCount - 1 <= maxSteps else {
      munmap(mapped, length)
      throw .tooManyLines(path: url.path, limit: maxSteps)
    }
    var starts: [Int] = [0]
    var ids: [Int32] = []
    starts.reserveCapacity(lineCount + 1)
    ids.reserveCapacity(lineCount - 1)
    var idsByName: [String: Int32] = [:]
    var names: [String] = []
    var position = 0
    while position < length {
      let end = memchr(mapped + position, 0x0A, length - position).map { mapped.distance(to: $0) } ?? length
      if starts.count > 1 {
        let name = InspectorActionName.of(line: UnsafeRawBufferPointer(rebasing: bytes[position..<end]))
        if let id = idsByName[name] {
          ids.append(id)
        } else {
          let id = Int32(names.count)
          idsByName[name] = id
          names.append(name)
          ids.append(id)
        }
      }
      position = end + 1
      starts.append(min(position, length + 1))
    }
    lineStarts = starts
    nameIDs = ids
    self.names = names
    stepCount = ids.count
  }

  deinit {
    if let base { munmap(base, length) }
  }

  /// The lines in the `length` bytes at `base` (the last one may lack its newline).
  private static func lineCount(_ base: UnsafeMutableRawPointer, length: Int) -> Int {
    var count = 0
    var position = 0
    while position < length, let newline = memchr(base + position, 0x0A, length - position) {
      count += 1
      position = base.distance(to: newline) + 1
    }
    return position < length ? count + 1 : count
  }

  /// The bytes of step `number`'s line (0: the header), without its newline.
  func line(_ number: Int) -> UnsafeRawBufferPointer {
    guard let base, number >= 0, number < lineStarts.count - 1 else {
      return UnsafeRawBufferPointer(start: nil, count: 0)
    }
    let start = lineStarts[number]
    let end = min(lineStarts[number + 1] - 1, length)
    return UnsafeRawBufferPointer(start: base + start, count: max(0, end - start))
  }

  /// Step `number`'s row: its name from the index, its origin and time from the line's first fields.
  func summary(of number: Int) -> InspectorStepSummary {
    let name = number >= 1 && number <= stepCount ? names[Int(nameIDs[number - 1])] : "?"
    var summary = InspectorStepSummary(n: number, name: name, origin: "?", time: 0)
    // `{"seq":…,"origin":…,"time":…` come first: decode just them, however long the action is.
    let bytes = line(number)
    let cut =
      InspectorActionName.find(#","action":"#, in: bytes) ?? InspectorActionName.find(#","unencodable":"#, in: bytes)
    guard let cut, let prefix = bytes.baseAddress else { return summary }
    let keyStart = bytes[..<cut].lastIndex(of: UInt8(ascii: ",")) ?? cut
    var head = Data(bytes: prefix, count: keyStart)
    head.append(UInt8(ascii: "}"))
    if let fields = try? JSONSerialization.jsonObject(with: head) as? [String: Any] {
      if let origin = fields["origin"] as? String, origin == "sent" || origin == "received" { summary.origin = origin }
      if let time = fields["time"] as? Double, time.isFinite { summary.time = time }
    }
    return summary
  }

  /// The numbers of the steps whose name contains `filter`, ignoring case, in order.
  func steps(matching filter: String) -> [Int32] {
    lock.withLock {
      if let lastFilter, lastFilter.text == filter { return lastFilter.steps }
      let needle = filter.lowercased()
      let matchingIDs = Set(names.indices.filter { names[$0].lowercased().contains(needle) }.map { Int32($0) })
      var steps: [Int32] = []
      if !matchingIDs.isEmpty {
        for (offset, id) in nameIDs.enumerated() where matchingIDs.contains(id) { steps.append(Int32(offset + 1)) }
      }
      lastFilter = (filter, steps)
      return steps
    }
  }
}
