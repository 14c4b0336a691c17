import Foundation

/// Dumps a value again from the dump of an earlier value of the same type, redoing only the parts that changed:
/// what ``ConsecutiveStateDumps`` does with each state a printed reducer leaves, where one action usually changes a
/// few fields of a large state.
///
/// ```swift
/// let before = Counter.State(count: 1, history: longHistory)
/// let beforeNode = …                                      // dumped once
/// let after = Counter.State(count: 2, history: longHistory)
/// IncrementalDump.node(of: after, previous: before, previousNode: beforeNode)
/// // walks `after`'s fields in memory: `count` is dumped, `history` (the same bytes) keeps its dump
/// ```
///
/// The result is the node ``DumpBuilder`` makes for the value, as long as the earlier node is the one it made for
/// the earlier value: a part whose type is pure (``DumpPurity``) and whose bytes are the same as the earlier part's
/// keeps the earlier part's node; a number, `Bool` or `String` is rendered in place; a plain struct (``DumpLayout``)
/// is rebuilt from its fields, each dumped the same way; anything else is dumped with ``DumpBuilder``.
enum IncrementalDump {
  /// The dump of `value`, reusing `previousNode`, the dump of `previous`.
  static func node<Value>(of value: Value, previous: Value, previousNode: DumpNode) -> DumpNode {
    let layout = DumpLayout.of(Value.self)
    return withUnsafePointer(to: value) { new in
      withUnsafePointer(to: previous) { old in
        node(layout, at: UnsafeRawPointer(new), previous: UnsafeRawPointer(old), previousNode: previousNode, depth: 0)
          .node
      }
    }
  }

  /// The node of the value of `layout`'s type at `new`, and whether it is `previousNode` itself.
  private static func node(
    _ layout: DumpLayout, at new: UnsafeRawPointer, previous old: UnsafeRawPointer, previousNode: DumpNode,
    depth: Int
  ) -> (node: DumpNode, isPrevious: Bool) {
    if depth > DumpBuilder.maxDepth { return (.leaf("…"), false) }
    if layout.isPure, memcmp(new, old, layout.size) == 0 { return (previousNode, true) }
    if let leaf = layout.leaf { return (.leaf(leaf(new)), false) }
    if let fields = layout.fields, previousNode.shape == .structure, previousNode.children.count == fields.count {
      var children: [DumpChild] = []
      children.reserveCapacity(fields.count)
      for (index, field) in fields.enumerated() {
        let previousChild = previousNode.children[index]
        let (child, isPrevious) = node(
          field.layout, at: new + field.offset, previous: old + field.offset, previousNode: previousChild.node,
          depth: depth + 1)
        children.append(isPrevious ? previousChild : DumpChild(label: field.label, key: field.label, node: child))
      }
      return (.container(.structure, open: layout.open, close: ")", children: children), false)
    }
    var builder = DumpBuilder()
    return (builder.node(for: layout.load(from: new), depth: depth), false)
  }
}
