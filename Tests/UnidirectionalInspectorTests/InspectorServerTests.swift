import Foundation
import Unidirectional
import UnidirectionalInspector
import XCTest

/// The inspector's server without a browser: it answers only requests that carry its token and name it in `Host`,
/// serves nothing but its own files and the model's answers, and pages through a log a window at a time. (In the
/// browser: the app's `IntegrationTests/Inspector/`.)
final class InspectorServerTests: XCTestCase {
  struct Counter: Reducer {
    struct State: Codable, Sendable, Equatable { var count = 0 }
    enum Action: Codable, Sendable {
      case increment
      case named(String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case .increment = action { state.count += 1 }
      return .none
    }
  }

  func testRequestsWithoutTheTokenOrWithAnotherHostAreRefused() throws {
    let server = try InspectorServer(model: try model(lines: 3))
    defer { server.stop() }
    let token = server.token
    let host = "127.0.0.1:\(server.port)"
    XCTAssertEqual(try get(server, "/api/info", host: host).status, 403)
    XCTAssertEqual(
      try get(server, "/api/info?token=\(String(repeating: "0", count: token.count))", host: host).status, 403)
    XCTAssertEqual(try get(server, "/api/info?token=\(token)", host: "evil.example:\(server.port)").status, 421)
    XCTAssertEqual(try get(server, "/api/info?token=\(token)", host: nil).status, 421)
    XCTAssertEqual(try get(server, "/../../etc/passwd?token=\(token)", host: host).status, 404)
    XCTAssertEqual(try get(server, "/api/events?token=\(token)", host: host).status, 404, "a log is not live")
    let info = try get(server, "/api/info?token=\(token)", host: "localhost:\(server.port)")
    XCTAssertEqual(info.status, 200)
    XCTAssertTrue(info.head.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"), info.head)
    let page = try get(server, "/?token=\(token)", host: host)
    XCTAssertEqual(page.status, 200)
    XCTAssertTrue(page.body.contains(#"<script src="/inspector.js?token=\#(token)" defer></script>"#), page.body)
  }

  func testStepsComeAWindowAtATimeWithNamesFromTheLog() throws {
    let model = try model(lines: 2_500)
    XCTAssertEqual(model.info().stepCount, 2_501)
    let window = model.steps(from: 2_000, count: 3, filter: nil)
    XCTAssertEqual(window.total, 2_501)
    XCTAssertEqual(window.steps.map(\.n), [2_001, 2_002, 2_003])
    XCTAssertEqual(window.steps.map(\.name), ["increment", "increment", "increment"])
    let named = model.steps(from: 0, count: 10, filter: "NAMED")
    XCTAssertEqual(named.total, 1)
    XCTAssertEqual(named.steps.map(\.n), [2_501])
    // Far ahead, back, and ahead again: each answer is the state replayed to that step.
    XCTAssertTrue(try model.step(2_400).state.contains("count: 2400"))
    XCTAssertTrue(try model.step(3).state.contains("count: 3"))
    XCTAssertEqual(
      try model.step(1_500).diff, "  InspectorServerTests.Counter.State(\n-   count: 1499\n+   count: 1500\n  )")
    XCTAssertThrowsError(try model.step(2_502))
  }

  /// `from` and `count` come from the page's query. Before, `from=9223372036854775807` overflowed `from + 1` in the
  /// log model and killed `demo inspect`; a window at or past the end is now empty, one that runs past it is cut.
  func testAStepWindowAtOrPastTheEndIsEmptyWhateverItsNumbers() throws {
    let model = try model(lines: 3)
    let server = try InspectorServer(model: model)
    defer { server.stop() }
    let host = "127.0.0.1:\(server.port)"
    for (from, count) in [
      (Int.max, 100), (Int.max - 1, 500), (Int.max - 499, 500), (Int.max, Int.max), (4, Int.max), (3, Int.max),
    ] {
      let answer = try get(server, "/api/steps?token=\(server.token)&from=\(from)&count=\(count)", host: host)
      XCTAssertEqual(answer.status, 200, "from \(from), count \(count): \(answer.body)")
      let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let numbers = try XCTUnwrap(page["steps"] as? [[String: Any]]).map { $0["n"] as? Int }
      XCTAssertEqual(numbers, from == 3 ? [4] : [], "from \(from), count \(count): \(answer.body)")
      XCTAssertEqual(page["total"] as? Int, 4)
    }
    for (from, count) in [(Int.max, Int.max), (Int.max - 1, 2), (Int.min, Int.min), (-1, 2), (0, Int.max)] {
      let all = from <= 0 && count > 0
      XCTAssertEqual(
        model.steps(from: from, count: count, filter: nil).steps.map(\.n), all ? Array(1...min(4, count)) : [],
        "from \(from), count \(count)")
      XCTAssertEqual(
        model.steps(from: from, count: count, filter: "increment").steps.map(\.n), all ? Array(1...min(3, count)) : [],
        "filtered, from \(from), count \(count)")
    }
    let live = InspectorLive(feature: "Counter")
    for (from, count) in [(Int.min, Int.min), (-1, -1), (Int.max, Int.max)] {
      XCTAssertEqual(live.steps(from: from, count: count, filter: nil).steps, [], "live, from \(from)")
      XCTAssertEqual(live.steps(from: from, count: count, filter: "x").steps, [], "live, filtered, from \(from)")
    }
  }

  func testAFullLiveBufferDropsAndCountsActionsAndTheStoreGoesOn() throws {
    let live = InspectorLive(feature: "Counter")
    let store = Store(initialState: Counter.State(), instruments: [live.instrument(for: Counter.self, bufferLimit: 10)])
    {
      Counter()
    }
    // Far faster than the collector's 20 ms: the buffer of 10 fills and the rest are dropped, not waited for.
    for _ in 0..<100 { store.send(.increment) }
    XCTAssertEqual(store.state.count, 100)
    // Whatever the background collector has not taken yet is taken now: every action is kept or counted as dropped.
    live.collect()
    let kept = live.steps(from: 0, count: 500, filter: nil).steps.map(\.n)
    XCTAssertEqual(live.info().dropped + kept.count, 100)
    XCTAssertGreaterThanOrEqual(live.info().dropped, 80, "only a collection or two can happen in 100 sends")
    XCTAssertEqual(Array(kept.prefix(10)), Array(1...10))
    XCTAssertEqual(live.info().stepCount, kept.last)
    XCTAssertTrue(try live.step(3).state.contains("count: 3"))
    XCTAssertEqual(try live.step(3).diff, "  InspectorServerTests.Counter.State(\n-   count: 2\n+   count: 3\n  )")
    let dropped = try XCTUnwrap((1...100).first { !kept.contains($0) })
    XCTAssertThrowsError(try live.step(dropped), "a dropped step is not shown")
  }

  private func model(lines: Int) throws -> InspectorLogModel<Counter> {
    var text =
      #"{"format":"unidirectional-action-log","version":1,"feature":"Counter","initialState":{"count":0}}"# + "\n"
    for number in 1...lines {
      text += #"{"seq":\#(number),"origin":"sent","time":\#(number),"action":{"increment":{}}}"# + "\n"
    }
    text += #"{"seq":\#(lines + 1),"origin":"received","time":0,"action":{"named":{"_0":"x"}}}"# + "\n"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("counter-\(UUID().uuidString).jsonl")
    try Data(text.utf8).write(to: url)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return try InspectorLogModel(contentsOf: url, reducer: Counter())
  }

  private func get(_ server: InspectorServer, _ path: String, host: String?) throws -> (
    status: Int, head: String, body: String
  ) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = server.port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    XCTAssertEqual(connected, 0)
    let request = "GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "\r\n"
    _ = Array(request.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while answer.count < 10_000_000 {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      answer += chunk[0..<count]
    }
    let text = String(decoding: answer, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
  }
}
