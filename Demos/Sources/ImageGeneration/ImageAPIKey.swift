import Foundation
import HTTPClient
import Unidirectional

/// An API key for an image generation service. It renders as `<redacted>` everywhere — `print`, string
/// interpolation, `debugPrint`, `dump`, `customDump` and state diffs — so it cannot leak into logs or test output.
///
/// Keys live in a client's configuration, never in a feature's State or Action.
///
/// ```swift
/// let key = ImageAPIKey("kakao-rest-key")
/// print(key)              // <redacted>
/// print("\(key)")         // <redacted>
/// ```
public struct ImageAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomDumpStringConvertible, CustomReflectable
{
  /// The secret itself; only the live clients read it, to build the `Authorization` header.
  let rawValue: String

  /// Wraps `rawValue`; leading and trailing whitespace (a trailing newline from a file) is removed.
  public init(_ rawValue: String) {
    self.rawValue = rawValue.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether the key is empty (after trimming): an empty key counts as missing.
  public var isEmpty: Bool { rawValue.isEmpty }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
  /// Always `<redacted>`, for `debugPrint` and `String(reflecting:)`.
  public var debugDescription: String { "<redacted>" }
  /// Always `<redacted>`, for `customDump` and state diffs.
  public var customDumpDescription: String { "<redacted>" }
  /// No children, so reflection (`dump`, `Mirror`) never reaches the secret.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

  /// Removes the key from anything a server says (e.g. a message that echoes it).
  var redactor: SecretRedactor { SecretRedactor(secrets: [rawValue]) }
}
