import Foundation
import Unidirectional

/// An action's name as the step list shows it: its case path, outer case first, e.g. `upload.progress` for
/// `.upload(.progress(0.5))` — read from a value, or from a logged action's JSON without decoding it.
///
/// ```swift
/// InspectorActionName.of(Action.upload(.progress(0.5)))                          // "upload.progress"
/// InspectorActionName.of(json: #"{"upload":{"_0":{"progress":{"_0":0.5}}}}"#)   // "upload.progress"
/// ```
enum InspectorActionName {
  /// Nested cases followed at most.
  static let depth = 6
  /// Longest name kept (a hostile log may have huge keys).
  static let maximumLength = 160

  /// The case path of an enum value (its `describe` when it is not an enum).
  static func of(_ value: Any) -> String {
    var parts: [String] = []
    var current: Any = value
    while parts.count < depth {
      let mirror = Mirror(reflecting: current)
      guard mirror.displayStyle == .enum else { break }
      guard let child = mirror.children.first, let label = child.label else {
        parts.append(String(describing: current))  // a case without a payload prints as its name
        break
      }
      parts.append(label)
      var payload = child.value
      let tuple = Mirror(reflecting: payload)
      if tuple.displayStyle == .tuple, tuple.children.count == 1, let only = tuple.children.first {
        payload = only.value
      }
      current = payload
    }
    return parts.isEmpty ? describe(value) : clipped(parts.joined(separator: "."))
  }

  /// The case path of the action in one log line (`"action":{"case":{"_0":{"inner":…}}}`), or `(unencodable)`,
  /// or `?` when the line has neither.
  static func of(line: UnsafeRawBufferPointer) -> String {
    guard let start = find(#""action":"#, in: line) else {
      return find(#""unencodable":"#, in: line) == nil ? "?" : "(unencodable)"
    }
    var parts: [String] = []
    var index = start
    while parts.count < depth, let (key, valueStart) = objectKey(in: line, at: index) {
      parts.append(key)
      // Only a single unlabeled payload that is itself one enum case continues the path: `{"_0":{"inner":…}}`.
      guard let (payload, innerStart) = objectKey(in: line, at: valueStart), payload == "_0",
        isSingleKeyObject(in: line, at: valueStart), isSingleKeyObject(in: line, at: innerStart)
      else { break }
      index = innerStart
    }
    return parts.isEmpty ? "?" : clipped(parts.joined(separator: "."))
  }

  /// Whether the object at `index` has exactly one key.
  private static func isSingleKeyObject(in line: UnsafeRawBufferPointer, at index: Int) -> Bool {
    guard let (_, valueStart) = objectKey(in: line, at: index), let end = endOfValue(in: line, at: valueStart) else {
      return false
    }
    return end < line.count && line[end] == UInt8(ascii: "}")
  }

  /// The index just after the JSON value starting at `index` (strings, numbers, literals, nested containers).
  private static func endOfValue(in line: UnsafeRawBufferPointer, at index: Int) -> Int? {
    var depth = 0
    var inString = false
    var position = index
    while position < line.count {
      let byte = line[position]
      if inString {
        if byte == UInt8(ascii: "\\") {
          position += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return position + 1 }
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return position }
          depth -= 1
          if depth == 0 { return position + 1 }
        case UInt8(ascii: ","):
          if depth == 0 { return position }
        default: break
        }
      }
      position += 1
    }
    return nil
  }

  /// `{"key":` at `index`: the key and the index after the colon.
  private static func objectKey(in line: UnsafeRawBufferPointer, at index: Int) -> (String, Int)? {
    guard index + 1 < line.count, line[index] == UInt8(ascii: "{"), line[index + 1] == UInt8(ascii: "\"") else {
      return nil
    }
    var end = index + 2
    while end < line.count, line[end] != UInt8(ascii: "\"") {
      if line[end] == UInt8(ascii: "\\") { return nil }  // escaped keys are no case names
      end += 1
    }
    guard end + 1 < line.count, line[end + 1] == UInt8(ascii: ":") else { return nil }
    let key = String(decoding: UnsafeRawBufferPointer(rebasing: line[(index + 2)..<end]), as: UTF8.self)
    return (key, end + 2)
  }

  /// The index just after the first occurrence of `needle`.
  static func find(_ needle: StaticString, in line: UnsafeRawBufferPointer) -> Int? {
    let count = needle.utf8CodeUnitCount
    guard let base = line.baseAddress, count > 0, line.count >= count else { return nil }
    let first = Int32(needle.utf8Start.pointee)
    var position = 0
    while position + count <= line.count, let hit = memchr(base + position, first, line.count - position - count + 1) {
      let offset = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(base + offset, needle.utf8Start, count) == 0 { return offset + count }
      position = offset + 1
    }
    return nil
  }

  private static func clipped(_ name: String) -> String {
    name.count > maximumLength ? String(name.prefix(maximumLength)) + "…" : name
  }
}
