import Foundation

/// Answers one connection of an ``InspectorServer``: checks the `Host` header and the token, then serves the page,
/// its scripts and style, one JSON answer of the model (`/api/info`, `/api/steps`, `/api/step`, `/api/effects`), or
/// the live event stream.
///
/// ```swift
/// let router = InspectorRouter(model: model, token: token, port: 8123)
/// router.serve(connection)        // on the connection's own thread
/// ```
struct InspectorRouter: Sendable {
  let model: any InspectorModel
  let token: String
  let port: UInt16

  /// The most rows one `/api/steps` or `/api/effects` answer carries.
  static let pageLimit = 500

  /// Headers on every answer: nothing the page loads may come from elsewhere or run inline, nothing is cached.
  static let securityHeaders: [(String, String)] = [
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
  ]

  func serve(_ connection: HTTPConnection) {
    defer { connection.close() }
    guard let bytes = connection.readHead() else { return }
    guard let request = HTTPRequestHead(bytes) else {
      return fail(connection, 400, "Bad Request", "not an HTTP/1.1 request head")
    }
    guard isThisServer(request.headers["host"]) else {
      return fail(connection, 421, "Misdirected Request", "the Host header must name this server")
    }
    guard request.method == "GET" else { return fail(connection, 405, "Method Not Allowed", "only GET") }
    guard let given = request.query["token"], Self.equalInConstantTime(given, token) else {
      return fail(connection, 403, "Forbidden", "a valid ?token= is required (it is printed with the URL)")
    }
    switch request.path {
    case "/":
      send(connection, "text/html; charset=utf-8", Array(InspectorPage.html(token: token).utf8))
    case "/inspector.js":
      send(connection, "text/javascript; charset=utf-8", Array(InspectorScript.source.utf8))
    case "/inspector-timeline.js":
      send(connection, "text/javascript; charset=utf-8", Array(InspectorTimelineScript.source.utf8))
    case "/inspector.css":
      send(connection, "text/css; charset=utf-8", Array(InspectorStyle.source.utf8))
    case "/api/info":
      sendJSON(connection, model.info())
    case "/api/steps":
      let from = max(0, request.query["from"].flatMap { Int($0) } ?? 0)
      let count = min(Self.pageLimit, max(0, request.query["count"].flatMap { Int($0) } ?? 100))
      let filter = request.query["filter"].flatMap { $0.isEmpty ? nil : $0 }
      do {
        sendJSON(connection, try model.steps(from: from, count: count, filter: filter))
      } catch {
        fail(connection, 500, "Internal Server Error", error.description)
      }
    case "/api/step":
      guard let number = request.query["n"].flatMap({ Int($0) }), number >= 0 else {
        return fail(connection, 400, "Bad Request", "n must be a step number")
      }
      do {
        sendJSON(connection, try model.step(number))
      } catch InspectorError.noSuchStep(let number) {
        fail(connection, 404, "Not Found", InspectorError.noSuchStep(number).description)
      } catch {
        fail(connection, 500, "Internal Server Error", error.description)
      }
    case "/api/effects":
      serveEffects(connection, request)
    case "/api/events":
      guard let live = model.live else { return fail(connection, 404, "Not Found", "not a live run") }
      let resume = request.headers["last-event-id"].flatMap { Int($0) }
      InspectorEventStream(live: live, connection: connection)
        .run(after: resume ?? request.query["after"].flatMap { Int($0) } ?? 0)
    default:
      fail(connection, 404, "Not Found", "no such page")
    }
  }

  /// `/api/effects?from=A&to=B[&offset=K&count=C]`: the effects running at some step from A to B, a page at a time.
  private func serveEffects(_ connection: HTTPConnection, _ request: HTTPRequestHead) {
    guard let first = request.query["from"].flatMap({ Int($0) }), let last = request.query["to"].flatMap({ Int($0) }),
      first >= 0, first <= last
    else {
      return fail(connection, 400, "Bad Request", "from and to must be step numbers, from <= to")
    }
    let offset = max(0, request.query["offset"].flatMap { Int($0) } ?? 0)
    let count = min(Self.pageLimit, max(0, request.query["count"].flatMap { Int($0) } ?? 200))
    do {
      sendJSON(connection, try model.effects(from: first, to: last, offset: offset, count: count))
    } catch InspectorError.noTimeline {
      fail(connection, 404, "Not Found", InspectorError.noTimeline.description)
    } catch {
      fail(connection, 500, "Internal Server Error", error.description)
    }
  }

  /// Whether `host` names this server: 127.0.0.1 or localhost, with its port.
  private func isThisServer(_ host: String?) -> Bool {
    guard let host = host?.lowercased() else { return false }
    return host == "127.0.0.1:\(port)" || host == "localhost:\(port)"
  }

  private func send(_ connection: HTTPConnection, _ type: String, _ body: [UInt8]) {
    connection.respond(
      status: 200, reason: "OK", headers: [("Content-Type", type)] + Self.securityHeaders, body: body)
  }

  private func sendJSON(_ connection: HTTPConnection, _ value: some Encodable) {
    do {
      send(connection, "application/json", Array(try JSONEncoder().encode(value)))
    } catch {
      fail(connection, 500, "Internal Server Error", "cannot encode the answer: \(error)")
    }
  }

  private func fail(_ connection: HTTPConnection, _ status: Int, _ reason: String, _ message: String) {
    connection.respond(
      status: status, reason: reason,
      headers: [("Content-Type", "text/plain; charset=utf-8")] + Self.securityHeaders,
      body: Array((message + "\n").utf8))
  }

  /// Compares every byte, so the time taken does not tell how much of a guessed token was right.
  static func equalInConstantTime(_ given: String, _ expected: String) -> Bool {
    let given = Array(given.utf8)
    let expected = Array(expected.utf8)
    guard given.count == expected.count else { return false }
    var difference: UInt8 = 0
    for index in given.indices { difference |= given[index] ^ expected[index] }
    return difference == 0
  }
}
