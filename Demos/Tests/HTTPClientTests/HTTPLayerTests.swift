import Foundation
import Unidirectional
import XCTest

@testable import HTTPClient
import FeatureTestSupport

/// The pieces of the upload HTTP layer that need no server: response parsing, the redirect policy, progress
/// coalescing, secret redaction, proxy detection.
final class HTTPLayerTests: XCTestCase {
  // MARK: Response parser

  private func parse(_ text: String, method: String = "PUT", atEnd: Bool = false, max: Int = 1 << 20) throws -> (
    HTTPResponseParser, HTTPResponseParser.Body
  ) {
    var parser = HTTPResponseParser(requestMethod: method, maxBodyBytes: max)
    try parser.consume(Data(text.utf8))
    return (parser, try parser.body(atEndOfStream: atEnd))
  }

  func testAResponseWithAContentLengthIsCompleteWhenItsBodyIs() throws {
    var parser = HTTPResponseParser(requestMethod: "POST", maxBodyBytes: 100)
    try parser.consume(
      Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 11\r\n\r\n{\"a\":".utf8))
    XCTAssertEqual(parser.finalHead?.status, 200)
    XCTAssertEqual(parser.finalHead?.headers["Content-Length"], "11", "names are case-insensitive")
    XCTAssertEqual(try parser.body(atEndOfStream: false), .incomplete)
    try parser.consume(Data(" true}".utf8))
    XCTAssertEqual(try parser.body(atEndOfStream: false), .complete(Data("{\"a\": true}".utf8)))
  }

  func testARedirectKeepsItsLocation() throws {
    let (parser, body) = try parse(
      "HTTP/1.1 307 Temporary Redirect\r\ndate: Mon\r\nserver: uvicorn\r\nlocation: http://127.0.0.1:9/x?a=1\r\n"
        + "content-length: 0\r\n\r\n")
    XCTAssertEqual(parser.finalHead?.status, 307)
    XCTAssertEqual(parser.finalHead?.headers["Location"], "http://127.0.0.1:9/x?a=1")
    XCTAssertEqual(body, .complete(Data()))
  }

  func testInterimResponsesAreKeptAndTheFinalOneFollows() throws {
    let (parser, body) = try parse(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 104 Upload Resumption Supported\r\nLocation: /u/1\r\n\r\n"
        + "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
    XCTAssertEqual(parser.informational.map(\.status), [100, 104])
    XCTAssertEqual(parser.informational.last?.headers["location"], "/u/1")
    XCTAssertEqual(parser.finalHead?.status, 201)
    XCTAssertEqual(body, .complete(Data("ok".utf8)))
  }

  func testAChunkedBodyIsDecodedIncludingExtensionsAndTrailers() throws {
    let chunked =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n"
    XCTAssertEqual(try parse(chunked).1, .complete(Data("Wikipedia".utf8)))
    XCTAssertEqual(try parse(String(chunked.dropLast(2))).1, .incomplete, "the trailer section is not finished")
    XCTAssertThrowsError(try parse(String(chunked.dropLast(2)), atEnd: true), "the stream ended early")
    XCTAssertThrowsError(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))
  }

  /// A chunk size is hex digits only. `Int(_:radix: 16)` also takes a sign: "-1" made the decoder's index arithmetic
  /// trap (SIGILL, the whole client process), "+1" and "-0" passed as sizes.
  func testASignedChunkSizeIsATypedErrorNotATrap() {
    for size in ["-1", "+1", "-0", "+0", " -1", "-7fffffffffffff"] {
      let response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n"
      XCTAssertThrowsError(try parse(response), size.debugDescription) { error in
        XCTAssertEqual(error as? HTTPError, .invalidResponse("an invalid chunk size"), size.debugDescription)
      }
    }
  }

  /// A head arriving a byte at a time is searched for its end once, not from its start after every read (which
  /// is quadratic up to the 64 KiB head limit); every way of cutting a head still finds its end.
  func testAHeadReadAByteAtATimeIsSearchedOnce() throws {
    let head =
      "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Padding: abcdefghijklmnopqrstuvwxyz\r\n", count: 200) + "\r\n"
    var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 100)
    for byte in Data((head + "ok").utf8) { try parser.consume(Data([byte])) }
    XCTAssertEqual(parser.finalHead?.status, 200)
    XCTAssertEqual(try parser.body(atEndOfStream: true), .complete(Data("ok".utf8)))
    XCTAssertLessThanOrEqual(parser.headBytesScanned, 3 * head.utf8.count, "each byte about once (\(head.utf8.count))")

    for response in ["HTTP/1.1 204 No Content\r\nA: b\r\n\r\n", "HTTP/1.1 204 No Content\nA: b\n\n"] {
      let bytes = Data(response.utf8)
      for cut in 0...bytes.count {
        for second in cut...bytes.count {
          var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 100)
          try parser.consume(bytes[0..<cut])
          try parser.consume(bytes[cut..<second])
          XCTAssertEqual(parser.finalHead == nil, second < bytes.count, "\(response.debugDescription) \(cut) \(second)")
          try parser.consume(bytes[second...])
          XCTAssertEqual(parser.finalHead?.headers["A"], "b", "\(response.debugDescription) cut at \(cut), \(second)")
        }
      }
    }
  }

  func testABodyUntilTheConnectionClosesAndBodilessResponses() throws {
    XCTAssertEqual(try parse("HTTP/1.0 200 OK\r\n\r\nabc").1, .incomplete)
    XCTAssertEqual(try parse("HTTP/1.0 200 OK\r\n\r\nabc", atEnd: true).1, .complete(Data("abc".utf8)))
    XCTAssertEqual(try parse("HTTP/1.1 204 No Content\r\n\r\n").1, .complete(Data()))
    XCTAssertEqual(try parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", method: "HEAD").1, .complete(Data()))
    XCTAssertEqual(try parse("HTTP/1.1 200 OK\nContent-Length: 2\n\nhi").1, .complete(Data("hi".utf8)), "bare LF")
  }

  func testMalformedOrOversizedResponsesAreTypedErrors() {
    for bad in [
      "HTTP/2 200 OK\r\n\r\n", "HTP/1.1 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n",
      "HTTP/1.1 200 OK\r\n folded: no\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 101 Switching Protocols\r\n\r\n",
    ] {
      XCTAssertThrowsError(try parse(bad), bad.debugDescription) { XCTAssertTrue($0 is HTTPError) }
    }
    XCTAssertThrowsError(try parse("HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n", max: 100))
    XCTAssertThrowsError(try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", atEnd: true))
    XCTAssertThrowsError(try parse("HTTP/1.1 200 OK\r\n" + String(repeating: "A: b\r\n", count: 12_000)))
    XCTAssertThrowsError(try parse("", atEnd: true), "closed before any response")
  }

  /// Found by `Scripts/fuzz http-response`: a body framed by the connection's end was let through up to 64 KiB past
  /// the limit (the slack chunk framing gets), so the socket engine kept up to 8 MiB + 64 KiB of such a body.
  func testABodyUntilTheConnectionClosesIsHeldToTheLimitExactly() throws {
    let head = "HTTP/1.0 200 OK\r\n\r\n"
    XCTAssertEqual(
      try parse(head + String(repeating: "a", count: 100), atEnd: true, max: 100).1,
      .complete(Data(String(repeating: "a", count: 100).utf8)))
    XCTAssertThrowsError(try parse(head + String(repeating: "a", count: 101), atEnd: true, max: 100)) {
      XCTAssertEqual($0 as? HTTPError, .invalidResponse("the response body is larger than 100 bytes"))
    }
    var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 100)
    try parser.consume(Data(head.utf8))
    for _ in 0..<10 { try parser.consume(Data(String(repeating: "a", count: 10).utf8)) }
    XCTAssertThrowsError(try parser.consume(Data("a".utf8)), "read by read, the 101st byte")
  }

  // MARK: Redirect policy

  private let api = URL(string: "http://127.0.0.1:8000/upload-model")!

  private func request(_ url: URL, method: String = "POST") -> HTTPRequest {
    HTTPRequest(
      method: method, url: url, headers: [("Authorization", "Bearer t"), ("Content-Type", "x")],
      body: .bytes(Data("body".utf8)))
  }

  func testTheSameOriginPolicyFollows307And308WithinTheOriginWithTheWholeRequest() throws {
    let original = request(api)
    for status in [307, 308] {
      let next = try XCTUnwrap(
        RedirectPolicy.sameOrigin.follow(
          status: status, location: "/v2/upload?x=1", after: original, original: original, redirects: 0))
      XCTAssertEqual(next.url.absoluteString, "http://127.0.0.1:8000/v2/upload?x=1")
      XCTAssertEqual(next.method, "POST")
      XCTAssertEqual(next.header("authorization"), "Bearer t")
      XCTAssertEqual(next.body.parts, original.body.parts, "the whole body again")
    }
    XCTAssertNil(
      try RedirectPolicy.sameOrigin.follow(
        status: 200, location: "/x", after: original, original: original, redirects: 0))
    XCTAssertNil(
      try RedirectPolicy.sameOrigin.follow(
        status: 307, location: nil, after: original, original: original, redirects: 0))
  }

  func testTheSameOriginPolicyRefusesAnotherSchemeHostOrPort() {
    let original = request(api)
    for location in [
      "http://127.0.0.1:8001/upload-model", "http://localhost:8000/upload-model", "https://127.0.0.1:8000/",
    ] {
      XCTAssertThrowsError(
        try RedirectPolicy.sameOrigin.follow(
          status: 307, location: location, after: original, original: original, redirects: 0)
      ) { error in
        guard case let .redirectRefused(307, from, _, reason)? = error as? HTTPError else {
          return XCTFail("\(error)")
        }
        XCTAssertEqual(from, "127.0.0.1:8000")
        XCTAssertEqual(reason, "another origin would receive the credentials and the file")
      }
    }
  }

  func testTheAnyOriginPolicyDropsCredentialsAcrossOriginsAndNeverDowngradesToHTTP() throws {
    let storage = URL(string: "https://bucket.s3.amazonaws.com/key?X-Amz-Signature=abc")!
    let original = request(storage, method: "PUT")
    let next = try XCTUnwrap(
      RedirectPolicy.anyOrigin.follow(
        status: 307, location: "https://bucket.s3.eu-west-1.amazonaws.com/key?X-Amz-Signature=def", after: original,
        original: original, redirects: 0))
    XCTAssertEqual(next.method, "PUT")
    XCTAssertNil(next.header("Authorization"), "never to another origin")
    XCTAssertEqual(next.header("Content-Type"), "x")
    XCTAssertThrowsError(
      try RedirectPolicy.anyOrigin.follow(
        status: 307, location: "http://bucket.example/key", after: original, original: original, redirects: 0)
    ) {
      XCTAssertEqual(
        $0 as? HTTPError,
        .redirectRefused(
          status: 307, from: "bucket.s3.amazonaws.com", to: "bucket.example",
          reason: "it leads from https to plain http"))
    }
  }

  func testEveryPolicyRefuses301To303AndLongChainsAndBadLocations() {
    let original = request(api, method: "PUT")
    for status in [301, 302, 303] {
      XCTAssertThrowsError(
        try RedirectPolicy.anyOrigin.follow(
          status: status, location: "/x", after: original, original: original, redirects: 0)
      ) {
        XCTAssertEqual(
          $0 as? HTTPError,
          .redirectRefused(
            status: status, from: "127.0.0.1:8000", to: "127.0.0.1:8000",
            reason: "HTTP \(status) would turn the PUT into a GET without the file"))
      }
    }
    XCTAssertThrowsError(
      try RedirectPolicy.anyOrigin.follow(
        status: 308, location: "/x", after: original, original: original, redirects: 5)
    ) {
      XCTAssertEqual(
        $0 as? HTTPError,
        .redirectRefused(status: 308, from: "127.0.0.1:8000", to: "127.0.0.1:8000", reason: "more than 5 redirects"))
    }
    XCTAssertThrowsError(
      try RedirectPolicy.anyOrigin.follow(
        status: 307, location: "ftp://example.com/x", after: original, original: original, redirects: 0))
  }

  /// Found by `Scripts/fuzz redirect`: a location that resolves to an http(s) URL with an empty host (`//*@`,
  /// `http://@/x`) passed the policies' "has a host" check, so a download followed it to no server at all.
  func testALocationWithAnEmptyHostIsNoRedirectTarget() {
    let download = request(URL(string: "http://127.0.0.1/upload")!, method: "GET")
    for location in ["//*@", "http://@/x", "https://@:443/", "http://user:pw@/"] {
      XCTAssertNil(
        try RedirectPolicy.download.follow(
          status: 301, location: location, after: download, original: download, redirects: 0),
        location)
      let upload = request(api, method: "PUT")
      XCTAssertThrowsError(
        try RedirectPolicy.anyOrigin.follow(
          status: 307, location: location, after: upload, original: upload, redirects: 0), location
      ) {
        XCTAssertEqual(
          $0 as? HTTPError,
          .redirectRefused(
            status: 307, from: "127.0.0.1:8000", to: "an invalid location",
            reason: "the location is not an http(s) URL"))
      }
      XCTAssertNil(
        ResumableUploadRun.location(in: HTTPHeaderFields([("Location", location)]), relativeTo: api), location)
    }
  }

  // MARK: Progress, secrets, proxies

  func testProgressIsCoalescedToAboutOneReportPerPercent() {
    let reports = Recorder<Int64>()
    let throttle = ProgressThrottle(total: 10_000) { reports.append($0) }
    for sent in stride(from: Int64(0), through: 10_000, by: 7) { throttle.sent(sent) }
    throttle.sent(10_000)
    throttle.sent(10_000)
    XCTAssertEqual(reports.values.first, 0, "a request's start is reported (a restart shows)")
    XCTAssertEqual(reports.values.last, 10_000, "the end is reported once")
    XCTAssertEqual(reports.values.filter { $0 == 10_000 }.count, 1)
    XCTAssertLessThanOrEqual(reports.values.count, 102)
    XCTAssertEqual(reports.values, reports.values.sorted())
  }

  func testSecretsAreRedactedBeforeTextIsCutOrShown() {
    let token = "tok/en+with=special"
    let redactor = SecretRedactor(secrets: [token, ""])
    XCTAssertEqual(redactor.redact("a \(token) b"), "a <redacted> b")
    XCTAssertEqual(redactor.redact("q=tok%2Fen%2Bwith%3Dspecial"), "q=<redacted>", "percent-encoded")
    XCTAssertEqual(redactor.redact(#"{"t":"tok\/en+with=special"}"#), #"{"t":"<redacted>"}"#, "JSON-escaped")
    XCTAssertEqual(
      redactor.serverText("tok\u{7}/en+with=special\u{1B}"), "<redacted>", "a control character hides nothing")
    let long = String(repeating: "x", count: 295) + token
    XCTAssertEqual(redactor.serverText(long), String(repeating: "x", count: 295) + "<reda…")
    XCTAssertEqual(SecretRedactor.none.serverText("  plain  "), "plain")
  }

  /// `--token x` once turned a server's `<img src=x …>` into `<img src=<redacted> …>`: only values of at least
  /// ``SecretRedactor/minimumLength`` characters are secrets to redact; shorter ones leave the text as it was.
  func testOnlyValuesLongEnoughToBeSecretsAreRedactedSoAShortTokenNeverGarblesAMessage() {
    let message = #"<img src=x onerror="a(1)"> refused: token x is not valid"#
    XCTAssertEqual(SecretRedactor(secrets: ["x"]).serverText(message), message)
    XCTAssertEqual(SecretRedactor(secrets: ["1234567"]).redact("order 1234567 failed"), "order 1234567 failed")
    XCTAssertEqual(SecretRedactor(secrets: ["12345678"]).redact("order 12345678 failed"), "order <redacted> failed")
    XCTAssertEqual(SecretRedactor.minimumLength, 8)

    let transport = HTTPTransport(HTTPTransport.Configuration(redactor: BearerToken("x").redactor))
    XCTAssertEqual(
      transport.serverMessage(in: Data(#"{"message": "<img src=x alt=\"\">"}"#.utf8)), #"<img src=x alt="">"#)
    let secret = BearerToken("tok_live_9f8e7d6c").redactor
    XCTAssertEqual(secret.serverText("bad token tok_live_9f8e7d6c"), "bad token <redacted>", "a real token still is")
  }

  func testRequestsGoThroughAProxyOnlyWhenTheEnvironmentSaysSo() {
    XCTAssertFalse(HTTPTransport.proxyApplies(to: "127.0.0.1", environment: [:]))
    let proxied = ["http_proxy": "http://proxy:3128"]
    XCTAssertTrue(HTTPTransport.proxyApplies(to: "lan.example", environment: proxied))
    XCTAssertFalse(
      HTTPTransport.proxyApplies(to: "127.0.0.1", environment: proxied.merging(["NO_PROXY": "127.0.0.1"]) { $1 }))
    XCTAssertFalse(
      HTTPTransport.proxyApplies(to: "a.lan.example", environment: proxied.merging(["no_proxy": ".lan.example"]) { $1 })
    )
    XCTAssertFalse(HTTPTransport.proxyApplies(to: "x", environment: ["ALL_PROXY": "p", "no_proxy": "*"]))
    XCTAssertFalse(HTTPTransport.proxyApplies(to: "x", environment: ["http_proxy": " "]))
  }
}
