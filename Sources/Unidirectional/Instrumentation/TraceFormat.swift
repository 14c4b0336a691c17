/// Turns one store's events into Chrome Trace Event JSON objects (the "JSON Array Format"), with the names
/// ``TraceSchema`` defines: the store is a process, its actions one thread (``TraceSchema/actionsThread``), each
/// effect a thread of its own (tid = the effect's id).
struct TraceFormat {
  private typealias Key = TraceSchema.Key
  private typealias Argument = TraceSchema.Argument
  private typealias Members = [(StaticString, JSONValue)]

  /// Names longer than this are cut (the full description is in the event's arguments).
  static let nameLimit = 60
  /// What a trace file starts with.
  static let opening = "[\n"
  /// What comes between two events.
  static let separator = ",\n"
  /// What ends a trace file.
  static let closing = "\n]\n"

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

  /// The store's process and actions thread, named after its reducer `name`.
  mutating func start(name: String, into lines: inout [String]) {
    let actions = TraceSchema.actionsThread
    lines.append(metadata(TraceSchema.Metadata.processName, tid: actions, name: TraceSchema.storeName(name)))
    lines.append(metadata(TraceSchema.Metadata.processSortIndex, tid: actions, sortIndex: process))
    lines.append(metadata(TraceSchema.Metadata.threadName, tid: actions, name: "\(TraceSchema.Name.actions)"))
    lines.append(metadata(TraceSchema.Metadata.threadSortIndex, tid: actions, sortIndex: actions))
  }

  /// An action's slice; with `state`, the state after it and what it changed (a store traced with its states).
  mutating func action(
    _ description: String, _ reduction: Reduction, state: TracedState? = nil, into lines: inout [String]
  ) {
    let name = Self.shortName(description)
    actionNames[reduction.sequence] = name
    if actionNames.count > 20_000 {
      // Effects start in the batch of the action that returned them: older names are no longer needed.
      let oldest = reduction.sequence &- 10_000
      actionNames = actionNames.filter { $0.key >= oldest }
    }
    let timing = reduction.timing ?? ReducerTiming(start: origin, nanoseconds: 0)
    var arguments: Members = [
      (Argument.sequence, .number(String(reduction.sequence))), (Argument.origin, .string(reduction.origin.rawValue)),
      (Argument.action, .string(description)),
    ]
    if let effect = reduction.effect { arguments.append((Argument.effect, .number(String(effect)))) }
    if let state {
      arguments.append((Argument.state, .string(state.dump)))
      if let diff = state.diff { arguments.append((Argument.diff, .string(diff))) }
    }
    lines.append(
      event(
        name: name, category: TraceSchema.Category.action, phase: TraceSchema.Phase.complete,
        tid: TraceSchema.actionsThread, time: timing.start,
        extra: (Key.duration, .number(Self.microseconds(timing.nanoseconds))), arguments: arguments))
  }

  mutating func effect(_ event: EffectEvent, into lines: inout [String]) {
    let tid = Int(clamping: event.effect)
    let time = event.time ?? origin
    switch event.kind {
    case .started:
      let action = actionNames[event.startedBy] ?? "action #\(event.startedBy)"
      let name = TraceSchema.effectName(event.effect, action: action)
      running[event.effect] = (time, event.startedBy, name, false)
      lines.append(metadata(TraceSchema.Metadata.threadName, tid: tid, name: name))
      lines.append(metadata(TraceSchema.Metadata.threadSortIndex, tid: tid, sortIndex: tid))
    case .cancelled:
      running[event.effect]?.cancelled = true
      lines.append(
        self.event(
          name: "\(TraceSchema.Name.cancelled)", category: TraceSchema.Category.effect,
          phase: TraceSchema.Phase.instant, tid: tid, time: time, extra: (Key.scope, .name(TraceSchema.threadScope)),
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

  /// Says that `count` events were dropped (the tracer fell behind) by `time`.
  mutating func dropped(_ count: Int, at time: UInt64, into lines: inout [String]) {
    lines.append(
      event(
        name: "\(TraceSchema.Name.droppedEvents)", category: TraceSchema.Category.tracer,
        phase: TraceSchema.Phase.instant, tid: TraceSchema.actionsThread, time: time,
        extra: (Key.scope, .name(TraceSchema.threadScope)), arguments: [(Argument.count, .number(String(count)))]))
  }

  private func effectSlice(
    _ id: UInt64, _ effect: (start: UInt64, startedBy: UInt64, name: String, cancelled: Bool), until end: UInt64,
    unfinished: Bool
  ) -> String {
    var arguments: Members = [(Argument.startedBy, .number(String(effect.startedBy)))]
    if effect.cancelled { arguments.append((Argument.cancelled, .bool(true))) }
    if unfinished { arguments.append((Argument.unfinished, .bool(true))) }
    return event(
      name: effect.name, category: TraceSchema.Category.effect, phase: TraceSchema.Phase.complete,
      tid: Int(clamping: id), time: effect.start,
      extra: (Key.duration, .number(Self.microseconds(end &- min(end, effect.start)))), arguments: arguments)
  }

  // MARK: JSON

  enum JSONValue {
    case string(String)
    /// A name of ``TraceSchema``: nothing in it to escape.
    case name(StaticString)
    case number(String)
    case bool(Bool)

    var text: String {
      switch self {
      case let .string(value): TraceFormat.quoted(value)
      case let .name(value): "\"\(value)\""
      case let .number(value): value
      case let .bool(value): value ? "true" : "false"
      }
    }
  }

  private func metadata(_ name: StaticString, tid: Int, name value: String) -> String {
    metadata(name, tid: tid, [(Argument.name, .string(value))])
  }

  private func metadata(_ name: StaticString, tid: Int, sortIndex: Int) -> String {
    metadata(name, tid: tid, [(Argument.sortIndex, .number(String(sortIndex)))])
  }

  private func metadata(_ name: StaticString, tid: Int, _ arguments: Members) -> String {
    Self.object(
      [
        (Key.name, .name(name)), (Key.phase, .name(TraceSchema.Phase.metadata)),
        (Key.process, .number(String(process))), (Key.thread, .number(String(tid))),
      ], arguments: arguments)
  }

  private func event(
    name: String, category: StaticString, phase: StaticString, tid: Int, time: UInt64,
    extra: (StaticString, JSONValue), arguments: Members
  ) -> String {
    Self.object(
      [
        (Key.name, .string(name)), (Key.category, .name(category)), (Key.phase, .name(phase)),
        (Key.time, .number(Self.microseconds(time &- min(time, origin)))), (Key.process, .number(String(process))),
        (Key.thread, .number(String(tid))), extra,
      ], arguments: arguments)
  }

  /// `{"key":value,…,"args":{…}}`, without `args` when there are none.
  private static func object(_ members: Members, arguments: Members) -> String {
    func text(_ members: Members) -> String {
      members.map { "\"\($0.0)\":\($0.1.text)" }.joined(separator: ",")
    }
    guard !arguments.isEmpty else { return "{\(text(members))}" }
    return "{\(text(members)),\"\(Key.arguments)\":{\(text(arguments))}}"
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
