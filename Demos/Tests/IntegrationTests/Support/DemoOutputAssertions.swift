import XCTest

extension XCTestCase {
  /// Asserts that, for each prefix in order, a later line of the demo's output starts with it.
  func assertLinesInOrder(
    _ result: DemoProcess.Result, _ prefixes: [String], file: StaticString = #filePath, line: UInt = #line
  ) {
    var index = 0
    for prefix in prefixes {
      guard let found = result.lines[index...].firstIndex(where: { $0.hasPrefix(prefix) }) else {
        return XCTFail(
          "no line starting with \(prefix.debugDescription) after line \(index) in:\n\(result.output)", file: file,
          line: line)
      }
      index = found + 1
    }
  }
}
