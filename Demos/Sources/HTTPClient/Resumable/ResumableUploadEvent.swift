/// What a resumable upload reports while it runs (never after it returned or threw).
///
/// ```swift
/// _ = try await uploader.upload(file) { event in
///   switch event {
///   case let .created(resource): save(resource)          // needed to resume after a pause
///   case let .progress(progress): print(progress)        // monotonic, ends at the file's size
///   case let .resuming(offset, attempt): print("resuming at \(offset) (attempt \(attempt))")
///   case .plainUpload: print("the server has no resumable uploads: one plain request")
///   }
/// }
/// ```
public enum ResumableUploadEvent: Hashable, Sendable {
  /// The server announced the upload resource: keep it to resume after a pause or a crash.
  case created(ResumableUploadResource)
  /// Bytes sent so far; never goes backwards (after an interruption it holds until the resent bytes pass it) and
  /// ends at exactly the file's size. At most about one report per percent.
  case progress(UploadProgress)
  /// After an interruption or a pause: the server holds `offset` bytes and the rest is being sent.
  case resuming(offset: Int64, attempt: Int)
  /// The server does not speak the draft (or none of our interop versions): the file goes in one plain request.
  case plainUpload
}
