import Features
import Foundation
import XCTest

/// An independent check of the preview PNGs: Python's own `zlib` verifies every chunk CRC and inflates the image
/// data, and the pixels Python reads back are compared with the gradient's corners.
final class PreviewPNGPythonCheckTests: XCTestCase {
  private static let checker = """
    import json, struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "signature"
    offset, chunks, idat = 8, [], b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, "CRC of " + kind.decode()
        chunks.append(kind.decode())
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        if kind == b"IDAT":
            idat += body
        offset += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    assert len(raw) == stride * height, "size"
    assert all(raw[row * stride] == 0 for row in range(height)), "filter"
    first = list(raw[1:4])
    last = list(raw[stride * height - 3:])
    print(json.dumps({"chunks": chunks, "width": width, "height": height, "depth": depth, "colour": colour,
                      "first": first, "last": last}))
    """

  func testPythonsZlibReadsThePreviewPNGs() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-png-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    // 300×250 needs several stored deflate blocks.
    let images = try await ImageGenerationClient.preview.generate(
      ImageGenerationRequest(prompt: "a lighthouse at dawn", width: 300, height: 250, samples: 2))
    for (index, image) in images.enumerated() {
      let file = folder.appendingPathComponent("\(index).png")
      try image.data.write(to: file)
      let output = try runPython(Self.checker, arguments: [file.path])
      let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
      XCTAssertEqual(report?["chunks"] as? [String], ["IHDR", "IDAT", "IEND"])
      XCTAssertEqual(report?["width"] as? Int, 300)
      XCTAssertEqual(report?["height"] as? Int, 250)
      XCTAssertEqual(report?["depth"] as? Int, 8)
      XCTAssertEqual(report?["colour"] as? Int, 2)
      XCTAssertNotEqual(report?["first"] as? [Int], report?["last"] as? [Int], "a gradient, not a flat colour")
    }
  }

  private func runPython(_ script: String, arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = try TestPython.required()
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, errorText)
    return String(decoding: data, as: UTF8.self)
  }
}
