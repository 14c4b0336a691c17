import Foundation

/// Kakao's Karlo text-to-image API (model 2.1): `POST {base}/v2/inference/karlo/t2i` with
/// `Authorization: KakaoAK <key>` and a JSON body; the response is
/// `{id, model_version, images: [{id, seed, image, nsfw_content_detected, nsfw_score}]}` where `image` is base64 or
/// a URL (downloaded, without the key).
///
/// ```swift
/// try KarloImageBackend.validate(request)   // throws .invalidRequest before anything is sent
/// let images = try await KarloImageBackend(configuration: configuration).generate(request)
/// ```
public struct KarloImageBackend: Sendable {
  /// The endpoint under the base URL.
  public static let path = "v2/inference/karlo/t2i"
  /// The longest prompt (and negative prompt) Karlo accepts, in characters.
  public static let maxPromptLength = 256
  /// Width and height in pixels: model 2.1 generates up to 1280 pixels a side, in steps of 8.
  public static let dimensionRange = 384...1280
  /// Width and height must be multiples of this.
  public static let dimensionStep = 8
  /// How many images one request may ask for.
  public static let sampleRange = 1...8

  /// Where and with which key to send requests.
  public let configuration: ImageGenerationConfiguration

  /// A backend sending to `configuration.baseURL`.
  public init(configuration: ImageGenerationConfiguration) {
    self.configuration = configuration
  }

  /// Checks `request` against Karlo's documented limits.
  ///
  /// - Throws: ``ImageGenerationError/invalidRequest(_:)`` naming the first broken limit.
  public static func validate(_ request: ImageGenerationRequest) throws(ImageGenerationError) {
    let prompt = request.prompt.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !prompt.isEmpty else { throw .invalidRequest("The prompt is empty.") }
    guard prompt.count <= maxPromptLength else {
      throw .invalidRequest("The prompt has \(prompt.count) characters; Karlo accepts at most \(maxPromptLength).")
    }
    let negative = request.negativePrompt.trimmingCharacters(in: .whitespacesAndNewlines)
    guard negative.count <= maxPromptLength else {
      throw .invalidRequest(
        "The negative prompt has \(negative.count) characters; Karlo accepts at most \(maxPromptLength).")
    }
    for (name, value) in [("width", request.width), ("height", request.height)] {
      guard dimensionRange.contains(value), value % dimensionStep == 0 else {
        throw .invalidRequest(
          """
          The \(name) \(value) is not supported: Karlo needs a multiple of \(dimensionStep) from \
          \(dimensionRange.lowerBound) to \(dimensionRange.upperBound) pixels.
          """)
      }
    }
    guard sampleRange.contains(request.samples) else {
      throw .invalidRequest(
        "Karlo generates \(sampleRange.lowerBound) to \(sampleRange.upperBound) images per request, not \(request.samples)."
      )
    }
    if let seeds = request.seeds, seeds.count != request.samples {
      throw .invalidRequest("Give one seed per image: \(request.samples) images, \(seeds.count) seeds.")
    }
  }

  /// Validates `request`, sends it, and returns the decoded, format-checked images.
  public func generate(_ request: ImageGenerationRequest) async throws -> [GeneratedImage] {
    try Self.validate(request)
    let http = ImageServiceHTTP(timeout: configuration.timeout, apiKey: configuration.apiKey)
    let body = try Self.body(for: request, configuration: configuration)
    let data = try await http.postJSON(
      body, to: configuration.endpoint(Self.path), authorization: "KakaoAK \(configuration.apiKey.rawValue)")
    let response: Response
    do {
      response = try JSONDecoder().decode(Response.self, from: data)
    } catch {
      throw ImageGenerationError.malformedResponse(Self.describe(error))
    }
    guard !response.images.isEmpty else {
      throw ImageGenerationError.malformedResponse("the response has no images")
    }
    var images: [GeneratedImage] = []
    for (index, item) in response.images.enumerated() {
      let (data, format) = try await GeneratedImageDecoding.image(from: item.image, index: index, http: http)
      images.append(
        GeneratedImage(
          id: item.id ?? "\(response.id ?? "karlo")-\(index)", data: data, format: format, seed: item.seed,
          nsfwContentDetected: item.nsfwContentDetected, nsfwScore: item.nsfwScore))
    }
    return images
  }

  /// The JSON body Karlo documents for `request`.
  static func body(for request: ImageGenerationRequest, configuration: ImageGenerationConfiguration) throws -> Data {
    let negative = request.negativePrompt.trimmingCharacters(in: .whitespacesAndNewlines)
    let body = Body(
      version: configuration.karloVersion,
      prompt: request.prompt.trimmingCharacters(in: .whitespacesAndNewlines),
      negativePrompt: negative.isEmpty ? nil : negative,
      width: request.width,
      height: request.height,
      samples: request.samples,
      imageFormat: "png",
      returnType: configuration.delivery == .url ? "url" : "base64_string",
      seed: request.seeds)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(body)
  }

  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _):
      return "the field \"\(key.stringValue)\" is missing"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return "the field \"\(path)\" has the wrong type"
    case DecodingError.dataCorrupted:
      return "the body is not valid JSON"
    default:
      return "the body could not be decoded"
    }
  }

  struct Body: Encodable {
    let version: String
    let prompt: String
    let negativePrompt: String?
    let width: Int
    let height: Int
    let samples: Int
    let imageFormat: String
    let returnType: String
    let seed: [UInt32]?

    enum CodingKeys: String, CodingKey {
      case version, prompt, width, height, samples, seed
      case negativePrompt = "negative_prompt"
      case imageFormat = "image_format"
      case returnType = "return_type"
    }
  }

  struct Response: Decodable {
    let id: String?
    let modelVersion: String?
    let images: [Image]

    enum CodingKeys: String, CodingKey {
      case id, images
      case modelVersion = "model_version"
    }
  }

  struct Image: Decodable {
    let id: String?
    let seed: UInt64?
    let image: String
    let nsfwContentDetected: Bool?
    let nsfwScore: Double?

    enum CodingKeys: String, CodingKey {
      case id, seed, image
      case nsfwContentDetected = "nsfw_content_detected"
      case nsfwScore = "nsfw_score"
    }
  }
}
