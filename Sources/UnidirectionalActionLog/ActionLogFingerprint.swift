import Unidirectional

/// A stable 64-bit hash of a state's encoded (`Encodable`) form, written on each action log line so a replay can
/// find the first step where a changed reducer produces a different state.
///
/// Equal encodings have equal fingerprints in every process and on every platform: it hashes the values the
/// state encodes — FNV-1a 64 over each scalar's tagged bytes, arrays in order, and objects, sets and
/// dictionaries as an order-independent sum of their mixed entries (so neither property declaration order
/// nor hash order matters) — with secrets hashed in their redacted form. The exact definition is in
/// `FingerprintEncoder.swift`. Computing it builds no JSON text (a few hundred nanoseconds for a small state).
///
/// ```swift
/// let fingerprint = try ActionLogFingerprint(of: Counter.State(count: 1))
/// print(fingerprint)          // 16 hex digits, e.g. "a3f9…"
/// ```
public struct ActionLogFingerprint: Hashable, Sendable, CustomStringConvertible {
  /// The algorithm's name as written in a log's header.
  public static let algorithm = "fnv1a64-structural"

  /// The hash value.
  public let value: UInt64

  /// The fingerprint with this hash value.
  public init(value: UInt64) { self.value = value }

  /// The fingerprint of `state`.
  public init<State: Encodable>(of state: State) throws {
    value = try FingerprintEncoder.fingerprint(of: state)
  }

  /// The fingerprint written as 16 lowercase hex digits, or `nil` when `hex` is not that.
  public init?(hex: String) {
    var value: UInt64 = 0
    var digits = 0
    for byte in hex.utf8 {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      digits += 1
      if digits > 16 { return nil }
      value = value << 4 | UInt64(digit)
    }
    guard digits == 16 else { return nil }
    self.value = value
  }

  /// 16 lowercase hex digits.
  public var description: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
