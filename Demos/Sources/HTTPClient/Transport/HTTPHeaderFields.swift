import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Response header fields: case-insensitive lookup, repeated fields joined with ", " as RFC 9110 allows.
///
/// ```swift
/// let headers = HTTPHeaderFields([("Upload-Offset", "42"), ("Vary", "a"), ("vary", "b")])
/// headers["upload-offset"]   // "42"
/// headers["Vary"]            // "a, b"
/// ```
public struct HTTPHeaderFields: Sendable, Equatable {
  /// The fields in the order they came.
  public private(set) var fields: [(name: String, value: String)] = []

  /// Header fields in this order.
  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  /// The fields of a URLSession response.
  init(_ response: HTTPURLResponse) {
    for (name, value) in response.allHeaderFields {
      if let name = name as? String, let value = value as? String { fields.append((name, value)) }
    }
  }

  /// The value of `name` (case-insensitive), repeated fields joined with ", ".
  public subscript(name: String) -> String? {
    let values = fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
  }
}
