import Foundation
import HTTPClient
import Unidirectional

/// One large file going to the server resumably: start, pause, resume, cancel, and automatic resumption after
/// the network went away.
///
/// Flow: ``Action/startTapped`` → ``Status/uploading(_:)`` (the server's upload resource arrives as
/// `ResumableUploadEvent.created(_:)` and is kept in ``State/resource``) → ``Action/transferCompleted(_:)``.
/// ``Action/pauseTapped`` cancels the request (``Status/paused(_:)``); ``Action/resumeTapped`` continues from the
/// server's offset (``Status/resuming(offset:)`` until bytes flow again). When the client's own retries ran out
/// on a network failure, the feature waits ``autoResumeDelay`` on the injected clock and resumes by itself, at
/// most ``maxAutoResumes`` times in a row. ``Action/cancelTapped`` stops and deletes the upload on the server.
///
/// ```swift
/// let store = Store(initialState: TransferFeature.State(file: file, fileSize: size)) {
///   TransferFeature()
/// } withDependencies: {
///   $0.transferClient = .resumable(configuration)
/// }
/// store.send(.startTapped)
/// store.send(.pauseTapped)    // later: .resumeTapped
/// ```
public struct TransferFeature: Reducer {
  /// What the user sees of the transfer.
  ///
  /// ```swift
  /// TransferFeature.Status.paused(UploadProgress(completedBytes: 42, totalBytes: 100)).text   // "Paused at 42%"
  /// ```
  public enum Status: Hashable, Sendable, Codable {
    /// Not started, or cancelled.
    case idle
    /// Bytes are going out.
    case uploading(UploadProgress)
    /// The user paused; the server keeps what it has.
    case paused(UploadProgress)
    /// Continuing after a pause or an interruption: the server holds `offset` bytes (as far as is known yet).
    case resuming(offset: Int64)
    /// The network failed beyond the client's retries; the feature resumes by itself after ``autoResumeDelay``.
    case waitingToResume(UploadProgress, reason: String)
    /// The server has the whole file.
    case completed(ResumableUploadReceipt)
    /// The transfer failed, with the reason shown to the user.
    case failed(String)

    /// The text shown for this status.
    public var text: String {
      switch self {
      case .idle: return ""
      case let .uploading(progress): return "Uploading… \(progress.percent)%"
      case let .paused(progress): return "Paused at \(progress.percent)%"
      case let .resuming(offset): return "Resuming at \(offset) bytes…"
      case let .waitingToResume(progress, reason): return "\(reason) Resuming at \(progress.percent)% soon…"
      case .completed: return "✓ Upload complete!"
      case let .failed(reason): return "✗ Upload failed: \(reason)"
      }
    }
  }

  /// The feature's state.
  ///
  /// ```swift
  /// let state = TransferFeature.State(file: ResumableUploadFile(url: scan), fileSize: 50_000_000)
  /// state.canPause   // false until started
  /// ```
  public struct State: Equatable, Sendable, Codable {
    /// The file being uploaded.
    public var file: ResumableUploadFile
    /// Its size in bytes.
    public var fileSize: Int64
    /// What the user sees.
    public var status: Status
    /// The server's upload resource once announced: where a pause or an interruption continues.
    public var resource: ResumableUploadResource?
    /// The latest progress (kept while paused or waiting).
    public var progress: UploadProgress
    /// How many times the upload continued after an interruption or a pause.
    public var resumptions: Int
    /// Automatic resumptions since bytes last went through.
    public var autoResumes: Int

    /// A transfer of `file` (`fileSize` bytes), not started.
    public init(
      file: ResumableUploadFile, fileSize: Int64, status: Status = .idle, resource: ResumableUploadResource? = nil,
      resumptions: Int = 0
    ) {
      self.file = file
      self.fileSize = fileSize
      self.status = status
      self.resource = resource
      self.progress = UploadProgress(completedBytes: 0, totalBytes: fileSize)
      self.resumptions = resumptions
      self.autoResumes = 0
    }

    /// Whether a transfer is under way (uploading or resuming).
    public var isActive: Bool {
      switch status {
      case .uploading, .resuming: return true
      default: return false
      }
    }

    /// Whether ``Action/pauseTapped`` does something.
    public var canPause: Bool { isActive }

    /// Whether ``Action/resumeTapped`` does something.
    public var canResume: Bool {
      switch status {
      case .paused, .waitingToResume: return true
      case .failed: return resource != nil
      default: return false
      }
    }

    /// Whether ``Action/cancelTapped`` does something: an upload is under way, paused or waiting to resume, or
    /// failed while the server still keeps it. Not once it completed: a tap that raced the last bytes changes
    /// nothing, and the parent, told the upload completed, is not then told it was cancelled.
    public var canCancel: Bool {
      switch status {
      case .uploading, .resuming, .paused, .waitingToResume: return true
      case .failed: return resource != nil
      case .idle, .completed: return false
      }
    }

    /// The status text shown to the user (see ``Status/text``).
    public var statusText: String { status.text }
  }

  /// Everything that can happen to the feature.
  public enum Action: Equatable, Sendable {
    /// Start uploading from the beginning.
    case startTapped
    /// Stop sending; the server keeps what it has.
    case pauseTapped
    /// Continue from the server's offset.
    case resumeTapped
    /// Stop and delete the upload on the server.
    case cancelTapped
    /// The upload reported something.
    case transferEvent(ResumableUploadEvent)
    /// The server has the whole file.
    case transferCompleted(ResumableUploadReceipt)
    /// The upload failed.
    case transferFailed(ResumableUploadError)
    /// ``autoResumeDelay`` has passed after a network failure.
    case autoResumeTimerFired
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the parent is told.
    public enum Delegate: Equatable, Sendable {
      /// The upload completed.
      case completed(ResumableUploadReceipt)
      /// The upload failed for good.
      case failed(ResumableUploadError)
      /// The user cancelled.
      case cancelled
    }
  }

  /// The ids of the feature's long-running effects.
  public enum CancelID: Hashable, Sendable {
    /// The upload in flight.
    case transfer
    /// The wait before an automatic resumption.
    case autoResume
  }

  /// How long the feature waits after a network failure before it resumes by itself.
  public static let autoResumeDelay: Duration = .seconds(10)
  /// Automatic resumptions in a row (without a byte going through) before the failure stands.
  public static let maxAutoResumes = 3

  @Dependency(\.clock) var clock
  @Dependency(\.transferClient) var transferClient

  /// The feature.
  public init() {}

  /// Starting, pausing, resuming, cancelling, and resuming by itself after network failures.
  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        guard !state.isActive else { return .none }
        state.resource = nil
        state.resumptions = 0
        state.autoResumes = 0
        state.progress = UploadProgress(completedBytes: 0, totalBytes: state.fileSize)
        state.status = .uploading(state.progress)
        return .merge(.cancel(id: CancelID.autoResume), transfer(state.file, from: nil))

      case .pauseTapped:
        guard state.isActive else { return .none }
        state.status = .paused(state.progress)
        return .cancel(id: CancelID.transfer)

      case .resumeTapped:
        guard state.canResume else { return .none }
        return resume(&state)

      case .autoResumeTimerFired:
        guard case .waitingToResume = state.status else { return .none }
        state.autoResumes += 1
        return resume(&state)

      case .cancelTapped:
        guard state.canCancel else { return .none }
        let resource = state.resource
        state.resource = nil
        state.status = .idle
        state.progress = UploadProgress(completedBytes: 0, totalBytes: state.fileSize)
        let transferClient = transferClient
        return .merge(
          .cancel(id: CancelID.transfer),
          .cancel(id: CancelID.autoResume),
          .send(.delegate(.cancelled)),
          resource.map { resource in
            // Best effort: an upload the server cannot delete now expires there.
            .run { _ in try? await transferClient.cancel(resource) }
          } ?? .none
        )

      case let .transferEvent(.created(resource)):
        guard state.isActive else { return .none }
        state.resource = resource
        return .none

      case let .transferEvent(.progress(progress)):
        guard state.isActive else { return .none }
        if progress.completedBytes > state.progress.completedBytes { state.autoResumes = 0 }
        state.progress = progress
        state.status = .uploading(progress)
        return .none

      case let .transferEvent(.resuming(offset, _)):
        guard state.isActive else { return .none }
        state.resumptions += 1
        state.status = .resuming(offset: offset)
        return .none

      case .transferEvent(.plainUpload):
        // The server cannot resume: a pause will start again from the beginning.
        state.resource = nil
        return .none

      case let .transferCompleted(receipt):
        guard state.isActive else { return .none }
        state.resource = nil
        state.progress = UploadProgress(completedBytes: receipt.size, totalBytes: receipt.size)
        state.status = .completed(receipt)
        return .send(.delegate(.completed(receipt)))

      case let .transferFailed(error):
        guard state.isActive else { return .none }
        if case .uploadGone = error { state.resource = nil }
        if Self.isNetworkFailure(error), state.resource != nil, state.autoResumes < Self.maxAutoResumes {
          state.status = .waitingToResume(state.progress, reason: error.description)
          let clock = clock
          return .run { send in
            try await clock.sleep(for: Self.autoResumeDelay)
            send(.autoResumeTimerFired)
          }
          .cancellable(id: CancelID.autoResume, cancelInFlight: true)
        }
        state.status = .failed(error.description)
        return .send(.delegate(.failed(error)))

      case .delegate:
        return .none
      }
    }
  }

  /// Continues the upload at the kept resource, or starts again when there is none.
  private func resume(_ state: inout State) -> Effect<Action> {
    state.status =
      state.resource == nil ? .uploading(state.progress) : .resuming(offset: state.progress.completedBytes)
    return .merge(.cancel(id: CancelID.autoResume), transfer(state.file, from: state.resource))
  }

  private func transfer(_ file: ResumableUploadFile, from resource: ResumableUploadResource?) -> Effect<Action> {
    let transferClient = transferClient
    return .run { send in
      let receipt = try await transferClient.upload(file, resource) { event in send(.transferEvent(event)) }
      send(.transferCompleted(receipt))
    } catch: { error, send in
      send(.transferFailed(error as? ResumableUploadError ?? .http(HTTPError(error))))
    }
    .cancellable(id: CancelID.transfer, cancelInFlight: true)
  }

  /// A failure that may pass once the network is back: connection, timeout, server errors, retries used up.
  static func isNetworkFailure(_ error: ResumableUploadError) -> Bool {
    guard case let .http(failure) = error else { return false }
    if case let .attemptsFailed(_, last) = failure { return isNetworkFailure(.http(last)) }
    switch failure {
    case .connectionLost, .timedOut, .cannotConnect, .network: return true
    case let .httpStatus(status, _): return (500..<600).contains(status)
    default: return false
    }
  }
}
