/// Embeds a value in an enum case and extracts it back out: how reducers scope to a child's actions (or to an
/// enum state's case) without macros.
///
/// Made from the case's constructor alone, its extraction derived (`CasePath(_:)`), and composed
/// (`CasePath(_:_:)`):
///
/// ```swift
/// enum Action {
///   case upload(ImageUploadFeature.Action)
/// }
/// let upload = CasePath(Action.upload)
/// let picked = CasePath(Action.upload, ImageUploadFeature.Action.itemsPicked)
/// ```
///
/// Or written out, where a hot path needs the last nanoseconds (see the Performance article):
///
/// ```swift
/// static let uploadCase = CasePath(Action.upload) { if case let .upload(action) = $0 { action } else { nil } }
/// ```
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  /// Returns the case's value, or nil when `root` is another case.
  public let extract: @Sendable (Root) -> Value?

  /// A case path from the case's constructor and a function that matches it.
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
