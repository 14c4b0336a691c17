import Foundation

/// Describes how `new` differs from `old` as a readable line diff of their `customDump`s, or `nil` when they render identically.
///
/// Format: every line starts with a two-character marker — `"- "` (only in `old`),
/// `"+ "` (only in `new`) or `"  "` (unchanged context) — followed by the `customDump`
/// text, indented two spaces per nesting level:
/// ```
///   S(
/// -   count: 1,
/// +   count: 2,
///     name: "a",
///     tags: [
///       [0]: "x",
/// +     [1]: "y"
///     ]
///   )
/// ```
/// - Two values of the same struct/class type, the same enum case, the same tuple shape,
///   or two collections/sets/dictionaries (each rendered on several lines) are compared
///   child by child, so only the changed leaves are marked. Anything else (different
///   types or cases, plain values, single-line renderings) is shown as the whole old
///   value marked `-` followed by the whole new value marked `+`.
/// - Fields are matched by name, dictionary entries by rendered key, set elements by
///   rendering, and array elements by a longest common subsequence of their renderings,
///   so an insertion or removal is a single `+`/`-` element. A removed element shows its
///   old `[index]`; unchanged and inserted elements show their new `[index]`; elements
///   at the same index on both sides that differ are diffed recursively.
/// - A run of unchanged siblings that would take more than 2 lines is collapsed into one
///   `… (N unchanged)` line (without a comma).
/// - Commas follow the merged order: every entry except the last one shown in a container
///   ends with `,`.
public func diff<T>(_ old: T, _ new: T) -> String? {
  var oldBuilder = DumpBuilder()
  var newBuilder = DumpBuilder()
  return diff(oldBuilder.node(for: old, depth: 0), newBuilder.node(for: new, depth: 0))
}

/// `diff(old, new)` of two values already dumped.
func diff(_ oldNode: DumpNode, _ newNode: DumpNode) -> String? {
  guard oldNode.lines != newNode.lines else { return nil }
  var writer = DiffWriter()
  writer.emit(old: oldNode, new: newNode, label: nil, comma: false, indent: 0)
  return writer.output.joined(separator: "\n")
}

/// `diff(old, new)` for a test store's assertion: `old`, the expected state, is rendered on the expected side of an
/// assertion of `tracker` (its shared values show what the test expects), `new` on the actual side (as the asserted
/// step left them; live outside an assertion of a step).
package func diff<T>(_ old: T, _ new: T, asserting tracker: SharedChangeTracker) -> String? {
  var oldBuilder = DumpBuilder()
  var newBuilder = DumpBuilder()
  let oldNode = tracker.asserting { oldBuilder.node(for: old, depth: 0) }
  let newNode = tracker.readingActual { newBuilder.node(for: new, depth: 0) }
  return diff(oldNode, newNode)
}

/// The diffs of one reducer's consecutive state changes, each state dumped from the one before: a state that is
/// the same value as the one just dumped — the state after one action is usually the state before the next, and an
/// action that changes nothing leaves the same state — reuses that dump, and a state that differs is dumped by
/// ``IncrementalDump``, which redoes only the parts whose bytes changed.
///
/// ```swift
/// var dumps = ConsecutiveStateDumps<Counter.State>()
/// dumps.diff(from: State(count: 0), to: State(count: 1))  // dumps `count: 0`'s state, then only `count: 1`
/// dumps.diff(from: State(count: 1), to: State(count: 2))  // dumps only `count: 2`
/// ```
///
/// "The same value" is the same bytes: two copies of a value with the same bytes hold the same numbers and the same
/// references (to copy-on-write storage that is immutable while both copies share it), so they dump alike. Equal
/// values in different bytes are dumped again, which costs time, never correctness. For a whole state, the same
/// bytes are taken for the same dump, as they always were (a reference to a mutable object is dumped as it is when
/// dumped); for a part of a state, only when its type's dump depends on nothing but its bytes (``DumpPurity``: not a
/// shared value, a class or an existential). The cost: one copy of the last state dumped stays alive (what it
/// references too) until the next change is printed.
struct ConsecutiveStateDumps<State> {
  private var last: (state: State, node: DumpNode)?

  /// `diff(before, after)`, or `nil` when the two dump alike.
  mutating func diff(from before: State, to after: State) -> String? {
    if hasSameBytes(before, after) { return nil }
    let beforeNode = node(for: before)
    let afterNode = IncrementalDump.node(of: after, previous: before, previousNode: beforeNode)
    last = (after, afterNode)
    return Unidirectional.diff(beforeNode, afterNode)
  }

  private func node(for state: State) -> DumpNode {
    guard let last else {
      var builder = DumpBuilder()
      return builder.node(for: state, depth: 0)
    }
    if hasSameBytes(last.state, state) { return last.node }
    // Changed since (a parent changed this reducer's state between its actions): dumped from the last state.
    return IncrementalDump.node(of: state, previous: last.state, previousNode: last.node)
  }
}

/// Whether two values are stored in the same bytes (padding included, so equal values may still differ).
func hasSameBytes<T>(_ first: T, _ second: T) -> Bool {
  withUnsafeBytes(of: first) { first in
    withUnsafeBytes(of: second) { second in
      guard let firstBytes = first.baseAddress, let secondBytes = second.baseAddress else {
        return first.count == second.count
      }
      return first.count == second.count && memcmp(firstBytes, secondBytes, first.count) == 0
    }
  }
}

/// Accumulates the lines of a diff between two `DumpNode`s.
struct DiffWriter {
  /// The two-character prefix of each diff line.
  enum Marker: String {
    case context = " "
    case removed = "-"
    case inserted = "+"
  }

  /// One aligned pair (or unpaired child) of two children lists.
  enum Step: Equatable {
    case same(old: Int, new: Int)
    case changed(old: Int, new: Int)
    case removed(old: Int)
    case inserted(new: Int)
  }

  /// Unchanged sibling runs needing more lines than this are collapsed.
  static let maxUnchangedLines = 2
  /// Above this many LCS table cells, arrays are aligned by position instead.
  static let maxLCSCells = 1_000_000

  /// The diff lines written so far.
  private(set) var output: [String] = []

  /// Writes one line with its marker and indentation.
  private mutating func write(_ marker: Marker, indent: Int, _ text: String) {
    output.append(marker.rawValue + " " + String(repeating: " ", count: indent) + text)
  }

  /// Writes a block of lines with one marker, appending a comma to its last line if asked.
  private mutating func write(block: [String], _ marker: Marker, indent: Int, comma: Bool) {
    for (index, line) in block.enumerated() {
      write(marker, indent: indent, line + (comma && index == block.count - 1 ? "," : ""))
    }
  }

  /// Writes the diff of two nodes shown under the same (optional) label.
  mutating func emit(old: DumpNode, new: DumpNode, label: String?, comma: Bool, indent: Int) {
    if old.lines == new.lines {
      write(block: labelled(label, new.lines), .context, indent: indent, comma: comma)
    } else if old.shape == new.shape, old.open == new.open, old.close == new.close,
      old.isMultilineContainer, new.isMultilineContainer
    {
      write(block: labelled(label, [new.open]), .context, indent: indent, comma: false)
      emitChildren(old: old.children, new: new.children, shape: new.shape, indent: indent + 2)
      write(.context, indent: indent, new.close + (comma ? "," : ""))
    } else {
      write(block: labelled(label, old.lines), .removed, indent: indent, comma: comma)
      write(block: labelled(label, new.lines), .inserted, indent: indent, comma: comma)
    }
  }

  /// Writes the aligned children of two containers of the same shape, collapsing unchanged runs.
  private mutating func emitChildren(old: [DumpChild], new: [DumpChild], shape: DumpNode.Shape, indent: Int) {
    let steps = Self.align(old: old, new: new, shape: shape)
    var index = 0
    while index < steps.count {
      guard case .same = steps[index] else {
        let comma = index != steps.count - 1
        switch steps[index] {
        case let .removed(o):
          write(block: old[o].lines, .removed, indent: indent, comma: comma)
        case let .inserted(n):
          write(block: new[n].lines, .inserted, indent: indent, comma: comma)
        case let .changed(o, n):
          emit(old: old[o].node, new: new[n].node, label: new[n].label, comma: comma, indent: indent)
        case .same:
          break
        }
        index += 1
        continue
      }
      var end = index
      while end + 1 < steps.count, case .same = steps[end + 1] { end += 1 }
      var run: [Int] = []
      for step in steps[index...end] {
        if case let .same(_, n) = step { run.append(n) }
      }
      let lineCount = run.reduce(0) { $0 + new[$1].lines.count }
      if lineCount > Self.maxUnchangedLines {
        write(.context, indent: indent, "… (\(run.count) unchanged)")
      } else {
        for (offset, n) in run.enumerated() {
          let comma = index + offset != steps.count - 1
          write(block: new[n].lines, .context, indent: indent, comma: comma)
        }
      }
      index = end + 1
    }
  }

  /// Aligns two children lists according to the container shape.
  static func align(old: [DumpChild], new: [DumpChild], shape: DumpNode.Shape) -> [Step] {
    let matches = commonSubsequence(old.map(\.key), new.map(\.key))
    var steps: [Step] = []
    var nextOld = 0
    var nextNew = 0
    for (matchOld, matchNew) in matches + [(old.count, new.count)] {
      steps += gap(old: old, oldRange: nextOld..<matchOld, new: new, newRange: nextNew..<matchNew, shape: shape)
      if matchOld < old.count, matchNew < new.count {
        let same = old[matchOld].node.lines == new[matchNew].node.lines
        steps.append(same ? .same(old: matchOld, new: matchNew) : .changed(old: matchOld, new: matchNew))
      }
      nextOld = matchOld + 1
      nextNew = matchNew + 1
    }
    return steps
  }

  /// Orders the unmatched children between two matches.
  private static func gap(
    old: [DumpChild], oldRange: Range<Int>, new: [DumpChild], newRange: Range<Int>, shape: DumpNode.Shape
  ) -> [Step] {
    switch shape {
    case .collection where oldRange.lowerBound == newRange.lowerBound:
      // Same starting index on both sides: pair elements index by index and diff them.
      let paired = min(oldRange.count, newRange.count)
      return (0..<paired).map { .changed(old: oldRange.lowerBound + $0, new: newRange.lowerBound + $0) }
        + oldRange.dropFirst(paired).map { .removed(old: $0) }
        + newRange.dropFirst(paired).map { .inserted(new: $0) }
    case .dictionary, .set:
      // Keep the merged entries sorted by key (sets: by rendering).
      var steps: [Step] = []
      var o = oldRange.lowerBound
      var n = newRange.lowerBound
      while o < oldRange.upperBound || n < newRange.upperBound {
        if n >= newRange.upperBound || (o < oldRange.upperBound && old[o].key < new[n].key) {
          steps.append(.removed(old: o))
          o += 1
        } else {
          steps.append(.inserted(new: n))
          n += 1
        }
      }
      return steps
    default:
      return oldRange.map { .removed(old: $0) } + newRange.map { .inserted(new: $0) }
    }
  }

  /// The index pairs of a longest common subsequence of `a` and `b` (common prefix/suffix first).
  static func commonSubsequence(_ a: [String], _ b: [String]) -> [(Int, Int)] {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix,
      a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    { suffix += 1 }

    var pairs = (0..<prefix).map { ($0, $0) }
    let n = a.count - prefix - suffix
    let m = b.count - prefix - suffix
    if n > 0, m > 0, n * m <= maxLCSCells {
      // table[i * width + j] = LCS length of a[prefix + i ..< end] and b[prefix + j ..< end].
      let width = m + 1
      var table = [Int32](repeating: 0, count: (n + 1) * width)
      for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
          table[i * width + j] =
            a[prefix + i] == b[prefix + j]
            ? table[(i + 1) * width + j + 1] + 1
            : max(table[(i + 1) * width + j], table[i * width + j + 1])
        }
      }
      var i = 0
      var j = 0
      while i < n, j < m {
        if a[prefix + i] == b[prefix + j] {
          pairs.append((prefix + i, prefix + j))
          i += 1
          j += 1
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
          i += 1
        } else {
          j += 1
        }
      }
    }
    pairs += (0..<suffix).map { (a.count - suffix + $0, b.count - suffix + $0) }
    return pairs
  }
}
