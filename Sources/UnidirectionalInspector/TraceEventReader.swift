import Unidirectional

/// Reads the events of a Chrome Trace Event file (the JSON Array Format, `[{…},{…}]`, or the Object Format,
/// `{"traceEvents":[…]}`) one at a time from bytes that may be hostile or cut short, into ``TraceEvent``s.
///
/// Nothing in the file can make it trap or grow without bound: it keeps only the members the inspector uses (the
/// rest is checked and skipped), values nest at most ``depthLimit`` deep, a string yields at most its first
/// ``keptStringLimit`` bytes, and a number literal is at most 64 characters. A file that ends inside the event
/// array — a run that never closed its trace — reads as `.end(truncated: true)` after its last complete event, as
/// trace viewers accept it.
///
/// ```swift
/// var reader = TraceEventReader(bytes)
/// while case let .event(event) = try reader.next() { print(event.time ?? 0) }
/// ```
struct TraceEventReader {
  /// What ``next()`` found.
  enum Next {
    /// An event (an object in the array).
    case event(TraceEvent)
    /// An element that is not an object (ignored by trace viewers).
    case other
    /// No more events; `truncated` when the file ended before the array did.
    case end(truncated: Bool)
  }

  /// Why the bytes are not a trace: where, and what was wrong.
  struct Failure: Error, Equatable {
    let offset: Int
    let reason: String
    /// The bytes ended in the middle of a value.
    let atEnd: Bool
  }

  static let depthLimit = 20
  static let keptStringLimit = 4_096

  private enum Place { case start, firstInArray, inArray, afterArray, done }

  private let bytes: UnsafeRawBufferPointer
  private var position = 0
  private var place = Place.start
  /// The Object Format: the members after `traceEvents` are still to be read.
  private var inObject = false

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The next event, or the end.
  mutating func next() throws(Failure) -> Next {
    do throws(Failure) {
      switch place {
      case .start:
        try openEventArray()
        return try next()
      case .firstInArray, .inArray:
        skipWhitespace()
        guard position < bytes.count else { return finish(truncated: true) }
        if peek("]") {
          position += 1
          place = .afterArray
          return try next()
        }
        if place == .inArray {
          try expect(",")
          skipWhitespace()
          guard position < bytes.count else { return finish(truncated: true) }
          // A trailing comma before the bracket (as a cut-and-closed file may have) is let through.
          if peek("]") { return try next() }
        }
        place = .inArray
        guard peek("{") else {
          try skipValue(depth: 1)
          return .other
        }
        return .event(try event())
      case .afterArray:
        if inObject { try skipMembers(closing: true) }
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected content after the trace") }
        return finish(truncated: false)
      case .done:
        return .end(truncated: false)
      }
    } catch  where error.atEnd {
      switch place {
      case .firstInArray, .inArray: return finish(truncated: true)
      case .afterArray, .done: return finish(truncated: false)
      case .start: throw Failure(offset: error.offset, reason: "the file ends before its events", atEnd: true)
      }
    }
  }

  private mutating func finish(truncated: Bool) -> Next {
    place = .done
    return .end(truncated: truncated)
  }

  /// Reads up to the first event: `[`, or `{` and the members before `"traceEvents": [`.
  private mutating func openEventArray() throws(Failure) {
    skipWhitespace()
    guard position < bytes.count else { throw Failure(offset: 0, reason: "the file is empty", atEnd: false) }
    if peek("[") {
      position += 1
      place = .firstInArray
      return
    }
    guard peek("{") else { throw failure("a trace is a JSON array of events or an object with traceEvents") }
    position += 1
    inObject = true
    try skipMembers(closing: false)
  }

  /// Reads object members, skipping their values, until `"traceEvents": [` (unless `closing`) or the object's end.
  private mutating func skipMembers(closing: Bool) throws(Failure) {
    var first = !closing
    while true {
      skipWhitespace()
      if peek("}") {
        position += 1
        guard closing else { throw failure("the object has no traceEvents array") }
        return
      }
      if !first { try expect(",") }
      first = false
      let key = try memberKey()
      if !closing, TraceEvent.matches(key, "traceEvents", in: bytes) {
        try expect("[")
        place = .firstInArray
        return
      }
      try skipValue(depth: 1)
    }
  }

  // MARK: Events

  /// The event object at `{`: the members the inspector uses; the others checked and skipped.
  private mutating func event() throws(Failure) -> TraceEvent {
    var event = TraceEvent(bytes: bytes)
    try forEachMember(depth: 1) { reader, key throws(Failure) in
      switch EventMember(rawValue: reader.member(key, among: EventMember.names)) {
      case .name: event.name = try reader.optionalText(depth: 2)
      case .cat: event.category = try reader.optionalText(depth: 2)
      case .ph: event.phase = try reader.optionalText(depth: 2)
      case .ts: event.time = try reader.optionalNumber(depth: 2)
      case .dur: event.duration = try reader.optionalNumber(depth: 2)
      case .pid: event.process = TraceNumber.count(try reader.optionalNumber(depth: 2))
      case .tid: event.thread = TraceNumber.count(try reader.optionalNumber(depth: 2))
      case .args where reader.peek("{"): try reader.arguments(of: &event)
      case .args, nil: try reader.skipValue(depth: 2)
      }
    }
    return event
  }

  /// The `args` object at `{`.
  private mutating func arguments(of event: inout TraceEvent) throws(Failure) {
    try forEachMember(depth: 2) { reader, key throws(Failure) in
      switch ArgumentMember(rawValue: reader.member(key, among: ArgumentMember.names)) {
      case .name: event.argumentName = try reader.optionalText(depth: 3)
      case .sequence: event.sequence = TraceNumber.count(try reader.optionalNumber(depth: 3))
      case .effect: event.effect = TraceNumber.count(try reader.optionalNumber(depth: 3))
      case .startedBy: event.startedBy = TraceNumber.count(try reader.optionalNumber(depth: 3))
      case .count: event.count = TraceNumber.count(try reader.optionalNumber(depth: 3))
      case .cancelled: event.cancelled = try reader.isTrue(depth: 3)
      case .unfinished: event.unfinished = try reader.isTrue(depth: 3)
      case .action: event.action = try reader.optionalText(depth: 3)
      case .origin: event.origin = try reader.optionalText(depth: 3)
      case .state: event.state = try reader.optionalText(depth: 3)
      case .diff: event.diff = try reader.optionalText(depth: 3)
      case nil: try reader.skipValue(depth: 3)
      }
    }
  }

  /// An event's members the inspector reads, in the order of ``names``.
  private enum EventMember: Int {
    case name, cat, ph, ts, dur, pid, tid, args
    static let names: [StaticString] = {
      typealias Key = TraceSchema.Key
      return [Key.name, Key.category, Key.phase, Key.time, Key.duration, Key.process, Key.thread, Key.arguments]
    }()
  }

  /// The members of an event's `args` the inspector reads, in the order of ``names``.
  private enum ArgumentMember: Int {
    case name, sequence, effect, startedBy, cancelled, unfinished, count, action, origin, state, diff
    static let names: [StaticString] = {
      typealias Argument = TraceSchema.Argument
      return [
        Argument.name, Argument.sequence, Argument.effect, Argument.startedBy, Argument.cancelled, Argument.unfinished,
        Argument.count, Argument.action, Argument.origin, Argument.state, Argument.diff,
      ]
    }()
  }

  /// The position of the key among `names`, or -1.
  private func member(_ key: TraceEvent.Text, among names: [StaticString]) -> Int {
    let length = key.end - key.start - 2
    for index in names.indices {
      let name = names[index]
      // Most keys differ in length or first byte: compare those before the rest.
      guard key.escaped || (name.utf8CodeUnitCount == length && bytes[key.start + 1] == name.utf8Start[0]) else {
        continue
      }
      if TraceEvent.matches(key, name, in: bytes) { return index }
    }
    return -1
  }

  /// Reads the object at `{`, handing each member's key to `body` with the reader at its value (which `body`
  /// reads).
  private mutating func forEachMember(
    depth: Int, _ body: (inout TraceEventReader, TraceEvent.Text) throws(Failure) -> Void
  ) throws(Failure) {
    guard depth <= Self.depthLimit else { throw failure("values nest more than \(Self.depthLimit) deep") }
    try expect("{")
    skipWhitespace()
    if peek("}") {
      position += 1
      return
    }
    while true {
      let key = try memberKey()
      try body(&self, key)
      skipWhitespace()
      if peek("}") {
        position += 1
        return
      }
      try expect(",")
    }
  }

  /// A member's key and its colon; the reader at the value.
  private mutating func memberKey() throws(Failure) -> TraceEvent.Text {
    skipWhitespace()
    let key = try text()
    skipWhitespace()
    try expect(":")
    skipWhitespace()
    return key
  }

  private mutating func optionalText(depth: Int) throws(Failure) -> TraceEvent.Text? {
    guard peek("\"") else {
      try skipValue(depth: depth)
      return nil
    }
    return try text()
  }

  private mutating func optionalNumber(depth: Int) throws(Failure) -> Double? {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "-") || TraceNumber.isDigit(bytes[position]) else {
      try skipValue(depth: depth)
      return nil
    }
    return try number()
  }

  private mutating func isTrue(depth: Int) throws(Failure) -> Bool {
    guard peek("t") else {
      try skipValue(depth: depth)
      return false
    }
    try literal("true")
    return true
  }

  // MARK: Values

  /// Checks the value here and steps over it.
  private mutating func skipValue(depth: Int) throws(Failure) {
    guard depth <= Self.depthLimit else { throw failure("values nest more than \(Self.depthLimit) deep") }
    skipWhitespace()
    guard position < bytes.count else { throw endFailure() }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      try forEachMember(depth: depth) { reader, _ throws(Failure) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["):
      position += 1
      skipWhitespace()
      if peek("]") {
        position += 1
        return
      }
      while true {
        try skipValue(depth: depth + 1)
        skipWhitespace()
        if peek("]") {
          position += 1
          return
        }
        try expect(",")
      }
    case UInt8(ascii: "\""): _ = try text()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: _ = try number()
    }
  }

  /// Checks the string here (escapes, no control characters) and steps over it.
  private mutating func text() throws(Failure) -> TraceEvent.Text {
    guard position < bytes.count else { throw endFailure() }
    guard peek("\"") else { throw failure("a string was expected") }
    let start = position
    position += 1
    var escaped = false
    while true {
      guard position < bytes.count else { throw endFailure() }
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return TraceEvent.Text(start: start, end: position, escaped: escaped)
      case UInt8(ascii: "\\"):
        escaped = true
        guard position < bytes.count else { throw endFailure() }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          continue
        case UInt8(ascii: "u"):
          guard position + 4 <= bytes.count else { throw endFailure() }
          for _ in 0..<4 {
            guard Character(Unicode.Scalar(bytes[position])).isHexDigit else {
              throw failure("a \\u escape needs four hex digits")
            }
            position += 1
          }
        default: throw failure("an unknown escape in a string")
        }
      case 0..<0x20:
        throw failure("a control character inside a string")
      default:
        continue
      }
    }
  }

  private mutating func number() throws(Failure) -> Double {
    let start = position
    while position < bytes.count, position - start <= 64, TraceNumber.isNumberByte(bytes[position]) { position += 1 }
    guard position < bytes.count else { throw endFailure() }
    let tooLong = position - start > 64
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    guard !tooLong, let number = TraceNumber.decimal(slice) ?? Double(String(decoding: slice, as: UTF8.self)),
      number.isFinite
    else {
      position = start
      throw failure(tooLong ? "a number longer than 64 characters" : "a value was expected")
    }
    return number
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { throw endFailure() }
    for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
      throw failure("a value was expected")
    }
    position += count
  }

  // MARK: Bytes

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private func peek(_ character: Unicode.Scalar) -> Bool {
    position < bytes.count && bytes[position] == UInt8(ascii: character)
  }

  private mutating func expect(_ character: Unicode.Scalar) throws(Failure) {
    guard position < bytes.count else { throw endFailure() }
    guard bytes[position] == UInt8(ascii: character) else { throw failure("\"\(character)\" was expected") }
    position += 1
  }

  private func failure(_ reason: String) -> Failure {
    Failure(offset: position, reason: reason, atEnd: false)
  }

  private func endFailure() -> Failure {
    Failure(offset: position, reason: "the file ends inside a value", atEnd: true)
  }
}
