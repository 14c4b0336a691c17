import HTTPClient
import Unidirectional

extension TransferClient {
  /// `ResumableUploader` against `configuration`; its retries back off on the injected `\.clock`.
  ///
  /// ```swift
  /// $0.transferClient = .resumable(ResumableUploadConfiguration(endpoint: api, token: token))
  /// ```
  public static func resumable(_ configuration: ResumableUploadConfiguration) -> TransferClient {
    TransferClient(
      upload: { file, resource, events in
        @Dependency(\.clock) var clock
        return try await ResumableUploader(configuration: configuration, clock: clock)
          .upload(file, resuming: resource, events: events)
      },
      cancel: { resource in
        try await ResumableUploader(configuration: configuration).cancel(resource)
      })
  }
}
