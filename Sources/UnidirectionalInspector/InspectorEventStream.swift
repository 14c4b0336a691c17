import Foundation

/// The live page's server-sent events: each `steps` event carries the new rows of the step list (`from`, the
/// position of the first; `total`; `dropped`; `ended`; `effects`, the effect timeline's version, and `changed`, the
/// effects that changed since the last event — or `null` when too many did, and the page asks for its window of
/// `/api/effects` again), its `id` the position after them, so a reconnecting `EventSource` resumes where it
/// stopped (`Last-Event-ID`).
///
/// It runs on its connection's own thread; a page that stops reading stalls only that thread (until the
/// connection's write timeout closes it), never the store.
///
/// ```
/// id: 3
/// event: steps
/// data: {"from":0,"steps":[{"n":1,"name":"start",…}],"total":3,"dropped":0,"ended":false,"effects":1,"changed":[…]}
/// ```
struct InspectorEventStream {
  let live: InspectorLive
  let connection: HTTPConnection

  func run(after start: Int) {
    var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
    for (name, value) in InspectorRouter.securityHeaders { head += "\(name): \(value)\r\n" }
    live.streamStarted()
    defer { live.streamEnded() }
    guard connection.write(Array((head + "\r\n").utf8)) else { return }
    var position = max(0, start)
    var sentEnd = false
    var effectsVersion = 0
    while !sentEnd {
      let batch = live.steps(after: position, effectsVersion: effectsVersion, waitingUpTo: .seconds(1))
      if batch.steps.isEmpty, !batch.ended, batch.effects == effectsVersion {
        // A comment: finds a page that went away, so its thread ends.
        guard connection.write(Array(": waiting\n\n".utf8)) else { return }
        continue
      }
      position = batch.from + batch.steps.count
      effectsVersion = batch.effects
      sentEnd = batch.ended && position >= batch.total
      var event = batch
      event.ended = sentEnd
      guard let data = try? JSONEncoder().encode(event) else { return }
      let text = "id: \(position)\nevent: steps\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"
      guard connection.write(Array(text.utf8)) else { return }
    }
  }
}
