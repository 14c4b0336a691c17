import Foundation

extension ImageGenerationClient {
  /// A client for the service in `configuration`: validates each request against that service's limits before
  /// sending it, then talks HTTP (see ``KarloImageBackend`` and ``OpenAIImageBackend``).
  ///
  /// ```swift
  /// let client = ImageGenerationClient.live(try .load(backend: .openAI))
  /// let images = try await client.generate(ImageGenerationRequest(prompt: "a red kite"))
  /// ```
  public static func live(_ configuration: ImageGenerationConfiguration) -> Self {
    switch configuration.backend {
    case .karlo:
      let backend = KarloImageBackend(configuration: configuration)
      return Self { request in
        try configuration.validate()
        return try await backend.generate(request)
      }
    case .openAI:
      let backend = OpenAIImageBackend(configuration: configuration)
      return Self { request in
        try configuration.validate()
        return try await backend.generate(request)
      }
    }
  }

  /// A client that reads its configuration from the environment and config files at each call: the backend named
  /// by `IMAGE_GENERATION_BACKEND` (`karlo` by default, or `openai`) and that backend's key. A missing key fails
  /// the call with ``ImageGenerationError/missingAPIKey(backend:sources:)``.
  public static func live(
    environment: @escaping @Sendable () -> [String: String] = { ProcessInfo.processInfo.environment },
    configFiles: @escaping @Sendable () -> [URL] = { ImageGenerationConfiguration.defaultConfigFiles }
  ) -> Self {
    Self { request in
      let variables = environment()
      let name =
        variables["IMAGE_GENERATION_BACKEND"]?.lowercased() ?? ImageGenerationConfiguration.Backend.karlo.rawValue
      guard let backend = ImageGenerationConfiguration.Backend(rawValue: name) else {
        throw ImageGenerationError.invalidConfiguration(
          "IMAGE_GENERATION_BACKEND must be karlo or openai, not \"\(name)\"")
      }
      let configuration = try ImageGenerationConfiguration.load(
        backend: backend, environment: variables, configFiles: configFiles())
      return try await live(configuration).generate(request)
    }
  }
}
