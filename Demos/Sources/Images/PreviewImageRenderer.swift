import Foundation

/// Draws the preview client's images: a diagonal gradient between two colours derived from the prompt and the
/// image's index, so the same request always gives the same real PNG files and different prompts look different.
///
/// ```swift
/// let png = try PreviewImageRenderer.png(prompt: "a red kite", index: 0, width: 64, height: 64)
/// try png.write(to: URL(fileURLWithPath: "kite.png"))   // opens in any image viewer
/// ```
public enum PreviewImageRenderer {
  /// The PNG for image `index` of `prompt`.
  public static func png(prompt: String, index: Int, width: Int, height: Int) throws(PNGEncoder.Failure) -> Data {
    let (start, end) = colors(prompt: prompt, index: index)
    var pixels = [UInt8](repeating: 0, count: max(0, width) * max(0, height) * 3)
    let span = max(1, width + height - 2)
    pixels.withUnsafeMutableBufferPointer { buffer in
      var offset = 0
      for y in 0..<max(0, height) {
        for x in 0..<max(0, width) {
          let t = x + y
          for channel in 0..<3 {
            let a = Int(start[channel])
            let b = Int(end[channel])
            buffer[offset + channel] = UInt8(a + (b - a) * t / span)
          }
          offset += 3
        }
      }
    }
    return try PNGEncoder.encode(width: width, height: height, rgb: pixels)
  }

  /// The seed reported for image `index` of `prompt`: stable across runs and platforms.
  public static func seed(prompt: String, index: Int) -> UInt64 {
    hash(prompt, index) & 0xFFFF_FFFF
  }

  /// The gradient's first and last colour for image `index` of `prompt`.
  static func colors(prompt: String, index: Int) -> (start: [UInt8], end: [UInt8]) {
    let value = hash(prompt, index)
    let start = [UInt8((value >> 0) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]
    // The end colour is the start's complement nudged by more hash bits, so every gradient is visible.
    let end = start.enumerated().map { offset, component in
      UInt8(clamping: 255 - Int(component) + Int((value >> (24 + 8 * UInt64(offset))) & 0x3F) - 32)
    }
    return (start, end)
  }

  /// FNV-1a over the prompt's UTF-8 bytes and the index: deterministic, unlike `Hasher`.
  private static func hash(_ prompt: String, _ index: Int) -> UInt64 {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in prompt.utf8 + withUnsafeBytes(of: UInt64(index).littleEndian, Array.init) {
      value ^= UInt64(byte)
      value &*= 0x0000_0100_0000_01B3
    }
    return value
  }
}
