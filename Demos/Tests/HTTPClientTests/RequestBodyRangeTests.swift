import Foundation
import XCTest

@testable import HTTPClient

/// File ranges no file has — a negative offset, an end past `Int64.max` — and bodies longer than `Int64.max`: a
/// typed error from every reader of a body, never a trap. Found by `Scripts/fuzz request-body-file`: the body's
/// length, URLSession's staging and its streamed append each trapped on one of them.
final class RequestBodyRangeTests: XCTestCase {
  private var file: URL!

  override func setUpWithError() throws {
    file = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString)")
    try Data("0123456789".utf8).write(to: file)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: file)
  }

  private func assertUnreadable(_ error: any Error, _ message: String, line: UInt = #line) {
    guard case .unreadableFile(file.path, _)? = error as? HTTPError else {
      return XCTFail("\(message): \(error)", line: line)
    }
  }

  func testABodyLongerThanInt64SaysInt64MaxInsteadOfTrapping() {
    let body = HTTPRequestBody([.file(file, offset: 0, length: .max), .bytes(Data("x".utf8))])
    XCTAssertEqual(body.length, .max)
    XCTAssertEqual(HTTPRequestBody([.file(file, offset: 2, length: 3), .bytes(Data("xy".utf8))]).length, 5)
  }

  func testStagingARangeNoFileHasIsATypedError() {
    let staged = FileManager.default.temporaryDirectory.appendingPathComponent("staged-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: staged) }
    for (offset, length) in [(-1, 4), (Int64.min, 1), (Int64.max, 1), (Int64.max - 2, 5)] as [(Int64, Int64)] {
      XCTAssertThrowsError(try HTTPRequestBody([.file(file, offset: offset, length: length)]).write(to: staged)) {
        assertUnreadable($0, "offset \(offset), length \(length)")
      }
    }
  }

  #if canImport(FoundationNetworking)
    func testStreamingARangeNoFileHasIsATypedError() {
      for (offset, length) in [(-1, 4), (Int64.min, 1), (Int64.max, 1), (Int64.max - 2, 5)] as [(Int64, Int64)] {
        XCTAssertThrowsError(try FileRangeInputStream(url: file, offset: offset, length: length)) {
          assertUnreadable($0, "offset \(offset), length \(length)")
        }
      }
    }
  #endif

  #if canImport(Glibc)
    func testTheSocketEngineReadingARangeNoFileHasIsATypedError() {
      for (offset, length) in [(-1, 4), (Int64.min, 1), (Int64.max, 1), (Int64.max - 2, 5)] as [(Int64, Int64)] {
        var reader = SocketBodyReader(parts: [.file(file, offset: offset, length: length)])
        defer { reader.close() }
        XCTAssertThrowsError(try reader.pending()) { assertUnreadable($0, "offset \(offset), length \(length)") }
      }
    }
  #endif
}
