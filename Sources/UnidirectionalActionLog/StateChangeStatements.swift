import Foundation
import Unidirectional

/// The statements of a `TestStore` assertion that make the state before a step into the state after it, as a person
/// writes them: only what changed, at the deepest property that can be assigned —
/// `$0.items[0].title = "Milk"`, `$0.capture?.session = .ready`, `$0.shots.append(…)`, a shared value changed in
/// `$0.$items.withLock { … }`.
///
/// ```swift
/// var renderer = SwiftSourceRenderer()
/// StateChangeStatements.statements(from: before, to: after, renderer: &renderer)
/// // [SourceExpression("$0.count = 2")]
/// ```
///
/// It descends through structs whose stored properties `Mirror` lists and the runtime says are `var`, optionals
/// that are present before and after, arrays, sets and shared values; a change it cannot reach that way (a `let`
/// property, a private property wrapper's storage, an enum's payload) is written as an assignment of the value that
/// holds it — at worst of the whole state, decoded from JSON.
enum StateChangeStatements {
  /// The statements, each written from `$0`; `[]` when nothing changed.
  static func statements(from before: Any, to after: Any, renderer: inout SwiftSourceRenderer) -> [SourceExpression] {
    if let statements = changes(before, after, path: "$0", renderer: &renderer) { return statements }
    guard let whole = renderer.expression(for: after) else { return [] }
    return [SourceExpression("$0 = \(whole.text)", throwing: whole.throwing)]
  }

  /// The statements below `path`, or nil when the change must be written as an assignment of `path` itself.
  private static func changes(
    _ before: Any, _ after: Any, path: String, renderer: inout SwiftSourceRenderer
  ) -> [SourceExpression]? {
    if isEqual(before, after) { return [] }
    let afterMirror = Mirror(reflecting: after)
    let beforeMirror = Mirror(reflecting: before)
    switch afterMirror.displayStyle {
    case .optional:
      guard let wrappedBefore = beforeMirror.children.first?.value,
        let wrappedAfter = afterMirror.children.first?.value
      else { return nil }
      return changes(wrappedBefore, wrappedAfter, path: path + "?", renderer: &renderer)
    case .struct where !(after is any CustomReflectable):
      return structChanges(beforeMirror, afterMirror, type: type(of: after), path: path, renderer: &renderer)
    case .collection where isArray(after):
      return arrayChanges(
        beforeMirror.children.map(\.value), afterMirror.children.map(\.value), path: path, renderer: &renderer)
    case .set:
      return setChanges(
        beforeMirror.children.map(\.value), afterMirror.children.map(\.value), path: path, renderer: &renderer)
    default:
      return nil
    }
  }

  /// Each changed stored property; nil if one of them cannot be assigned.
  private static func structChanges(
    _ before: Mirror, _ after: Mirror, type: Any.Type, path: String, renderer: inout SwiftSourceRenderer
  ) -> [SourceExpression]? {
    guard let variables = SourceReflection.variableFields(of: type) else { return nil }
    let beforeChildren = Array(before.children)
    let afterChildren = Array(after.children)
    guard beforeChildren.count == afterChildren.count else { return nil }
    var statements: [SourceExpression] = []
    for (old, new) in zip(beforeChildren, afterChildren) {
      guard let label = new.label, old.label == label else { return nil }
      if isEqual(old.value, new.value) { continue }
      if label.hasPrefix("_") {
        // A property wrapper's storage: a shared value is changed through its projection, a presentation through
        // its wrapped value; any other (private) storage cannot be written.
        let name = String(label.dropFirst())
        let wrapper = typeName(Swift.type(of: new.value))
        if wrapper.hasPrefix("Shared<") {
          guard let change = sharedChange(old.value, new.value, path: "\(path).$\(name)", renderer: &renderer)
          else { return nil }
          statements.append(change)
        } else if wrapper.hasPrefix("PresentationState<"), let oldValue = wrappedValue(old.value),
          let newValue = wrappedValue(new.value)
        {
          guard let changed = assignments(oldValue, newValue, path: "\(path).\(name)", renderer: &renderer)
          else { return nil }
          statements += changed
        } else {
          return nil
        }
        continue
      }
      guard variables.contains(label),
        let changed = assignments(
          old.value, new.value, path: "\(path).\(SwiftSourceRenderer.identifier(label))", renderer: &renderer)
      else { return nil }
      statements += changed
    }
    return statements
  }

  /// The changes below `path`, or the assignment of `path`; nil when neither can be written.
  private static func assignments(
    _ before: Any, _ after: Any, path: String, renderer: inout SwiftSourceRenderer
  ) -> [SourceExpression]? {
    if let changes = changes(before, after, path: path, renderer: &renderer) { return changes }
    guard let value = renderer.expression(for: after) else { return nil }
    return [SourceExpression("\(path) = \(value.text)", throwing: value.throwing)]
  }

  /// `$0.$items.withLock { … }`: the change of a shared value, made through its lock as the feature makes it.
  private static func sharedChange(
    _ before: Any, _ after: Any, path: String, renderer: inout SwiftSourceRenderer
  ) -> SourceExpression? {
    guard let oldValue = wrappedValue(before), let newValue = wrappedValue(after),
      let inner = assignments(oldValue, newValue, path: "$0", renderer: &renderer), !inner.isEmpty
    else { return nil }
    let throwing = inner.contains(where: \.throwing)
    let lines = inner.map { ($0.throwing && !$0.text.hasPrefix("try ") ? "try " : "") + $0.text }
    if lines.count == 1, !lines[0].contains("\n"), path.count + lines[0].count < 80 {
      return SourceExpression("\(path).withLock { \(lines[0]) }", throwing: throwing)
    }
    let body = lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "  " + $0 }
    return SourceExpression("\(path).withLock {\n" + body.joined(separator: "\n") + "\n}", throwing: throwing)
  }

  /// Elements changed in place, appended at the end or removed from it; nil for any other change.
  private static func arrayChanges(
    _ before: [Any], _ after: [Any], path: String, renderer: inout SwiftSourceRenderer
  ) -> [SourceExpression]? {
    // A list filled at once reads better as the list.
    if before.isEmpty, after.count > 1 { return nil }
    let common = min(before.count, after.count)
    var statements: [SourceExpression] = []
    if before.count == after.count {
      for index in 0..<common where !isEqual(before[index], after[index]) {
        guard let changed = assignments(before[index], after[index], path: "\(path)[\(index)]", renderer: &renderer)
        else { return nil }
        statements += changed
      }
      return statements
    }
    guard (0..<common).allSatisfy({ isEqual(before[$0], after[$0]) }) else { return nil }
    if after.count < before.count {
      let removed = before.count - after.count
      return [SourceExpression(removed == 1 ? "\(path).removeLast()" : "\(path).removeLast(\(removed))")]
    }
    for element in after[common...] {
      guard let value = renderer.expression(for: element) else { return nil }
      statements.append(SourceExpression("\(path).append(\(value.text))", throwing: value.throwing))
    }
    return statements
  }

  /// `insert` and `remove` of the elements that came and went.
  private static func setChanges(
    _ before: [Any], _ after: [Any], path: String, renderer: inout SwiftSourceRenderer
  ) -> [SourceExpression]? {
    var statements: [SourceExpression] = []
    for element in before where !after.contains(where: { isEqual($0, element) }) {
      guard let value = renderer.expression(for: element) else { return nil }
      statements.append(SourceExpression("\(path).remove(\(value.text))", throwing: value.throwing))
    }
    for element in after where !before.contains(where: { isEqual($0, element) }) {
      guard let value = renderer.expression(for: element) else { return nil }
      statements.append(SourceExpression("\(path).insert(\(value.text))", throwing: value.throwing))
    }
    return statements.sorted { $0.text < $1.text }
  }

  /// `Array` and `IdentifiedArray`: a position's element is `path[index]`, and they append.
  private static func isArray(_ value: Any) -> Bool {
    let name = typeName(type(of: value))
    return name.hasPrefix("Array<") || name.hasPrefix("[") || name.hasPrefix("IdentifiedArray<")
      || name.hasPrefix("IdentifiedArrayOf<")
  }

  /// The value a property wrapper's storage stands for (`Shared`, `PresentationState`).
  private static func wrappedValue(_ storage: Any) -> Any? {
    (storage as? any CustomDumpRepresentable)?.customDumpValue
  }

  /// Whether two values of the same type are equal: by `==` when they are `Equatable`, else by their JSON, else by
  /// their dumps.
  static func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    if let lhs = lhs as? any Equatable {
      func equals<E: Equatable>(_ lhs: E) -> Bool { (rhs as? E).map { $0 == lhs } ?? false }
      return equals(lhs)
    }
    if let left = SwiftSourceRenderer.canonicalJSON(lhs), let right = SwiftSourceRenderer.canonicalJSON(rhs) {
      return left == right
    }
    return customDump(lhs) == customDump(rhs)
  }
}
