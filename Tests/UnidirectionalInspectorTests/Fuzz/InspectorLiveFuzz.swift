import Foundation
import Unidirectional

@testable import UnidirectionalInspector

/// The body of `Scripts/fuzz inspector-live`, run by the corpus test over every committed input too: the input is a
/// request to `demo counter --inspect`'s server, answered by the router over a live store's model
/// (``InspectorLive``) — above all `/api/events`, the page's event stream, resumed from any `after=` or
/// `Last-Event-ID`. The store ran and ended before the first input (its history keeps 4 of its steps, so the first
/// ones are forgotten), so a stream sends what there is and ends.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - what ``InspectorRequestFuzz`` checks of every answer (status, security headers, length, a 200 only with the
///   token for this server);
/// - an event stream is a 200 of `text/event-stream` events, each `id: N` / `event: steps` / `data: {json}`, whose
///   rows are numbered in order, start at the event's `from` (never negative) and end at its id; its last event says
///   the run ended.
///
/// ```swift
/// InspectorLiveFuzz.fuzz(Data("GET /api/events?after=-1&token=… HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n".utf8))
/// ```
enum InspectorLiveFuzz {
  /// The most steps the live model keeps.
  static let historyLimit = 4

  /// A router over a live model whose store sent six actions (one effect fed back a tick) and ended.
  static let router: InspectorRouter = {
    let live = InspectorLive(feature: "InspectedCounter", historyLimit: historyLimit)
    let store = Store(
      initialState: InspectedCounter.State(), instruments: [live.instrument(for: InspectedCounter.self)]
    ) {
      InspectedCounter()
    }
    let done = DispatchSemaphore(value: 0)
    Task {
      await store.send(.start).finish()
      for action in [InspectedCounter.Action.tick, .add(-2), .note(text: "<b>\"x\"</b>", detail: .plain), .tick] {
        await store.send(action).finish()
      }
      done.signal()
    }
    done.wait()
    live.endRun(waitingForPagesUpTo: .zero)
    withExtendedLifetime(store) {}
    return InspectorRouter(model: live, token: InspectorFuzzExchange.token, port: InspectorFuzzExchange.port)
  }()

  static func fuzz(_ data: Data) {
    switch InspectorFuzzExchange.send(data, to: router) {
    case let .failure(unreadable):
      fuzzFailure("an answer that is not HTTP/1.1: \(unreadable.text.prefix(200))")
    case .success(nil):
      let headEnd = data.range(of: Data("\r\n\r\n".utf8))?.upperBound
      fuzzRequire((headEnd ?? .max) > HTTPConnection.maximumHeadLength, "no answer to a complete head")
    case let .success(response?):
      InspectorFuzzExchange.checkAnswer(response, to: data)
      if response.headers["content-type"] == "text/event-stream" { checkEvents(response) }
    }
  }

  private struct Event: Decodable {
    struct Row: Decodable { let n: Int }
    let from: Int
    let steps: [Row]
    let total: Int
    let ended: Bool
  }

  private static func checkEvents(_ response: InspectorFuzzExchange.Response) {
    fuzzRequire(response.status == 200, "an event stream with status \(response.status)")
    let blocks = String(decoding: response.body, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
    fuzzRequire(!blocks.isEmpty, "an event stream without an event")
    var last: Event?
    for block in blocks {
      let lines = block.components(separatedBy: "\n")
      fuzzRequire(lines.count == 3 && lines[1] == "event: steps", "an event \(block.prefix(200))")
      let id = lines[0].hasPrefix("id: ") ? Int(lines[0].dropFirst(4)) : nil
      guard let id, lines[2].hasPrefix("data: "),
        let event = try? JSONDecoder().decode(Event.self, from: Data(lines[2].dropFirst(6).utf8))
      else { fuzzFailure("an event that does not read: \(block.prefix(200))") }
      fuzzRequire(event.from >= 0 && event.total >= 0, "an event from \(event.from) of \(event.total)")
      fuzzRequire(
        id == event.from + event.steps.count, "event id \(id) after \(event.steps.count) rows from \(event.from)")
      for (offset, row) in event.steps.enumerated() {
        fuzzRequire(row.n == event.from + offset + 1, "row \(row.n) at position \(event.from + offset)")
      }
      last = event
    }
    fuzzRequire(last?.ended == true, "the stream of an ended run did not say so")
  }
}
