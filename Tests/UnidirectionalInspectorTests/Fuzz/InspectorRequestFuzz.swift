import Foundation
import Unidirectional

@testable import UnidirectionalInspector

/// The body of `Scripts/fuzz inspector-request`, run by the corpus test over every committed input too: the input is
/// what a browser (or anyone on the machine) sends to `demo inspect`'s server, answered by the router
/// (``InspectorRouter``, with its request parser ``HTTPRequestHead``) over a log model of a small log with a trace.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - a complete head within the server's 16 KiB gets one HTTP/1.1 answer, with a known status (never 500: the log
///   and the trace are valid), the security headers and a `Content-Length` that is the body's;
/// - a 200 only for a `GET` naming this server in `Host` and carrying the token; a JSON answer parses as JSON.
///
/// ```swift
/// InspectorRequestFuzz.fuzz(Data("GET /api/steps?from=9223372036854775807&token=… HTTP/1.1\r\n…".utf8))
/// ```
enum InspectorRequestFuzz {
  /// A router over a log of six steps and its trace, made once per process.
  static let router: InspectorRouter = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-request-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let log = folder.appendingPathComponent("counter.jsonl")
    let trace = folder.appendingPathComponent("counter.trace.json")
    let header = #"{"format":"unidirectional-action-log","version":1,"feature":"InspectedCounter","#
    let lines = [
      header + #""initialState":{"count":0,"isRunning":false,"target":3}}"#,
      #"{"seq":1,"origin":"sent","time":0,"action":{"start":{}}}"#,
      #"{"seq":2,"origin":"received","time":0.1,"action":{"tick":{}}}"#,
      #"{"seq":3,"origin":"received","time":0.2,"action":{"tick":{}}}"#,
      #"{"seq":4,"origin":"sent","time":0.3,"action":{"add":{"_0":-2}}}"#,
      #"{"seq":5,"origin":"sent","time":0.4,"action":{"note":{"text":"<b>\"x\"</b>","detail":{"plain":{}}}}}"#,
      #"{"seq":6,"origin":"received","time":0.5,"action":{"tick":{}}}"#,
    ]
    let events = [
      #"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"InspectedCounter store"}}"#,
      #"{"name":".start","cat":"action","ph":"X","ts":1,"dur":1,"pid":1,"tid":0,"args":{"sequence":1}}"#,
      #"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"effect 1 · .start"}}"#,
      #"{"name":".tick","cat":"action","ph":"X","ts":2,"dur":1,"pid":1,"tid":0,"args":{"sequence":2,"effect":1}}"#,
      #"{"name":"effect 1","cat":"effect","ph":"X","ts":1,"dur":3,"pid":1,"tid":1,"args":{"startedBy":1}}"#,
    ]
    guard FileManager.default.createFile(atPath: log.path, contents: Data(lines.joined(separator: "\n").utf8)),
      FileManager.default.createFile(
        atPath: trace.path, contents: Data(("[" + events.joined(separator: ",") + "]").utf8))
    else { fuzzFailure("cannot write the fixture log in \(folder.path)") }
    do {
      let model = try InspectorLogModel(
        contentsOf: log, reducer: InspectedCounter(tickSize: 2), recordedReducer: InspectedCounter(), trace: trace)
      return InspectorRouter(model: model, token: InspectorFuzzExchange.token, port: InspectorFuzzExchange.port)
    } catch {
      fuzzFailure("the fixture log does not open: \(error)")
    }
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
    }
  }
}
