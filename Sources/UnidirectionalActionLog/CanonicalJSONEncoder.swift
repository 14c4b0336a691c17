import Foundation
import Unidirectional

/// Encodes `Encodable` values as canonical JSON: the one byte-exact form action logs are written in (actions and
/// the initial state), the same for equal values in every process.
///
/// Canonical form:
/// - no whitespace; object keys sorted by their UTF-8 bytes; a key encoded twice keeps its last value;
/// - strings escape only `"`, `\` and control characters (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`);
/// - integers in decimal; floating-point numbers in Swift's shortest round-trip form (`0.1`, `1e-05`);
///   NaN and infinities are refused (`EncodingError.invalidValue`);
/// - `Data` as a base64 string, `URL` as its absolute string, `Decimal` as a number, `Date` as seconds since
///   2001-01-01 (its own `Codable` form) — all as Foundation's `JSONDecoder` reads them by default;
/// - unordered collections in a stable order: a `Set`'s elements and a dictionary whose keys encode as values
///   (neither `String`, `Int` nor `CodingKeyRepresentable`) as their pairs, sorted by their canonical bytes;
/// - any value conforming to ``ActionLogRedacting`` is replaced by its `redactedForLog` first, at every depth.
///
/// ```swift
/// let bytes = try CanonicalJSONEncoder.encode(State(count: 1, name: "a"))   // {"count":1,"name":"a"}
/// ```
enum CanonicalJSONEncoder {
  /// The canonical JSON bytes of `value`.
  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let node = try CanonicalNodeEncoder.node(for: value, codingPath: [])
    var output: [UInt8] = []
    output.reserveCapacity(128)
    node.write(to: &output)
    return output
  }

  /// Appends the canonical JSON bytes of `value` to `output` (nothing if encoding fails).
  static func encode<T: Encodable>(_ value: T, appendingTo output: inout [UInt8]) throws {
    try CanonicalNodeEncoder.node(for: value, codingPath: []).write(to: &output)
  }
}

// MARK: - Tree

/// A JSON value being built; containers are classes so nested containers can fill them after they are inserted.
enum CanonicalNode {
  case null
  case bool(Bool)
  case int(Int64)
  case uint(UInt64)
  /// A number already in its canonical text (floating point, `Decimal`).
  case number(String)
  case string(String)
  case array(CanonicalArray)
  case object(CanonicalObject)
  /// Canonical bytes written verbatim (elements of unordered collections, sorted by these bytes).
  case raw([UInt8])

  func write(to output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case let .bool(value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case let .int(value): CanonicalNode.writeInteger(value, to: &output)
    case let .uint(value): CanonicalNode.writeUnsigned(value, to: &output)
    case let .number(text): output.append(contentsOf: text.utf8)
    case let .string(text): CanonicalNode.writeString(text, to: &output)
    case let .array(array):
      output.append(UInt8(ascii: "["))
      for (index, item) in array.items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        item.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case let .object(object):
      output.append(UInt8(ascii: "{"))
      if object.entries.count == 1 {
        CanonicalNode.writeString(object.entries[0].key, to: &output)
        output.append(UInt8(ascii: ":"))
        object.entries[0].value.write(to: &output)
      } else {
        for (position, index) in object.writeOrder().enumerated() {
          if position > 0 { output.append(UInt8(ascii: ",")) }
          CanonicalNode.writeString(object.entries[index].key, to: &output)
          output.append(UInt8(ascii: ":"))
          object.entries[index].value.write(to: &output)
        }
      }
      output.append(UInt8(ascii: "}"))
    case let .raw(bytes): output.append(contentsOf: bytes)
    }
  }

  static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 {
      output.append(UInt8(ascii: "-"))
      writeUnsigned(value.magnitude, to: &output)
    } else {
      writeUnsigned(UInt64(value), to: &output)
    }
  }

  static func writeUnsigned(_ value: UInt64, to output: inout [UInt8]) {
    if value < 10 {
      output.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      while rest > 0 {
        buffer[23 - count] = UInt8(ascii: "0") &+ UInt8(rest % 10)
        rest /= 10
        count += 1
      }
      output.append(contentsOf: buffer[(24 - count)...])
    }
  }

  static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // Most strings need no escape: copy them whole.
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return false
      }
      output.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
        ])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

/// The items of a JSON array being built.
final class CanonicalArray {
  var items: [CanonicalNode] = []
}

/// The entries of a JSON object being built, in insertion order until written.
final class CanonicalObject {
  var entries: [(key: String, value: CanonicalNode)] = []

  init() { entries.reserveCapacity(8) }

  /// Adds an entry; if `key` is set again, the last value wins when written.
  func set(_ key: String, _ value: CanonicalNode) {
    entries.append((key, value))
  }

  /// Replaces the value last set for `key` (used by `superEncoder`, which sets a placeholder first).
  func replace(_ key: String, _ value: CanonicalNode) {
    if let index = entries.lastIndex(where: { $0.key == key }) {
      entries[index].value = value
    } else {
      entries.append((key, value))
    }
  }

  /// The indices of the entries to write, in key order, one per key (the last set). Keys compare as Swift
  /// strings: by Unicode scalar values, which for the usual (NFC) keys is the order of their UTF-8 bytes.
  func writeOrder() -> [Int] {
    let count = entries.count
    var order: [Int] = []
    order.reserveCapacity(count)
    // Insertion sort: objects are small, and often nearly sorted already.
    for index in 0..<count {
      let key = entries[index].key
      var position = order.count
      while position > 0, key < entries[order[position - 1]].key { position -= 1 }
      if position > 0, entries[order[position - 1]].key == key {
        order[position - 1] = index  // the same key again: the last value wins
      } else {
        order.insert(index, at: position)
      }
    }
    return order
  }
}
