import Foundation
import Unidirectional

/// A value a ``Redacted`` field takes when it is read back from an action log, where only `"<redacted>"` was
/// written.
///
/// ```swift
/// extension APIKey: RedactionPlaceholder {
///   public static var redactionPlaceholder: APIKey { APIKey(rawValue: "") }
/// }
/// ```
public protocol RedactionPlaceholder {
  /// The stand-in for a value that was redacted.
  static var redactionPlaceholder: Self { get }
}

extension String: RedactionPlaceholder {
  /// The empty string.
  public static var redactionPlaceholder: String { "" }
}

extension Data: RedactionPlaceholder {
  /// Empty data.
  public static var redactionPlaceholder: Data { Data() }
}

extension Optional: RedactionPlaceholder {
  /// `nil`.
  public static var redactionPlaceholder: Wrapped? { nil }
}
