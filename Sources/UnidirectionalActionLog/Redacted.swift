import Foundation
import Unidirectional

/// A value that never reaches an action log, a dump, a diff or a printed description: each shows `<redacted>`.
///
/// Wrap tokens, API keys and anything else secret that must travel in an action or a state. Read back from a log,
/// the field holds its type's ``RedactionPlaceholder`` (an empty string, empty data, `nil`).
///
/// ```swift
/// enum Action: Codable, Sendable {
///   case signedIn(token: Redacted<String>)
/// }
/// struct Session: Codable {
///   @Redacted var apiKey: String = ""
/// }
/// print(Action.signedIn(token: Redacted("s3cr3t")))   // signedIn(token: <redacted>)
/// ```
@propertyWrapper
public struct Redacted<Value> {
  /// The secret itself.
  public var wrappedValue: Value

  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// Wraps `value`.
  public init(_ value: Value) { self.wrappedValue = value }

  /// What every log, dump and description shows instead of the value.
  public static var marker: String { "<redacted>" }
}

extension Redacted: Sendable where Value: Sendable {}
extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}

extension Redacted: Encodable {
  /// Writes `"<redacted>"`, never the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.marker)
  }
}

extension Redacted: Decodable where Value: Decodable & RedactionPlaceholder {
  /// Reads `"<redacted>"` as the placeholder value; anything else as the value itself (e.g. a configuration file).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self), text == Self.marker {
      wrappedValue = Value.redactionPlaceholder
    } else {
      wrappedValue = try container.decode(Value.self)
    }
  }
}

extension Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomDumpStringConvertible {
  /// `<redacted>`.
  public var description: String { Self.marker }
  /// `<redacted>`.
  public var debugDescription: String { Self.marker }
  /// `<redacted>`.
  public var customDumpDescription: String { Self.marker }
}

extension Redacted: CustomReflectable {
  /// No children: `dump`, `Mirror` and anything built on them see nothing of the value.
  public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
