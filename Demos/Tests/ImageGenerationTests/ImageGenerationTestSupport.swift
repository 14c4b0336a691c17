import Foundation
import ImageGeneration
import Images

/// A value shared between a test and the fake dependencies it installs.
final class ImageGenerationTestBox<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  var current: Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

extension GeneratedImage {
  /// A small stand-in image for reducer tests (the reducer never decodes the bytes).
  static func fixture(_ id: String, format: ImageFormat = .png) -> GeneratedImage {
    GeneratedImage(id: id, data: Data("image-\(id)".utf8), format: format, seed: 7)
  }
}

/// A folder path for reducer tests; nothing is written there (storage is faked).
let imageGenerationTestFolder = URL(fileURLWithPath: "/tmp/unidirectional-generation-tests/out")
