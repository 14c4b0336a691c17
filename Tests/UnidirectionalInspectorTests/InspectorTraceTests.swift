import Foundation
import Unidirectional
import UnidirectionalInspector
import XCTest

private struct Jobs: Reducer {
  struct State: Equatable, Sendable { var done = 0 }
  enum Action: Equatable, Sendable { case quick, slow, stop, done, hold, relay }
  enum CancelID { case slow, hold }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .quick:
      return .run { send in send(.done) }
    case .slow:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.slow)
    case .hold:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.hold)
    case .stop:
      return .cancel(id: CancelID.slow)
    case .relay:
      return .run { send in send(.quick) }
    case .done:
      state.done += 1
      return .none
    }
  }
}

/// Reading a `StoreTracer` trace into the inspector's effect timeline: a real trace, one cut short, malformed and
/// hostile files, and traces past the size limits.
final class InspectorTraceTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testARealTraceGivesEachEffectItsStartingStepAndTheStepsItRanThrough() async throws {
    let url = folder.appendingPathComponent("run.trace.json")
    let tracer = try StoreTracer(fileURL: url)
    let store = Store(initialState: Jobs.State(), instruments: [tracer.instrument(for: Jobs.self)]) {
      Jobs()
    } withDependencies: {
      $0.clock = TestClock()
    }
    await store.send(.quick).finish()  // 1 quick (effect 1), 2 done
    let slow = store.send(.slow)  // 3 slow (effect 2)
    store.send(.stop)  // 4 stop: cancels effect 2
    await slow.finish()
    store.send(.hold)  // 5 hold (effect 3): still running when the trace is closed
    await store.send(.relay).finish()  // 6 relay (effect 4), 7 quick fed back by effect 4 (effect 5)
    try tracer.close()

    let trace = try InspectorTrace(contentsOf: url, feature: "Jobs")
    XCTAssertEqual(trace.storeName, "Jobs store")
    XCTAssertEqual(trace.notes, [])
    XCTAssertEqual(trace.effectCount, 5)
    let all = trace.effects(from: 1, to: 100, offset: 0, count: 100).effects
    XCTAssertEqual(all.map(\.id), [1, 2, 3, 4, 5])
    XCTAssertEqual(all.map(\.startedBy), [1, 3, 5, 6, 7])
    XCTAssertEqual(all[0].endStep, 2, "effect 1 ended after the done it fed back")
    XCTAssertFalse(all[0].cancelled)
    XCTAssertEqual(all[1].endStep, 4)
    XCTAssertEqual(all[1].cancelStep, 4)
    XCTAssertTrue(all[1].cancelled)
    XCTAssertNil(all[2].endStep, "still running when the trace was closed")
    XCTAssertNil(all[2].duration)
    XCTAssertEqual(all[4].parent, 4, "effect 5 was started by an action effect 4 fed back")
    XCTAssertNil(all[0].parent)
    XCTAssertEqual(all[0].name, ".quick", "the starting action's name, without the tracer's \"effect 1 · \"")
    XCTAssertGreaterThanOrEqual(all[0].duration ?? -1, 0)

    // A window of steps: only the effects running at one of them.
    XCTAssertEqual(trace.effects(from: 4, to: 4, offset: 0, count: 100).effects.map(\.id), [2])
    XCTAssertEqual(trace.effects(from: 5, to: 5, offset: 0, count: 100).effects.map(\.id), [3])
    XCTAssertEqual(trace.effects(from: 2, to: 3, offset: 0, count: 100).effects.map(\.id), [1, 2])
  }

  func testATraceCutShortIsReadToItsLastCompleteEvent() throws {
    // As a crashed run leaves it: no closing bracket, the last event half written; effect 2 was named when it
    // started (its track) but its slice, written when it ends, never came.
    let text = """
      [
      \(Self.process("Jobs store")),
      \(Self.action(1, at: 10)),
      \(Self.effectName(1, "effect 1 · .quick")),
      \(Self.action(2, at: 20, fedBackBy: 1)),
      \(Self.effectSlice(1, startedBy: 1, from: 11, to: 25)),
      \(Self.action(3, at: 30)),
      \(Self.effectName(2, "effect 2 · .hold")),
      {"name":".done","cat":"action","ph":"X","ts":40,"pid":1,"tid":0,"ar
      """
    let trace = try InspectorTrace(contentsOf: try write(text), feature: "Jobs")
    XCTAssertEqual(trace.notes.count, 1)
    XCTAssertTrue(trace.notes[0].contains("ends early"), trace.notes[0])
    let effects = trace.effects(from: 1, to: 10, offset: 0, count: 10).effects
    XCTAssertEqual(effects.map(\.id), [1, 2])
    XCTAssertEqual(effects.map(\.startedBy), [1, 3])
    XCTAssertEqual(effects[0].endStep, 2)
    XCTAssertNil(effects[1].endStep, "named but never ended: running when the file was cut")
    XCTAssertEqual(trace.lastStep, 3)
    // Only the bracket missing: the same, read in full.
    let unclosed = try InspectorTrace(contentsOf: try write("[\n" + Self.action(1, at: 1) + ",\n"))
    XCTAssertEqual(unclosed.lastStep, 1)
  }

  func testAFileThatIsNotATraceIsATypedErrorSayingWhere() throws {
    let cases: [(String, String)] = [
      ("", "the file is empty"),
      ("hello", "a trace is a JSON array of events or an object with traceEvents"),
      (#"{"displayTimeUnit":"ms"}"#, "the object has no traceEvents array"),
      (#"[{"name":"x",}]"#, "a string was expected"),
      (#"[{"name":"x"} {"name":"y"}]"#, "\",\" was expected"),
      (#"[{"name":"a\#u{01}b"}]"#, "a control character inside a string"),
      (#"[{"name":"\q"}]"#, "an unknown escape in a string"),
      (#"[{"ts":1e99999}]"#, "a value was expected"),
      (#"[{"ts":tru}]"#, "a value was expected"),
      (#"[] trailing"#, "unexpected content after the trace"),
      (#"[{"args":"# + String(repeating: "[", count: 100_000), "values nest more than 20 deep"),
      (#"[{"ts":"# + String(repeating: "1", count: 100) + "}]", "a number longer than 64 characters"),
      (#"{"traceEv"#, "the file ends before its events"),
    ]
    for (text, reason) in cases {
      let url = try write(text)
      XCTAssertThrowsError(try InspectorTrace(contentsOf: url), text) { error in
        guard case let .malformed(path, _, found) = error as? InspectorTraceError else {
          return XCTFail("\(text): \(error)")
        }
        XCTAssertEqual(path, url.path)
        XCTAssertEqual(found, reason, String(text.prefix(60)))
      }
    }
    let cut = try write(#"[{"name":"x",}]"#)
    XCTAssertThrowsError(try InspectorTrace(contentsOf: cut)) { error in
      XCTAssertEqual("\(error)", "trace \(cut.path) is not valid JSON at byte 13: a string was expected")
    }
    XCTAssertThrowsError(try InspectorTrace(contentsOf: folder)) { error in
      XCTAssertEqual(error as? InspectorTraceError, .cannotRead(path: folder.path, reason: "not a regular file"))
    }
    let missing = folder.appendingPathComponent("missing.json")
    XCTAssertThrowsError(try InspectorTrace(contentsOf: missing)) { error in
      guard case .cannotRead(missing.path, _) = error as? InspectorTraceError else { return XCTFail("\(error)") }
    }
  }

  /// Foundation on Linux keeps 4 KiB for every `Data(contentsOf:)` of an empty file, mapped or not: an empty trace
  /// is no longer read at all. It is still the typed "the file is empty" error, every time.
  func testAnEmptyTraceIsTheEmptyFileErrorAndOpeningItKeepsNoMemory() throws {
    let url = try write("")
    let expected = InspectorTraceError.malformed(path: url.path, offset: 0, reason: "the file is empty")
    #if os(Linux)
      let before = try residentKiB()
    #endif
    var outcomes: [String: Int] = [:]
    for _ in 0..<5_000 {
      do {
        _ = try InspectorTrace(contentsOf: url)
        outcomes["opened", default: 0] += 1
      } catch {
        outcomes[error == expected ? "expected" : "\(error)", default: 0] += 1
      }
    }
    XCTAssertEqual(outcomes, ["expected": 5_000])
    #if os(Linux)
      XCTAssertLessThan(try residentKiB() - before, 8_000, "5,000 opens kept 4 KiB each (20,000 KiB) before")
    #endif
  }

  #if os(Linux)
    /// This process's resident memory, from `/proc/self/statm`.
    private func residentKiB() throws -> Int {
      let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
      let pages = try XCTUnwrap(fields.count > 1 ? Int(fields[1]) : nil, "statm: \(fields)")
      return pages * sysconf(Int32(_SC_PAGESIZE)) / 1024
    }
  #endif

  func testHostileStringsArriveAsTheTextTheyEncodeAndLongOnesAreCut() throws {
    let markup = #"<script>alert(1)</script><img src=x onerror=\"alert(2)\">"#
    let escapes = #"\u0000\u001b[31m\ud83d\ude00\ud800 \"'`"#
    let long = String(repeating: "A", count: 1_000_000)
    let text = """
      {"traceEvents":[
      \(Self.process("Jobs store")),
      \(Self.action(1, at: 1)),
      {"name":"effect 1 · \(markup)\(escapes)","cat":"effect","ph":"X","ts":2,"dur":5,"pid":1,"tid":1,"args":{"startedBy":1}},
      {"name":"effect 2 · \(long)","cat":"effect","ph":"X","ts":3,"dur":5,"pid":1,"tid":2,"args":{"startedBy":1}}
      ],"displayTimeUnit":"ms","otherData":{"version":"\(long)"}}
      """
    let trace = try InspectorTrace(contentsOf: try write(text))
    let effects = trace.effects(from: 1, to: 1, offset: 0, count: 10).effects
    XCTAssertEqual(effects.count, 2)
    XCTAssertEqual(
      effects[0].name,
      "<script>alert(1)</script><img src=x onerror=\"alert(2)\">\u{0}\u{1b}[31m😀\u{FFFD} \"'`")
    XCTAssertEqual(effects[1].name, String(repeating: "A", count: 200 - "effect 2 · ".count), "names are cut")
    // What the server sends is JSON that decodes back to the same text.
    let page = try JSONEncoder().encode(trace.effects(from: 1, to: 1, offset: 0, count: 10))
    let decoded = try JSONSerialization.jsonObject(with: page) as? [String: Any]
    let names = (decoded?["effects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    XCTAssertEqual(names?.first, effects[0].name)
  }

  func testKeysWithEscapesAndEveryNumberFormReadAsJSONSays() throws {
    // "name", "cat", "sequence" spelled with escapes; numbers with exponents, signs and more than 15 digits.
    let text = #"""
      [{"n\u0061me":".a","c\u0061t":"action","ph":"X","ts":1.5e1,"pid":1,"tid":0,"args":{"seq\u0075ence":2E0}},
      {"name":"effect 4","cat":"effect","ph":"X","ts":16.0000000000000001,"dur":-0.0,"pid":1.0,"tid":4,
       "args":{"startedBy":20000000000000000e-16,"cancelled":true,"extra":[{"deep":[null,false,"\/"]}]}},
      {"name":".b","cat":"action","ph":"X","ts":17,"pid":1,"tid":0,"args":{"sequence":3}}]
      """#
    let trace = try InspectorTrace(contentsOf: try write(text))
    let effects = trace.effects(from: 1, to: 9, offset: 0, count: 9).effects
    XCTAssertEqual(effects.map(\.id), [4])
    XCTAssertEqual(effects.first?.startedBy, 2)
    XCTAssertEqual(effects.first?.endStep, 2, "it ended at 16 µs, before step 3 at 17")
    XCTAssertEqual(effects.first?.cancelled, true)
    XCTAssertEqual(effects.first?.start ?? 0, 16e-6, accuracy: 1e-12)
    XCTAssertEqual(trace.lastStep, 3)
  }

  func testAHugeTraceIsServedAWindowAtATimeAndPastTheLimitsIsATypedError() throws {
    // 20,000 steps, each starting a short effect, and one effect running from step 1 to the end.
    var text = "[\n" + Self.process("Jobs store") + ",\n"
    for step in 1...20_000 {
      text += Self.action(step, at: Double(step) * 10) + ",\n"
      if step == 1 { text += Self.effectName(100_000, "long") + ",\n" }
      text += Self.effectSlice(step, startedBy: step, from: Double(step) * 10 + 1, to: Double(step) * 10 + 15) + ",\n"
    }
    text += Self.action(20_001, at: 1_000_000) + "\n]\n"
    let url = try write(text)
    let trace = try InspectorTrace(contentsOf: url)
    XCTAssertEqual(trace.effectCount, 20_001)
    XCTAssertEqual(trace.notes, [])
    let window = trace.effects(from: 10_000, to: 10_002, offset: 0, count: 500)
    XCTAssertEqual(window.total, 5, "the long one, 9,999 (runs into 10,000), and the three started in the window")
    XCTAssertEqual(window.effects.map(\.id), [100_000, 9_999, 10_000, 10_001, 10_002], "by starting step")
    // Paged: every effect of a large window exactly once, at most `count` at a time.
    var seen: [UInt64] = []
    var offset = 0
    while true {
      let page = trace.effects(from: 1, to: 2_000, offset: offset, count: 500)
      XCTAssertLessThanOrEqual(page.effects.count, 500)
      XCTAssertEqual(page.total, 2_001)
      guard !page.effects.isEmpty else { break }
      seen += page.effects.map(\.id)
      offset += page.effects.count
    }
    XCTAssertEqual(Set(seen).count, 2_001)
    XCTAssertEqual(seen.count, 2_001)

    let size = text.utf8.count
    XCTAssertThrowsError(
      try InspectorTrace(contentsOf: url, limits: .init(bytes: size - 1, effects: 1_000_000, actions: 1_000_000))
    ) { error in
      XCTAssertEqual(
        error as? InspectorTraceError, .tooLarge(path: url.path, reason: "\(size) bytes (at most \(size - 1))"))
    }
    XCTAssertThrowsError(
      try InspectorTrace(contentsOf: url, limits: .init(bytes: 1 << 30, effects: 1_000, actions: 1_000_000))
    ) { error in
      XCTAssertEqual(error as? InspectorTraceError, .tooLarge(path: url.path, reason: "more than 1000 effects"))
    }
    XCTAssertThrowsError(
      try InspectorTrace(contentsOf: url, limits: .init(bytes: 1 << 30, effects: 1_000_000, actions: 5_000))
    ) { error in
      XCTAssertEqual(error as? InspectorTraceError, .tooLarge(path: url.path, reason: "more than 5000 actions"))
    }
  }

  func testWithSeveralStoresTheFeaturesOneIsShown() throws {
    let text = """
      [
      \(Self.process("Other store", pid: 1)),
      \(Self.action(1, at: 1, pid: 1)),
      \(Self.action(2, at: 2, pid: 1)),
      \(Self.process("Jobs store", pid: 2)),
      \(Self.action(1, at: 3, pid: 2)),
      \(Self.effectSlice(7, startedBy: 1, from: 4, to: 5, pid: 2))
      ]
      """
    let url = try write(text)
    let trace = try InspectorTrace(contentsOf: url, feature: "Jobs")
    XCTAssertEqual(trace.storeName, "Jobs store")
    XCTAssertEqual(trace.notes, ["the trace has 2 stores: the timeline shows Jobs store"])
    XCTAssertEqual(trace.effects(from: 1, to: 9, offset: 0, count: 9).effects.map(\.id), [7])
    // Without the feature: the store with the most actions.
    XCTAssertEqual(try InspectorTrace(contentsOf: url).storeName, "Other store")
  }

  // MARK: Writing traces

  private var written = 0

  private func write(_ text: String) throws -> URL {
    written += 1
    let url = folder.appendingPathComponent("trace-\(written).json")
    try Data(text.utf8).write(to: url)
    return url
  }

  static func process(_ name: String, pid: Int = 1) -> String {
    #"{"name":"process_name","ph":"M","pid":\#(pid),"tid":0,"args":{"name":"\#(name)"}}"#
  }

  static func action(_ sequence: Int, at time: Double, fedBackBy effect: Int? = nil, pid: Int = 1) -> String {
    let cause = effect.map { #","effect":\#($0)"# } ?? ""
    return #"{"name":".a","cat":"action","ph":"X","ts":\#(time),"dur":1,"pid":\#(pid),"tid":0,"#
      + #""args":{"sequence":\#(sequence),"origin":"sent"\#(cause)}}"#
  }

  static func effectName(_ id: Int, _ name: String) -> String {
    #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(id),"args":{"name":"\#(name)"}}"#
  }

  static func effectSlice(_ id: Int, startedBy: Int, from start: Double, to end: Double, pid: Int = 1) -> String {
    #"{"name":"effect \#(id)","cat":"effect","ph":"X","ts":\#(start),"dur":\#(end - start),"pid":\#(pid),"#
      + #""tid":\#(id),"args":{"startedBy":\#(startedBy)}}"#
  }
}
