import Foundation

// MARK: - Public API

/// A type that is dumped by dumping a substitute value instead of itself.
///
/// ```swift
/// struct Token: CustomDumpRepresentable {
///     var raw: String
///     var customDumpValue: Any { "<redacted>" }
/// }
/// customDump(Token(raw: "hunter2")) // "\"<redacted>\""
/// ```
public protocol CustomDumpRepresentable {
  /// The value rendered by `customDump` in place of `self`.
  var customDumpValue: Any { get }
}

/// A property wrapper whose storage dumps under the wrapped property's name (`destination`, not `_destination`).
protocol WrappedPropertyDumping {}

/// A type that provides its own verbatim `customDump` rendering.
///
/// ```swift
/// struct Money: CustomDumpStringConvertible {
///     var cents: Int
///     var customDumpDescription: String { "$\(cents / 100).\(cents % 100)" }
/// }
/// customDump(Money(cents: 1050)) // "$10.50"
/// ```
public protocol CustomDumpStringConvertible {
  /// The text `customDump` emits verbatim for `self` (may span several lines).
  var customDumpDescription: String { get }
}

/// Renders any value as readable, deterministic, multi-line text, e.g. `customDump(S(count: 1))` is `"S(\n  count: 1\n)"`.
///
/// Format (each nesting level indents by two spaces):
/// - structs / classes: `TypeName(` one `label: value` per line, separated by commas, then `)`;
///   no stored properties renders `TypeName()`; a class instance already being rendered
///   further up the current path renders `TypeName(↩︎)`.
/// - enums: `TypeName.case`, or `TypeName.case(payload)` / `TypeName.case(label: value, …)`;
///   the payload goes on one line when every payload value is single-line, otherwise one per line.
///   Payload-less case names come from `String(describing:)`, so an enum with a custom
///   `description` should adopt `CustomDumpStringConvertible` to control its rendering.
/// - tuples: `(label: value, …)` (unlabelled elements have no label), same line rule as enum payloads.
/// - optionals: `nil` or the wrapped value.
/// - `String` / `Substring` / `Character`: double-quoted with Swift escapes (`"a\"b\n"`).
/// - numbers and `Bool`: plain; `Duration(1.5 seconds)`, `Date(2001-01-01T00:00:00.000Z)`,
///   `UUID(…)`, `URL(…)`, `Data(12 bytes)`; metatypes `TypeName.self`.
/// - arrays / collections: `[` one `[index]: value` per line `]`, empty `[]`.
/// - sets: `Set([` one element per line `])` sorted by rendered text, empty `Set([])`.
/// - dictionaries: `[` one `key: value` per line `]` sorted by rendered key text, empty `[:]`.
/// - `CustomDumpStringConvertible` values are emitted verbatim; `CustomDumpRepresentable`
///   values are replaced by their `customDumpValue`.
/// - nesting deeper than 64 levels renders as `…`.
///
/// Type names omit the module name (and any local/private context), e.g. `Feature.State`.
public func customDump(_ value: Any) -> String {
  var builder = DumpBuilder()
  return builder.node(for: value, depth: 0).text
}

// MARK: - Dump tree

/// An intermediate rendering of a value, shared by `customDump` and `diff`.
struct DumpNode: Sendable, Equatable {
  /// The structural category of a node, used by `diff` to decide how to align children.
  enum Shape: Sendable, Equatable {
    case leaf
    case structure
    case enumPayload
    case tuple
    case collection
    case set
    case dictionary
  }

  /// The structural category.
  var shape: Shape
  /// The first line of the multi-line form (e.g. `S(`); empty for leaves.
  var open: String
  /// The last line of the multi-line form (e.g. `)`); empty for leaves.
  var close: String
  /// The (already ordered) children; empty for leaves.
  var children: [DumpChild]
  /// The full rendering, one element per line.
  var lines: [String]

  /// The full rendering as a single string.
  var text: String { lines.joined(separator: "\n") }

  /// Whether this node is a container rendered in its multi-line `open … close` form.
  var isMultilineContainer: Bool {
    shape != .leaf && !children.isEmpty && lines.count > 1
  }

  /// Creates a leaf node from (possibly multi-line) text.
  static func leaf(_ text: String) -> DumpNode {
    let lines =
      text.utf8.contains(0x0A) ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text]
    return DumpNode(shape: .leaf, open: "", close: "", children: [], lines: lines)
  }

  /// Creates a container node, choosing the single-line form when allowed and possible.
  static func container(
    _ shape: Shape, open: String, close: String, empty: String? = nil,
    children: [DumpChild], inlineWhenPossible: Bool = false
  ) -> DumpNode {
    let lines: [String]
    if children.isEmpty {
      lines = [empty ?? open + close]
    } else if inlineWhenPossible, children.allSatisfy({ $0.lines.count == 1 }) {
      lines = [open + children.map { $0.lines[0] }.joined(separator: ", ") + close]
    } else {
      var result = [open]
      for (index, child) in children.enumerated() {
        let isLast = index == children.count - 1
        for (lineIndex, line) in child.lines.enumerated() {
          let comma = !isLast && lineIndex == child.lines.count - 1 ? "," : ""
          result.append("  " + line + comma)
        }
      }
      result.append(close)
      lines = result
    }
    return DumpNode(shape: shape, open: open, close: close, children: children, lines: lines)
  }
}

/// One labelled (or unlabelled) child of a container node.
struct DumpChild: Sendable, Equatable {
  /// The label printed before `: `, e.g. a field name, `[3]`, or a rendered dictionary key.
  var label: String?
  /// The identity used to align children when diffing (field name, key, or element rendering).
  var key: String
  /// The child's own rendering.
  var node: DumpNode
  /// The child rendered together with its label.
  var lines: [String]

  /// Creates a child, precomputing its labelled rendering.
  init(label: String?, key: String, node: DumpNode) {
    self.label = label
    self.key = key
    self.node = node
    self.lines = labelled(label, node.lines)
  }
}

/// Prefixes `lines` with `label: ` (a multi-line label keeps its leading lines on their own).
func labelled(_ label: String?, _ lines: [String]) -> [String] {
  guard let label else { return lines }
  if !label.utf8.contains(0x0A) {
    guard let first = lines.first else { return [label + ":"] }
    return [label + ": " + first] + lines.dropFirst()
  }
  var labelLines = label.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let last = labelLines.removeLast()
  guard let first = lines.first else { return labelLines + [last + ":"] }
  return labelLines + [last + ": " + first] + lines.dropFirst()
}

// MARK: - Builder

/// Walks a value with `Mirror` and produces its `DumpNode`.
struct DumpBuilder {
  /// The maximum nesting depth rendered; deeper values render as `…`.
  static let maxDepth = 64

  /// Class instances on the current path, for cycle detection.
  private var path: Set<ObjectIdentifier> = []

  /// Builds the node for `value` at the given nesting depth.
  mutating func node(for value: Any, depth: Int) -> DumpNode {
    if depth > Self.maxDepth { return .leaf("…") }

    switch DumpKind.of(value) {
    case .custom:
      if let custom = value as? any CustomDumpStringConvertible { return .leaf(custom.customDumpDescription) }
    case .representable:
      if let representable = value as? any CustomDumpRepresentable {
        return node(for: representable.customDumpValue, depth: depth + 1)
      }
    case .primitive:
      if let leaf = Self.primitive(value) { return .leaf(leaf) }
    case .anyHashable:
      if let hashable = value as? AnyHashable { return node(for: hashable.base, depth: depth) }
    case .reflected:
      if let node = EnumCaseDumps.node(of: value, depth: depth, builder: &self) { return node }
    }

    let mirror = Mirror(reflecting: value)
    // A struct or class that hides its fields (a custom mirror with no children) and describes itself is shown by its
    // description: a secret type that prints `<redacted>` is dumped so in any module, whether or not one that
    // conforms it to `CustomDumpStringConvertible` is linked.
    if mirror.children.isEmpty, mirror.displayStyle == .struct || mirror.displayStyle == .class,
      value is any CustomReflectable, let described = value as? any CustomStringConvertible
    {
      return .leaf(described.description)
    }
    let name = typeName(mirror.subjectType)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return .leaf("nil") }
      return node(for: wrapped.value, depth: depth)

    case .collection:
      var children: [DumpChild] = []
      for (index, child) in mirror.children.enumerated() {
        let element = node(for: child.value, depth: depth + 1)
        children.append(DumpChild(label: "[\(index)]", key: element.text, node: element))
      }
      return .container(.collection, open: "[", close: "]", children: children)

    case .set:
      var children: [DumpChild] = []
      for child in mirror.children {
        let element = node(for: child.value, depth: depth + 1)
        children.append(DumpChild(label: nil, key: element.text, node: element))
      }
      children.sort { $0.key < $1.key }
      return .container(.set, open: "Set([", close: "])", children: children)

    case .dictionary:
      var children: [DumpChild] = []
      for child in mirror.children {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { continue }
        let key = node(for: pair[0].value, depth: depth + 1).text
        let element = node(for: pair[1].value, depth: depth + 1)
        children.append(DumpChild(label: key, key: key, node: element))
      }
      children.sort { $0.key < $1.key }
      return .container(.dictionary, open: "[", close: "]", empty: "[:]", children: children)

    case .tuple:
      let children = tupleChildren(mirror, depth: depth)
      return .container(.tuple, open: "(", close: ")", children: children, inlineWhenPossible: true)

    case .enum:
      guard let payload = mirror.children.first else {
        return .leaf("\(name).\(String(describing: value))")
      }
      let caseName = payload.label ?? "?"
      let payloadMirror = Mirror(reflecting: payload.value)
      let children: [DumpChild]
      if payloadMirror.displayStyle == .tuple {
        children = tupleChildren(payloadMirror, depth: depth)
      } else {
        children = [DumpChild(label: nil, key: ".0", node: node(for: payload.value, depth: depth + 1))]
      }
      return .container(
        .enumPayload, open: "\(name).\(caseName)(", close: ")",
        children: children, inlineWhenPossible: true
      )

    case .class:
      let id = ObjectIdentifier(value as AnyObject)
      if path.contains(id) { return .leaf("\(name)(↩︎)") }
      path.insert(id)
      defer { path.remove(id) }
      return structure(name: name, mirror: mirror, depth: depth)

    default:
      if mirror.children.isEmpty, mirror.displayStyle != .struct {
        return .leaf(String(describing: value))
      }
      return structure(name: name, mirror: mirror, depth: depth)
    }
  }

  /// Builds a `TypeName(field: value, …)` node, including superclass fields first.
  private mutating func structure(name: String, mirror: Mirror, depth: Int) -> DumpNode {
    var mirrors: [Mirror] = []
    var current: Mirror? = mirror
    while let next = current {
      mirrors.insert(next, at: 0)
      current = next.superclassMirror
    }
    var children: [DumpChild] = []
    for level in mirrors {
      for (index, child) in level.children.enumerated() {
        var label = child.label ?? "_\(index)"
        // A property wrapper's storage (`_destination`) is shown under the property's name.
        if label.hasPrefix("_"), child.value is any WrappedPropertyDumping { label.removeFirst() }
        children.append(DumpChild(label: label, key: label, node: node(for: child.value, depth: depth + 1)))
      }
    }
    return .container(.structure, open: "\(name)(", close: ")", children: children)
  }

  /// Builds the children of a tuple mirror, dropping positional labels like `.0`.
  private mutating func tupleChildren(_ mirror: Mirror, depth: Int) -> [DumpChild] {
    var children: [DumpChild] = []
    for (index, child) in mirror.children.enumerated() {
      let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
      let element = node(for: child.value, depth: depth + 1)
      children.append(DumpChild(label: label, key: label ?? ".\(index)", node: element))
    }
    return children
  }

  /// Renders values that are always leaves (strings, numbers, Foundation values, metatypes).
  static func primitive(_ value: Any) -> String? {
    switch value {
    case let string as String: return quoted(string)
    case let string as Substring: return quoted(String(string))
    case let character as Character: return quoted(String(character))
    case let bool as Bool: return bool ? "true" : "false"
    case let integer as any BinaryInteger: return String(describing: integer)
    case let decimal as Decimal: return decimal.description
    case let float as any FloatingPoint: return String(describing: float)
    case let duration as Duration: return "Duration(\(duration))"
    case let date as Date:
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
      formatter.timeZone = TimeZone(secondsFromGMT: 0)
      return "Date(\(formatter.string(from: date)))"
    case let uuid as UUID: return "UUID(\(uuid.uuidString))"
    case let url as URL: return "URL(\(url.absoluteString))"
    case let data as Data: return "Data(\(data.count) \(data.count == 1 ? "byte" : "bytes"))"
    case let metatype as Any.Type: return "\(typeName(metatype)).self"
    default: return nil
    }
  }

  /// Quotes a string with Swift-style escapes.
  static func quoted(_ string: String) -> String {
    "\"" + swiftEscaped(string) + "\""
  }
}

/// `string` with the escapes a Swift string literal needs (`\"`, `\\`, `\n`, `\u{7}`, …), without the quotes: what a
/// dump and a written test show of a string.
package func swiftEscaped(_ string: String) -> String {
  var result = ""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    case "\0": result += "\\0"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }
  return result
}
