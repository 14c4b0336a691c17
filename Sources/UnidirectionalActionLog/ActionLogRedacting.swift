import Unidirectional

/// An action (or any value in a logged action or state) that replaces its secrets before it is written to an
/// action log or fingerprinted.
///
/// The replacement must keep the same shape so the log still decodes; ``Redacted`` fields need no replacement.
///
/// ```swift
/// enum Action: Codable, Sendable, ActionLogRedacting {
///   case apiKeyEntered(String)
///   case generate
///
///   var redactedForLog: Action {
///     if case .apiKeyEntered = self { return .apiKeyEntered(Redacted<String>.marker) }
///     return self
///   }
/// }
/// ```
public protocol ActionLogRedacting: Encodable {
  /// `self` with every secret replaced, as it should appear in a log.
  var redactedForLog: Self { get }
}
