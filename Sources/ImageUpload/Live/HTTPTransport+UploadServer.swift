import Foundation
import HTTPTransfer

extension HTTPTransport {
  /// The transport for the API server in `configuration`: its timeouts, engine choice and token (redacted from
  /// whatever a server says).
  convenience init(configuration: UploadServerConfiguration, stagingDirectory: URL? = nil) {
    self.init(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout,
      maxConnectionsPerHost: configuration.maxConcurrentUploads, transport: configuration.transport,
      stagingDirectory: stagingDirectory ?? FileManager.default.temporaryDirectory,
      redactor: configuration.token.redactor)
  }
}
