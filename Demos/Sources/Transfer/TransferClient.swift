import Foundation
import HTTPClient
import Unidirectional

/// Uploads one file resumably for ``TransferFeature``: the feature knows only this interface.
///
/// Cancelling the task that runs ``upload`` pauses: the server keeps what it has, and calling ``upload`` again
/// with the `ResumableUploadResource` from `ResumableUploadEvent.created(_:)` sends only the rest. Events are
/// never reported after ``upload`` returned or threw. Errors are `ResumableUploadError`s.
///
/// ```swift
/// let store = Store(initialState: TransferFeature.State(file: file, fileSize: size)) {
///   TransferFeature()
/// } withDependencies: {
///   $0.transferClient = .resumable(ResumableUploadConfiguration(endpoint: api, token: token))
/// }
///
/// // In a test:
/// $0.transferClient.upload = { _, _, events in events(.progress(…)); return receipt }
/// ```
public struct TransferClient: Sendable {
  /// Receives what the upload reports.
  public typealias Events = @Sendable (ResumableUploadEvent) -> Void

  /// Uploads `file`, continuing the upload at `resource` when given.
  public var upload:
    @Sendable (_ file: ResumableUploadFile, _ resource: ResumableUploadResource?, _ events: @escaping Events)
      async throws -> ResumableUploadReceipt
  /// Deletes the upload at `resource` on the server.
  public var cancel: @Sendable (_ resource: ResumableUploadResource) async throws -> Void

  /// A client that uploads with `upload` and deletes with `cancel`.
  public init(
    upload:
      @escaping @Sendable (ResumableUploadFile, ResumableUploadResource?, @escaping Events) async throws ->
      ResumableUploadReceipt,
    cancel: @escaping @Sendable (ResumableUploadResource) async throws -> Void
  ) {
    self.upload = upload
    self.cancel = cancel
  }

  /// Fails the test that calls it: tests must say what the transfer does.
  public static let unimplemented = TransferClient(
    upload: { _, _, _ in
      reportIssue("TransferClient.upload is unimplemented: override \\.transferClient in this test.")
      throw ResumableUploadError.http(.notConfigured("TransferClient.upload is unimplemented in tests"))
    },
    cancel: { _ in
      reportIssue("TransferClient.cancel is unimplemented: override \\.transferClient in this test.")
    })

  /// Pretends to upload: announces a resource, then 10 steps of 100 ms on the injected clock (continuing from
  /// the resource's last step after a pause), then a receipt. For previews and demos without a server.
  public static let preview = TransferClient(
    upload: { file, resource, events in
      @Dependency(\.clock) var clock
      let size = (try? UploadFile.byteCount(of: file.url)) ?? 1_000_000
      let resource =
        resource
        ?? ResumableUploadResource(
          url: URL(fileURLWithPath: "/preview/upload"), interopVersion: 8, fileSize: size)
      events(.created(resource))
      for step in 1...10 {
        try await clock.sleep(for: .milliseconds(100))
        events(.progress(UploadProgress(completedBytes: (size * Int64(step) + 9) / 10, totalBytes: size)))
      }
      return ResumableUploadReceipt(
        mode: .resumable(interopVersion: 8), status: 201, body: Data(), fileID: "preview", sha256: nil, size: size,
        bytesSent: size, resumptions: 0)
    },
    cancel: { _ in })
}

private enum TransferClientKey: DependencyKey {
  static let liveValue = TransferClient.unconfigured
  static let previewValue = TransferClient.preview
  static let testValue = TransferClient.unimplemented
}

extension TransferClient {
  /// Fails every transfer with ``HTTPError/notConfigured(_:)``: a host sets `\.transferClient` to
  /// ``resumable(_:)`` with its server.
  static let unconfigured = TransferClient(
    upload: { _, _, _ in
      throw ResumableUploadError.http(
        .notConfigured("set \\.transferClient to TransferClient.resumable(configuration)"))
    },
    cancel: { _ in })
}

extension DependencyValues {
  /// Uploads files resumably for ``TransferFeature``: set it to ``TransferClient/resumable(_:)`` live; in
  /// previews simulated; in tests unimplemented until overridden.
  public var transferClient: TransferClient {
    get { self[TransferClientKey.self] }
    set { self[TransferClientKey.self] = newValue }
  }
}
