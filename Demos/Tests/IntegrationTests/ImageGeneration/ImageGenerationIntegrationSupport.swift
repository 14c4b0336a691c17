import Features
import Foundation
import XCTest

/// Asserts that `operation` throws exactly `expected`.
func assertImageGenerationError<T>(
  _ expected: ImageGenerationError,
  file: StaticString = #filePath,
  line: UInt = #line,
  _ operation: () async throws -> T
) async {
  do {
    let value = try await operation()
    XCTFail("expected \(expected), got \(value)", file: file, line: line)
  } catch {
    XCTAssertEqual(error as? ImageGenerationError, expected, "\(error)", file: file, line: line)
  }
}

/// Width and height from a PNG's IHDR chunk, or nil when `data` is not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
  let bytes = [UInt8](data.prefix(24))
  guard bytes.count == 24, ImageFormat(detecting: data) == .png, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
    return nil
  }
  func uint32(_ at: Int) -> Int {
    Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
  }
  return (uint32(16), uint32(20))
}

/// A 127.0.0.1 port nothing listens on: bound, read back and released.
func closedLoopbackPort() throws -> Int {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw ImageAPIMockServer.Failure(description: "socket() failed") }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = 0
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
      bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
    }
  }
  guard bound else { throw ImageAPIMockServer.Failure(description: "bind() failed") }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// The JSON object `value` as a dictionary, for comparing logged request bodies.
func jsonObject(_ value: Any?) -> NSDictionary? {
  value as? NSDictionary
}
