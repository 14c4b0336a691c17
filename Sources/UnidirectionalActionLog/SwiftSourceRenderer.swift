import Foundation
import Unidirectional

/// A Swift expression written into a test: its text, and whether it calls something that throws (the statement then
/// starts with `try`).
struct SourceExpression: Equatable {
  var text: String
  var throwing: Bool

  init(_ text: String, throwing: Bool = false) {
    self.text = text
    self.throwing = throwing
  }
}

/// Writes values as Swift expressions for ``ActionLogTestWriter``, in a place whose type the compiler knows (an
/// action's payload, an assignment to a property): literals for strings, numbers, Booleans, UUIDs, dates, URLs and
/// durations, `.case(payload)` for enum cases, array, set and dictionary literals of those — and for a value it
/// cannot write so (a struct, whose initializers it cannot know), its JSON decoded in the test,
/// `fromJSON(#"{"count":1}"#)`, so that the test still compiles.
///
/// ```swift
/// var renderer = SwiftSourceRenderer()
/// renderer.expression(for: Counter.Action.set(3))?.text   // ".set(3)"
/// renderer.expression(for: Todo(title: "Milk"))?.text      // #"fromJSON(#"{"title":"Milk"}"#)"#
/// ```
struct SwiftSourceRenderer {
  /// Text in recorded strings written as an interpolation of a Swift expression instead (a recorded folder's path
  /// → `folder.path`), longest first.
  let substitutions: [(text: String, expression: String)]
  /// How the configuration says values of some types are written.
  let spellings: [ObjectIdentifier: ActionLogTestWriter.Spelling]
  /// The modules of the types whose cases or literals were written, for the test's imports.
  private(set) var modules: Set<String> = []

  init(substitutions: [String: String] = [:], spellings: [ObjectIdentifier: ActionLogTestWriter.Spelling] = [:]) {
    self.spellings = spellings
    self.substitutions = substitutions.filter { !$0.key.isEmpty }.sorted { $0.key.count > $1.key.count }
      .map { (text: $0.key, expression: $0.value) }
  }

  /// `value` as a literal or, failing that, as its JSON decoded; nil when it is neither writable nor `Encodable`.
  mutating func expression(for value: Any) -> SourceExpression? {
    literal(for: value) ?? json(for: value)
  }

  /// `value` decoded from its JSON in the test: `fromJSON(#"…"#)`; nil when it is not `Encodable`.
  mutating func json(for value: Any) -> SourceExpression? {
    guard let bytes = Self.canonicalJSON(value) else { return nil }
    noteModule(of: type(of: value))
    return SourceExpression("fromJSON(\(rawLiteral(String(decoding: bytes, as: UTF8.self))))", throwing: true)
  }

  /// The canonical JSON of `value`, if it is `Encodable` and encodes.
  static func canonicalJSON(_ value: Any) -> [UInt8]? {
    guard let encodable = value as? any Encodable else { return nil }
    func encode<E: Encodable>(_ value: E) -> [UInt8]? { try? CanonicalJSONEncoder.encode(value) }
    return encode(encodable)
  }

  /// `value` as a Swift literal or case, or nil.
  mutating func literal(for value: Any) -> SourceExpression? {
    if let text = Self.scalarLiteral(value) { return SourceExpression(text) }
    if let spelling = spellings[ObjectIdentifier(type(of: value))] { return spelled(value, with: spelling) }
    switch value {
    case let string as String: return SourceExpression(stringLiteral(string))
    case let string as Substring: return SourceExpression(stringLiteral(String(string)))
    case let character as Character: return SourceExpression(stringLiteral(String(character)))
    case let url as URL: return SourceExpression(urlLiteral(url))
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return SourceExpression("nil") }
      return literal(for: wrapped)
    case .collection where type(of: value) is any ExpressibleByArrayLiteral.Type:
      return list(mirror.children.map(\.value), sorted: false)
    case .set where type(of: value) is any ExpressibleByArrayLiteral.Type:
      return list(mirror.children.map(\.value), sorted: true)
    case .dictionary where type(of: value) is any ExpressibleByDictionaryLiteral.Type:
      return dictionary(mirror)
    case .tuple:
      return tuple(mirror)
    case .enum:
      return enumCase(value, mirror: mirror)
    default:
      return stringConvertible(value)
    }
  }

  // MARK: Kinds of values

  /// `value` as the configuration spells it; the values it holds written here (as JSON if need be).
  private mutating func spelled(_ value: Any, with spelling: ActionLogTestWriter.Spelling) -> SourceExpression? {
    noteModule(of: type(of: value))
    var throwing = false
    var unwritable = false
    let text = spelling(value) { part in
      guard let expression = self.expression(for: part) else {
        unwritable = true
        return ""
      }
      throwing = throwing || expression.throwing
      return expression.text
    }
    return unwritable ? nil : SourceExpression(text, throwing: throwing)
  }

  private mutating func list(_ elements: [Any], sorted: Bool) -> SourceExpression? {
    var items: [SourceExpression] = []
    for element in elements {
      guard let item = expression(for: element) else { return nil }
      items.append(item)
    }
    if sorted { items.sort { $0.text < $1.text } }
    let throwing = items.contains(where: \.throwing)
    let inline = "[" + items.map(\.text).joined(separator: ", ") + "]"
    guard inline.count > Self.inlineListWidth, items.count > 1 else {
      return SourceExpression(inline, throwing: throwing)
    }
    // One element per line, as a person lays out a long literal (the layout indents the lines after the first).
    let lines = items.map { "  " + $0.text.replacingOccurrences(of: "\n", with: "\n  ") + "," }
    return SourceExpression("[\n" + lines.joined(separator: "\n") + "\n]", throwing: throwing)
  }

  private mutating func dictionary(_ mirror: Mirror) -> SourceExpression? {
    var entries: [(key: SourceExpression, value: SourceExpression)] = []
    for child in mirror.children {
      let pair = Array(Mirror(reflecting: child.value).children)
      guard pair.count == 2, let key = literal(for: pair[0].value), let value = expression(for: pair[1].value)
      else { return nil }
      entries.append((key, value))
    }
    guard !entries.isEmpty else { return SourceExpression("[:]") }
    entries.sort { $0.key.text < $1.key.text }
    return SourceExpression(
      "[" + entries.map { "\($0.key.text): \($0.value.text)" }.joined(separator: ", ") + "]",
      throwing: entries.contains { $0.key.throwing || $0.value.throwing })
  }

  private mutating func tuple(_ mirror: Mirror) -> SourceExpression? {
    guard let elements = arguments(mirror) else { return nil }
    return SourceExpression("(\(elements.text))", throwing: elements.throwing)
  }

  /// A tuple's elements as arguments: `label: value` for labelled ones.
  private mutating func arguments(_ mirror: Mirror) -> SourceExpression? {
    var parts: [SourceExpression] = []
    for child in mirror.children {
      guard let element = expression(for: child.value) else { return nil }
      let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
      parts.append(SourceExpression(label.map { "\($0): " + element.text } ?? element.text, throwing: element.throwing))
    }
    return SourceExpression(parts.map(\.text).joined(separator: ", "), throwing: parts.contains(where: \.throwing))
  }

  /// `.case` or `.case(payload)`; nil for an enum that reflects itself its own way.
  private mutating func enumCase(_ value: Any, mirror: Mirror) -> SourceExpression? {
    guard !(value is any CustomReflectable),
      let name = SourceReflection.caseName(of: value) ?? mirror.children.first?.label
    else { return nil }
    noteModule(of: type(of: value))
    let member = "." + Self.identifier(name)
    guard let payload = mirror.children.first?.value else { return SourceExpression(member) }
    let payloadMirror = Mirror(reflecting: payload)
    if payloadMirror.displayStyle == .tuple {
      guard let arguments = arguments(payloadMirror) else { return nil }
      return SourceExpression("\(member)(\(arguments.text))", throwing: arguments.throwing)
    }
    guard let argument = expression(for: payload) else { return nil }
    return SourceExpression("\(member)(\(argument.text))", throwing: argument.throwing)
  }

  /// A value of a type written from a string literal whose JSON is that string (an identifier wrapping a string).
  private mutating func stringConvertible(_ value: Any) -> SourceExpression? {
    guard type(of: value) is any ExpressibleByStringLiteral.Type, let bytes = Self.canonicalJSON(value),
      let string = try? JSONDecoder().decode(String.self, from: Data(bytes))
    else { return nil }
    noteModule(of: type(of: value))
    return SourceExpression(stringLiteral(string))
  }

  /// Numbers, Booleans, UUIDs, dates and durations.
  private static func scalarLiteral(_ value: Any) -> String? {
    switch value {
    case let bool as Bool: return bool ? "true" : "false"
    case let integer as any BinaryInteger:
      // `20_876`, as people write long numbers (values beyond Int64 as they are).
      return Int64(exactly: integer).map(grouped) ?? String(describing: integer)
    case let double as Double: return floatingText(double)
    case let float as Float: return floatingText(float)
    case let uuid as UUID: return uuidLiteral(uuid)
    case let date as Date: return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    case let duration as Duration: return durationLiteral(duration)
    default: return nil
    }
  }

  private static func floatingText<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
    if value.isNaN { return ".nan" }
    if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
    return value.description
  }

  /// `UUID(5)` for the UUIDs `.incrementing` makes, else `UUID(uuidString: "…")!`.
  private static func uuidLiteral(_ uuid: UUID) -> String {
    let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
    if bytes[0..<10].allSatisfy({ $0 == 0 }) {
      let number = bytes[10...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return "UUID(\(number))"
    }
    return "UUID(uuidString: \"\(uuid.uuidString)\")!"
  }

  /// `.seconds(3)`, `.milliseconds(1_500)`, … in the largest unit that is exact.
  static func durationLiteral(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds % 1_000_000_000 == 0 else {
      return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
    }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    for (unit, size) in [("seconds", Int64(1_000_000_000)), ("milliseconds", 1_000_000), ("microseconds", 1_000)]
    where nanoseconds % size == 0 {
      return ".\(unit)(\(grouped(nanoseconds / size)))"
    }
    return ".nanoseconds(\(grouped(nanoseconds)))"
  }

  /// `1_500`: digits in groups of three, as people write them.
  private static func grouped(_ value: Int64) -> String {
    let digits = String(value.magnitude)
    guard digits.count > 3 else { return value < 0 ? "-" + digits : digits }
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (value < 0 ? "-" : "") + groups.joined(separator: "_")
  }

  private func urlLiteral(_ url: URL) -> String {
    guard url.isFileURL else { return "URL(string: \(stringLiteral(url.absoluteString)))!" }
    let directory = url.hasDirectoryPath ? ", isDirectory: true" : ""
    return "URL(fileURLWithPath: \(stringLiteral(url.path))\(directory))"
  }

  // MARK: Text

  /// Lists longer than this are written one element per line.
  static let inlineListWidth = 80

  /// A Swift string literal, with the substitutions interpolated.
  func stringLiteral(_ text: String) -> String {
    "\""
      + substituted(text) {
        swiftEscaped(String($0))
      } interpolation: {
        "\\(\($0))"
      } + "\""
  }

  /// A raw string literal (`#"…"#`, more `#`s if the text needs them) of `text`, with the substitutions
  /// interpolated; a multi-line one (`#"""`) for text with line breaks, its lines indented by `indent`.
  func rawLiteral(_ text: String, indent: String = "") -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    let body = substituted(text) {
      String($0)
    } interpolation: {
      "\\\(hashes)(\($0))"
    }
    guard text.contains("\n") else { return "\(hashes)\"\(body)\"\(hashes)" }
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
    return "\(hashes)\"\"\"\n" + lines.joined(separator: "\n") + "\n\(indent)\"\"\"\(hashes)"
  }

  /// `text` with each substitution's text replaced by `interpolation(expression)` and the rest by `plain`.
  private func substituted(
    _ text: String, plain: (Substring) -> String, interpolation: (String) -> String
  ) -> String {
    var result = ""
    var rest = text[...]
    outer: while !rest.isEmpty {
      for substitution in substitutions {
        if let range = rest.range(of: substitution.text) {
          // The earliest match of any substitution first.
          let earlier = substitutions.compactMap { rest.range(of: $0.text)?.lowerBound }.min() ?? range.lowerBound
          guard earlier == range.lowerBound else { continue }
          result += plain(rest[..<range.lowerBound]) + interpolation(substitution.expression)
          rest = rest[range.upperBound...]
          continue outer
        }
      }
      break
    }
    return result + plain(rest)
  }

  /// `name` as a member after a dot: in backticks only for the few keywords Swift does not take there (SE-0071).
  static func identifier(_ name: String) -> String {
    ["self", "Type", "Protocol", "init"].contains(name) ? "`\(name)`" : name
  }

  /// Remembers the module of `type` (and of its generic arguments), for the imports.
  mutating func noteModule(of type: Any.Type) {
    let name = String(reflecting: type)
    var token = ""
    var atStart = true
    for character in name {
      if character.isLetter || character.isNumber || character == "_" {
        token.append(character)
      } else {
        if atStart, character == ".", !token.isEmpty { modules.insert(token) }
        atStart = character == "<" || character == "," || character == " " || character == "("
        token = ""
      }
    }
  }
}
