import Foundation

@testable import UnidirectionalInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One request through an ``InspectorRouter`` in-process, for the inspector's request fuzz targets: the bytes are
/// written into one end of a socket pair whose writing side is then shut (the peer sent that and nothing more), the
/// router serves the other end on this thread as the server serves a connection, and whatever it answered is read
/// back whole.
///
/// Bounded: the router reads at most a 16 KiB head and stops at the end of what was sent; an event stream ends
/// because the live model it is used with has ended.
///
/// ```swift
/// let response = InspectorFuzzExchange.send(Data("GET / HTTP/1.1\r\n\r\n".utf8), to: router)
/// response?.status   // 421: no Host header
/// ```
enum InspectorFuzzExchange {
  /// What the router answered.
  struct Response {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: [UInt8]
  }

  /// The token every fuzzed router checks, and the port it answers for.
  static let token = "00112233445566778899aabbccddeeff"
  static let port: UInt16 = 8123

  /// The router's answer to `request`: `nil` when it answered nothing (no complete head), or an answer that is not
  /// an HTTP/1.1 response, as the text it was.
  static func send(_ request: Data, to router: InspectorRouter) -> Result<Response?, Unreadable> {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { fuzzFailure("socketpair: \(errno)") }
    // Room for any answer of the fuzzed models (the largest is the page's script, ~13 KB), so the router never
    // waits for this thread to read.
    var size: Int32 = 1 << 20
    for end in ends {
      _ = setsockopt(end, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      _ = setsockopt(end, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    let client = ends[0]
    defer { _ = close(client) }
    let written = request.withUnsafeBytes { bytes in
      bytes.isEmpty ? 0 : write(client, bytes.baseAddress, bytes.count)
    }
    fuzzRequire(written == request.count, "wrote \(written) of \(request.count) bytes of the request")
    _ = shutdown(client, Int32(SHUT_WR))
    router.serve(HTTPConnection(descriptor: ends[1], timeoutSeconds: 10))

    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      answer += chunk[0..<count]
    }
    guard !answer.isEmpty else { return .success(nil) }
    guard let response = parse(answer) else {
      return .failure(Unreadable(text: String(decoding: answer, as: UTF8.self)))
    }
    return .success(response)
  }

  /// An answer that is not an HTTP/1.1 response.
  struct Unreadable: Error {
    let text: String
  }

  private static func parse(_ bytes: [UInt8]) -> Response? {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator })
    else {
      return nil
    }
    let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = lines[0].split(separator: " ", maxSplits: 2)
    guard statusLine.count == 3, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
  }

  /// Checks what every answer must be: a known status, the security headers, a body as long as it says, and a 200
  /// only for a `GET` that names this server and carries the token.
  static func checkAnswer(_ response: Response, to request: Data) {
    fuzzRequire([200, 400, 403, 404, 405, 421].contains(response.status), "status \(response.status)")
    for (name, value) in InspectorRouter.securityHeaders {
      fuzzRequire(response.headers[name.lowercased()] == value, "status \(response.status) without \(name)")
    }
    if response.headers["content-type"] != "text/event-stream" {
      fuzzRequire(
        response.headers["content-length"] == String(response.body.count),
        "Content-Length \(response.headers["content-length"] ?? "none") for \(response.body.count) bytes")
    }
    guard response.status == 200 else { return }
    let text = String(decoding: request, as: UTF8.self).lowercased()
    fuzzRequire(text.hasPrefix("get "), "200 for a request that is not a GET")
    fuzzRequire((text.removingPercentEncoding ?? text).contains(token), "200 without the token")
    fuzzRequire(text.contains("127.0.0.1:\(port)") || text.contains("localhost:\(port)"), "200 for another host")
    if response.headers["content-type"] == "application/json" {
      fuzzRequire(
        (try? JSONSerialization.jsonObject(with: Data(response.body))) != nil, "a JSON answer that is not JSON")
    }
  }
}
