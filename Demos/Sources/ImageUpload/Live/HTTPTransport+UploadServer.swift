import Foundation
import HTTPClient

extension HTTPTransport {
  /// The transport for the API server in `configuration`: its timeouts, engine choice, one pooled connection per
  /// upload in flight, and the token redacted from whatever a server says.
  convenience init(configuration: UploadServerConfiguration, stagingDirectory: URL? = nil) {
    self.init(
      HTTPTransport.Configuration(
        requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout,
        engine: configuration.transport, connections: .pooled(maxPerHost: configuration.maxConcurrentUploads),
        stagingDirectory: stagingDirectory ?? FileManager.default.temporaryDirectory,
        redactor: configuration.token.redactor))
  }
}
