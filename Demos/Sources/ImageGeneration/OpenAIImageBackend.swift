import Foundation

/// The widely used OpenAI-compatible images API: `POST {base}/v1/images/generations` with
/// `Authorization: Bearer <key>` and `{model, prompt, n, size, response_format}`; the response is
/// `{created, data: [{b64_json | url}]}`.
///
/// The API has no negative prompt: a non-empty one is appended to the prompt as `Avoid: …`.
///
/// ```swift
/// let backend = OpenAIImageBackend(configuration: .init(backend: .openAI, apiKey: key, baseURL: base))
/// let images = try await backend.generate(ImageGenerationRequest(prompt: "a red kite", width: 512, height: 512))
/// ```
public struct OpenAIImageBackend: Sendable {
  /// The endpoint under the base URL.
  public static let path = "v1/images/generations"
  /// The longest prompt accepted, in characters (the documented limit of dall-e-3; dall-e-2 allows 1000).
  public static let maxPromptLength = 4_000
  /// How many images one request may ask for.
  public static let sampleRange = 1...10
  /// Width and height in pixels.
  public static let dimensionRange = 64...4_096

  /// Where and with which key to send requests.
  public let configuration: ImageGenerationConfiguration

  /// A backend sending to `configuration.baseURL`.
  public init(configuration: ImageGenerationConfiguration) {
    self.configuration = configuration
  }

  /// Checks `request` against the API's limits.
  ///
  /// - Throws: ``ImageGenerationError/invalidRequest(_:)`` naming the first broken limit.
  public static func validate(_ request: ImageGenerationRequest) throws(ImageGenerationError) {
    let prompt = Self.prompt(for: request)
    guard !request.prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw .invalidRequest("The prompt is empty.")
    }
    guard prompt.count <= maxPromptLength else {
      throw .invalidRequest("The prompt has \(prompt.count) characters; the API accepts at most \(maxPromptLength).")
    }
    guard dimensionRange.contains(request.width), dimensionRange.contains(request.height) else {
      throw .invalidRequest(
        """
        The size \(request.width)x\(request.height) is not supported: width and height must be from \
        \(dimensionRange.lowerBound) to \(dimensionRange.upperBound) pixels.
        """)
    }
    guard sampleRange.contains(request.samples) else {
      throw .invalidRequest(
        "The API generates \(sampleRange.lowerBound) to \(sampleRange.upperBound) images per request, not \(request.samples)."
      )
    }
  }

  /// Validates `request`, sends it, and returns the decoded, format-checked images.
  public func generate(_ request: ImageGenerationRequest) async throws -> [GeneratedImage] {
    try Self.validate(request)
    let http = ImageServiceHTTP(timeout: configuration.timeout, apiKey: configuration.apiKey)
    let body = try Self.body(for: request, configuration: configuration)
    let data = try await http.postJSON(
      body, to: configuration.endpoint(Self.path), authorization: "Bearer \(configuration.apiKey.rawValue)")
    let response: Response
    do {
      response = try JSONDecoder().decode(Response.self, from: data)
    } catch {
      throw ImageGenerationError.malformedResponse(KarloImageBackend.describe(error))
    }
    guard !response.data.isEmpty else {
      throw ImageGenerationError.malformedResponse("the response has no images")
    }
    var images: [GeneratedImage] = []
    for (index, item) in response.data.enumerated() {
      guard let field = item.b64JSON ?? item.url else {
        throw ImageGenerationError.malformedResponse("image \(index + 1) has neither \"b64_json\" nor \"url\"")
      }
      let (data, format) = try await GeneratedImageDecoding.image(from: field, index: index, http: http)
      images.append(GeneratedImage(id: "\(response.created ?? 0)-\(index)", data: data, format: format))
    }
    return images
  }

  /// The prompt sent: the request's prompt, with its negative prompt appended as `Avoid: …`.
  static func prompt(for request: ImageGenerationRequest) -> String {
    let prompt = request.prompt.trimmingCharacters(in: .whitespacesAndNewlines)
    let negative = request.negativePrompt.trimmingCharacters(in: .whitespacesAndNewlines)
    return negative.isEmpty ? prompt : "\(prompt)\nAvoid: \(negative)"
  }

  /// The JSON body for `request`.
  static func body(for request: ImageGenerationRequest, configuration: ImageGenerationConfiguration) throws -> Data {
    let body = Body(
      model: configuration.openAIModel,
      prompt: prompt(for: request),
      n: request.samples,
      size: "\(request.width)x\(request.height)",
      responseFormat: configuration.delivery == .url ? "url" : "b64_json")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(body)
  }

  struct Body: Encodable {
    let model: String
    let prompt: String
    let n: Int
    let size: String
    let responseFormat: String

    enum CodingKeys: String, CodingKey {
      case model, prompt, n, size
      case responseFormat = "response_format"
    }
  }

  struct Response: Decodable {
    let created: Int?
    let data: [Item]
  }

  struct Item: Decodable {
    let b64JSON: String?
    let url: String?

    enum CodingKeys: String, CodingKey {
      case url
      case b64JSON = "b64_json"
    }
  }
}
