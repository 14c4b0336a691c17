import Foundation
import LocalFiles

/// Which live service the image generation client talks to, where, and with which key.
///
/// Keys come from the environment or a git-ignored config file, never from code:
///
/// ```swift
/// // KARLO_API_KEY in the environment, or {"KARLO_API_KEY": "…"} in ./.unidirectional.local.json
/// // or ~/.config/unidirectional/keys.json
/// let configuration = try ImageGenerationConfiguration.load(backend: .karlo)
/// let client = ImageGenerationClient.live(configuration)
/// ```
public struct ImageGenerationConfiguration: Sendable {
  /// A live service.
  ///
  /// ```swift
  /// let backend = ImageGenerationConfiguration.Backend(rawValue: "openai")   // .openAI
  /// backend?.apiKeyVariable                                                  // "OPENAI_API_KEY"
  /// ```
  public enum Backend: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Kakao's Karlo: `POST {base}/v2/inference/karlo/t2i`, `Authorization: KakaoAK <key>`.
    case karlo
    /// The widely used `POST {base}/v1/images/generations` shape, `Authorization: Bearer <key>`.
    case openAI = "openai"

    /// The environment variable (and config file entry) holding the key.
    public var apiKeyVariable: String {
      switch self {
      case .karlo: "KARLO_API_KEY"
      case .openAI: "OPENAI_API_KEY"
      }
    }

    /// The environment variable (and config file entry) that can override the base URL.
    public var baseURLVariable: String {
      switch self {
      case .karlo: "KARLO_BASE_URL"
      case .openAI: "OPENAI_BASE_URL"
      }
    }

    /// The service's public address.
    public var defaultBaseURL: URL {
      switch self {
      case .karlo: URL(string: "https://api.kakaobrain.com")!
      case .openAI: URL(string: "https://api.openai.com")!
      }
    }

    /// The service's name in messages.
    public var description: String {
      switch self {
      case .karlo: "Karlo"
      case .openAI: "the OpenAI-compatible service"
      }
    }
  }

  /// How the service should hand back images: inline base64, or URLs the client then downloads.
  ///
  /// ```swift
  /// var configuration = try ImageGenerationConfiguration.load(backend: .karlo)
  /// configuration.delivery = .url   // Karlo's `return_type: "url"`; the client downloads each image
  /// ```
  public enum ImageDelivery: String, Sendable, Hashable {
    /// Images inline in the JSON response (Karlo `base64_string`, OpenAI `b64_json`).
    case base64
    /// Image URLs in the response, downloaded without the API key.
    case url
  }

  /// The service.
  public var backend: Backend
  /// The scheme, host and optional path prefix the API paths are appended to.
  public var baseURL: URL
  /// The key sent in the `Authorization` header; rendered as `<redacted>`.
  public var apiKey: ImageAPIKey
  /// How long to wait for the service to start answering before failing with ``ImageGenerationError/timedOut``.
  public var timeout: Duration
  /// How images come back.
  public var delivery: ImageDelivery
  /// Karlo's `version` field.
  public var karloVersion: String
  /// The `model` field of the OpenAI-compatible request.
  public var openAIModel: String

  /// A configuration for `backend`; `baseURL` defaults to the service's public address.
  public init(
    backend: Backend,
    apiKey: ImageAPIKey,
    baseURL: URL? = nil,
    timeout: Duration = .seconds(120),
    delivery: ImageDelivery = .base64,
    karloVersion: String = "v2.1",
    openAIModel: String = "dall-e-2"
  ) {
    self.backend = backend
    self.apiKey = apiKey
    self.baseURL = baseURL ?? backend.defaultBaseURL
    self.timeout = timeout
    self.delivery = delivery
    self.karloVersion = karloVersion
    self.openAIModel = openAIModel
  }

  /// The config files read after the environment, first match wins: `./.unidirectional.local.json`, then
  /// `~/.config/unidirectional/keys.json` (`SecretSources.defaultConfigFiles`). Both are JSON objects of strings
  /// named like the environment variables.
  public static var defaultConfigFiles: [URL] { SecretSources.defaultConfigFiles }

  /// Reads the key (and an optional base URL override, and `OPENAI_IMAGE_MODEL`) for `backend` from
  /// `environment`, then from `configFiles`: the order of `SecretSources`, shared by every secret.
  ///
  /// - Throws: ``ImageGenerationError/missingAPIKey(backend:sources:)`` when no non-empty key is found,
  ///   ``ImageGenerationError/invalidConfiguration(_:)`` for an unreadable config file or a bad base URL.
  public static func load(
    backend: Backend,
    baseURL: URL? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    configFiles: [URL] = defaultConfigFiles
  ) throws(ImageGenerationError) -> Self {
    let sources = SecretSources(environment: environment, configFiles: configFiles)
    func value(_ name: String) throws(ImageGenerationError) -> String? {
      do {
        return try sources.value(for: [name])?.value
      } catch {
        throw .invalidConfiguration(error.description)
      }
    }
    guard let rawKey = try value(backend.apiKeyVariable) else {
      throw .missingAPIKey(backend: backend.description, sources: sources.places(for: [backend.apiKeyVariable]))
    }
    var resolvedBaseURL = baseURL
    if resolvedBaseURL == nil, let text = try value(backend.baseURLVariable) {
      guard let url = URL(string: text) else {
        throw .invalidConfiguration("\(backend.baseURLVariable) is not a URL")
      }
      resolvedBaseURL = url
    }
    var configuration = Self(backend: backend, apiKey: ImageAPIKey(rawKey), baseURL: resolvedBaseURL)
    if backend == .openAI, let model = try value("OPENAI_IMAGE_MODEL") { configuration.openAIModel = model }
    try configuration.validate()
    return configuration
  }

  /// Checks that the base URL is an absolute http(s) URL with a host.
  public func validate() throws(ImageGenerationError) {
    guard let scheme = baseURL.scheme?.lowercased(), scheme == "https" || scheme == "http", baseURL.host != nil else {
      throw .invalidConfiguration("the base URL must be an http or https URL with a host")
    }
    if apiKey.isEmpty {
      throw .missingAPIKey(backend: backend.description, sources: ["a non-empty \(backend.apiKeyVariable)"])
    }
  }

  /// The endpoint `path` (e.g. `v1/images/generations`) under the base URL, keeping any path prefix.
  func endpoint(_ path: String) -> URL {
    var base = baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    return URL(string: base + "/" + path) ?? baseURL.appendingPathComponent(path)
  }
}
