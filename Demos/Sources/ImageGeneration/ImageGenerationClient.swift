import Foundation
import Images
import Unidirectional

/// Generates images from a prompt: the dependency the image generation feature talks to.
///
/// - `liveValue`: the backend named by `IMAGE_GENERATION_BACKEND` (`karlo`, the default, or `openai`) with its key
///   from the environment or a config file (see ``ImageGenerationConfiguration/load(backend:baseURL:environment:configFiles:)``).
/// - `previewValue`: ``preview``, real gradient PNGs computed from the prompt, instantly and offline.
/// - `testValue`: ``unimplemented``, which fails the test when called.
///
/// ```swift
/// let store = Store(initialState: ImageGenerationFeature.State(saveFolder: folder)) {
///   ImageGenerationFeature()
/// } withDependencies: {
///   $0.imageGeneration = .live(try ImageGenerationConfiguration.load(backend: .karlo))
/// }
/// ```
public struct ImageGenerationClient: Sendable {
  /// Generates the images `request` asks for; throws ``ImageGenerationError`` (or `CancellationError`).
  public var generate: @Sendable (_ request: ImageGenerationRequest) async throws -> [GeneratedImage]

  /// A client that generates with `generate`.
  public init(generate: @escaping @Sendable (_ request: ImageGenerationRequest) async throws -> [GeneratedImage]) {
    self.generate = generate
  }

  /// Reports "ImageGenerationClient.generate is unimplemented" as a test failure, then throws.
  public static let unimplemented = ImageGenerationClient { _ in
    reportIssue("ImageGenerationClient.generate is unimplemented: override \\.imageGeneration in this test.")
    throw ImageGenerationError.other("ImageGenerationClient.generate is unimplemented")
  }

  /// Deterministic, offline images: `samples` real PNGs of the requested size, a gradient whose colours depend on
  /// the prompt (see `PreviewImageRenderer`). Refuses an empty prompt, 0 or more than 8 samples, and sizes
  /// outside 1…2048 pixels, like a service would.
  public static let preview = ImageGenerationClient { request in
    let prompt = request.prompt.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !prompt.isEmpty else { throw ImageGenerationError.invalidRequest("The prompt is empty.") }
    guard (1...8).contains(request.samples) else {
      throw ImageGenerationError.invalidRequest("The preview generates 1 to 8 images, not \(request.samples).")
    }
    guard (1...2_048).contains(request.width), (1...2_048).contains(request.height) else {
      throw ImageGenerationError.invalidRequest(
        "The preview draws 1 to 2048 pixels a side, not \(request.width)x\(request.height).")
    }
    var images: [GeneratedImage] = []
    for index in 0..<request.samples {
      try Task.checkCancellation()
      let data = try PreviewImageRenderer.png(
        prompt: prompt, index: index, width: request.width, height: request.height)
      images.append(
        GeneratedImage(
          id: "preview-\(index)", data: data, format: .png,
          seed: PreviewImageRenderer.seed(prompt: prompt, index: index), nsfwContentDetected: false, nsfwScore: 0))
    }
    return images
  }
}

private enum ImageGenerationClientKey: DependencyKey {
  static let liveValue = ImageGenerationClient.live()
  static let previewValue = ImageGenerationClient.preview
  static let testValue = ImageGenerationClient.unimplemented
}

extension DependencyValues {
  /// The image generation client: live services, previews, or an unimplemented client in tests.
  public var imageGeneration: ImageGenerationClient {
    get { self[ImageGenerationClientKey.self] }
    set { self[ImageGenerationClientKey.self] = newValue }
  }
}
