/// What to generate: the text, what to avoid, the size and how many images.
///
/// Each live backend validates it against its service's documented limits before anything is sent
/// (``KarloImageBackend/validate(_:)``, ``OpenAIImageBackend/validate(_:)``).
///
/// ```swift
/// let request = ImageGenerationRequest(prompt: "a lighthouse at dawn, watercolor", width: 512, height: 512, samples: 2)
/// let images = try await client.generate(request)
/// ```
public struct ImageGenerationRequest: Sendable, Hashable {
  /// The description of the image, keyword tags included.
  public var prompt: String
  /// What the image should not contain; empty for nothing.
  public var negativePrompt: String
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// How many images to generate.
  public var samples: Int
  /// Seeds for reproducible results, one per sample (Karlo only); nil lets the service choose.
  public var seeds: [UInt32]?

  /// A request for `samples` images of `width`×`height` pixels.
  public init(
    prompt: String, negativePrompt: String = "", width: Int = 512, height: Int = 512, samples: Int = 1,
    seeds: [UInt32]? = nil
  ) {
    self.prompt = prompt
    self.negativePrompt = negativePrompt
    self.width = width
    self.height = height
    self.samples = samples
    self.seeds = seeds
  }
}
