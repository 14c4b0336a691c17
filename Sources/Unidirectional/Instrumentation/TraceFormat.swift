/// Turns one store's events into Chrome Trace Event JSON objects (the "JSON Array Format"): the store is a process,
/// its actions one thread (tid 0), each effect a thread of its own (tid = the effect's id).
struct TraceFormat {
  /// Names longer than this are cut (the full description is in the event's arguments).
  static let nameLimit = 60

  let process: Int
  let origin: UInt64
  /// Short names of recent actions, by sequence number, to name the effects they start.
  private var actionNames: [UInt64: String] = [:]
  /// Effects started and not yet finished: when they started, the action that started them, whether cancelled.
  private var running: [UInt64: (start: UInt64, startedBy: UInt64, name: String, cancelled: Bool)] = [:]

  init(process: Int, origin: UInt64) {
    self.process = process
    self.origin = origin
  }

  mutating func start(name: String, into lines: inout [String]) {
    lines.append(metadata("process_name", tid: 0, ["name": .string("\(name) store")]))
    lines.append(metadata("process_sort_index", tid: 0, ["sort_index": .number(String(process))]))
    lines.append(metadata("thread_name", tid: 0, ["name": .string("actions")]))
    lines.append(metadata("thread_sort_index", tid: 0, ["sort_index": .number("0")]))
  }

  mutating func action(_ description: String, _ reduction: Reduction, into lines: inout [String]) {
    let name = Self.shortName(description)
    actionNames[reduction.sequence] = name
    if actionNames.count > 20_000 {
      // Effects start in the batch of the action that returned them: older names are no longer needed.
      let oldest = reduction.sequence &- 10_000
      actionNames = actionNames.filter { $0.key >= oldest }
    }
    let timing = reduction.timing ?? ReducerTiming(start: origin, nanoseconds: 0)
    var arguments: [(String, JSONValue)] = [
      ("sequence", .number(String(reduction.sequence))), ("origin", .string(reduction.origin.rawValue)),
      ("action", .string(description)),
    ]
    if let effect = reduction.effect { arguments.append(("effect", .number(String(effect)))) }
    lines.append(
      event(
        name: name, category: "action", phase: "X", tid: 0, time: timing.start,
        extra: [("dur", .number(Self.microseconds(timing.nanoseconds)))], arguments: arguments))
  }

  mutating func effect(_ event: EffectEvent, into lines: inout [String]) {
    let tid = Int(clamping: event.effect)
    let time = event.time ?? origin
    switch event.kind {
    case .started:
      let name = "effect \(event.effect) · \(actionNames[event.startedBy] ?? "action #\(event.startedBy)")"
      running[event.effect] = (time, event.startedBy, name, false)
      lines.append(metadata("thread_name", tid: tid, ["name": .string(name)]))
      lines.append(metadata("thread_sort_index", tid: tid, ["sort_index": .number(String(tid))]))
    case .cancelled:
      running[event.effect]?.cancelled = true
      lines.append(
        self.event(
          name: "cancelled", category: "effect", phase: "i", tid: tid, time: time, extra: [("s", .string("t"))],
          arguments: []))
    case .finished:
      guard let effect = running.removeValue(forKey: event.effect) else { return }
      lines.append(effectSlice(event.effect, effect, until: time, unfinished: false))
    }
  }

  /// Ends the effects still running when the trace is closed.
  mutating func finishRunningEffects(at time: UInt64, into lines: inout [String]) {
    for (id, effect) in running.sorted(by: { $0.key < $1.key }) {
      lines.append(effectSlice(id, effect, until: time, unfinished: true))
    }
    running = [:]
  }

  mutating func dropped(_ count: Int, into lines: inout [String]) {
    lines.append(
      event(
        name: "dropped events", category: "tracer", phase: "i", tid: 0, time: InstrumentationClock.nanoseconds,
        extra: [("s", .string("t"))], arguments: [("count", .number(String(count)))]))
  }

  private func effectSlice(
    _ id: UInt64, _ effect: (start: UInt64, startedBy: UInt64, name: String, cancelled: Bool), until end: UInt64,
    unfinished: Bool
  ) -> String {
    var arguments: [(String, JSONValue)] = [("startedBy", .number(String(effect.startedBy)))]
    if effect.cancelled { arguments.append(("cancelled", .bool(true))) }
    if unfinished { arguments.append(("unfinished", .bool(true))) }
    return event(
      name: effect.name, category: "effect", phase: "X", tid: Int(clamping: id), time: effect.start,
      extra: [("dur", .number(Self.microseconds(end &- min(end, effect.start))))], arguments: arguments)
  }

  // MARK: JSON

  enum JSONValue {
    case string(String)
    case number(String)
    case bool(Bool)

    var text: String {
      switch self {
      case let .string(value): TraceFormat.quoted(value)
      case let .number(value): value
      case let .bool(value): value ? "true" : "false"
      }
    }
  }

  private func metadata(_ name: String, tid: Int, _ arguments: KeyValuePairs<String, JSONValue>) -> String {
    let args = arguments.map { "\(Self.quoted($0.key)):\($0.value.text)" }.joined(separator: ",")
    return #"{"name":\#(Self.quoted(name)),"ph":"M","pid":\#(process),"tid":\#(tid),"args":{\#(args)}}"#
  }

  private func event(
    name: String, category: String, phase: String, tid: Int, time: UInt64, extra: [(String, JSONValue)],
    arguments: [(String, JSONValue)]
  ) -> String {
    var text = #"{"name":\#(Self.quoted(name)),"cat":"\#(category)","ph":"\#(phase)","#
    text += #""ts":\#(Self.microseconds(time &- min(time, origin))),"pid":\#(process),"tid":\#(tid)"#
    for (key, value) in extra { text += ",\(Self.quoted(key)):\(value.text)" }
    if !arguments.isEmpty {
      text += #","args":{"# + arguments.map { "\(Self.quoted($0.0)):\($0.1.text)" }.joined(separator: ",") + "}"
    }
    return text + "}"
  }

  /// Nanoseconds as microseconds with three decimals: `1234567` → `1234.567`.
  static func microseconds(_ nanoseconds: UInt64) -> String {
    let fraction = String(nanoseconds % 1000)
    return "\(nanoseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// An action's description without the type names before its cases, cut to ``nameLimit`` characters:
  /// `Scan.Action.capture(Capture.Action.start)` → `.capture(.start)` (the store's track says whose actions they are).
  static func shortName(_ description: String) -> String {
    var result = ""
    var rest = Substring(description)
    var inString = false
    while let first = rest.first {
      if first == "\"", result.last != "\\" { inString.toggle() }
      let startsValue = !inString && first.isUppercase && (result.last.map { "([ ,:".contains($0) } ?? true)
      if startsValue, let caseStart = Self.caseAfterTypePath(rest) {
        result += "."
        rest = rest[caseStart...]
      } else {
        result.append(first)
        rest = rest.dropFirst()
      }
    }
    return result.count > nameLimit ? String(result.prefix(nameLimit - 1)) + "…" : result
  }

  /// Where the case name starts in `text` if it begins with a type path followed by a lowercase case name
  /// (`Capture.Action.start`), else `nil`.
  private static func caseAfterTypePath(_ text: Substring) -> Substring.Index? {
    var index = text.startIndex
    var sawTypeComponent = false
    while index < text.endIndex, text[index].isUppercase {
      while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" {
        index = text.index(after: index)
      }
      guard index < text.endIndex, text[index] == "." else { return nil }
      index = text.index(after: index)
      sawTypeComponent = true
    }
    guard sawTypeComponent, index < text.endIndex, text[index].isLowercase || text[index] == "_" else { return nil }
    return index
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
