import Foundation
import XCTest

@testable import Unidirectional

/// A state of every kind of part the incremental dump treats differently: numbers and strings rendered in place,
/// nested plain structs walked in memory, collections, optionals and enums dumped whole when they change, property
/// wrappers shown under their property's name, a shared value, a class and a weak reference (never taken for
/// unchanged from their bytes), an existential.
private struct Root {
  struct Leaf: Equatable {
    var count = 0
    var ratio = 0.5
    var flag = false
  }

  struct Middle: Equatable {
    var leaf = Leaf()
    var name = "middle"
    var small: Int8 = 1
  }

  enum Mode: Equatable {
    case idle
    case loading(id: Int)
    case done(Middle)
  }

  struct Empty {}

  var count = 0
  var title = "Title"
  var middle = Middle()
  var rows: [Leaf] = [Leaf(), Leaf(count: 1)]
  var optional: Middle?
  var mode = Mode.idle
  var identified: IdentifiedArrayOf<Row> = [Row(id: 1, text: "a")]
  var dictionary: [String: Int] = ["a": 1]
  var empty = Empty()
  @Shared var shared: Int
  var box: Box
  weak var weakBox: Box?
  var anything: Any = 1
  var tuple = (1, "two")
  var type: Any.Type = Int.self
}

/// A feature's state as TCA users write them: values, a shared value, a presented child.
private struct Feature {
  var count = 0
  @Shared var shared: Int
  var middle = Root.Middle()
  @PresentationState var destination: Root.Middle?
}

private struct Row: Equatable, Identifiable {
  let id: Int
  var text: String
}

/// A class whose contents change without its reference changing.
private final class Box {
  var value = 0
}

final class IncrementalDumpTests: XCTestCase {
  /// Each change, applied to a copy of the state before it, dumps incrementally exactly as a full dump does.
  func testAnIncrementalDumpIsTheFullDumpAfterEveryKindOfChange() {
    let box = Box()
    let shared = Shared(value: 0)
    var state = Root(shared: shared, box: box)
    state.weakBox = box
    let changes: [(String, (inout Root) -> Void)] = [
      ("nothing", { _ in }),
      ("count", { $0.count += 1 }),
      ("title", { $0.title = "Other \"title\"\nwith a line" }),
      ("leaf deep inside", { $0.middle.leaf.count += 1 }),
      ("double", { $0.middle.leaf.ratio = 1.25 }),
      ("bool", { $0.middle.leaf.flag.toggle() }),
      ("int8", { $0.middle.small = -3 }),
      ("row appended", { $0.rows.append(Root.Leaf(count: 9)) }),
      ("row changed", { $0.rows[0].count = 5 }),
      ("optional set", { $0.optional = Root.Middle() }),
      ("optional changed", { $0.optional?.leaf.count = 7 }),
      ("optional cleared", { $0.optional = nil }),
      ("enum payload", { $0.mode = .loading(id: 3) }),
      ("enum struct payload", { $0.mode = .done(Root.Middle()) }),
      ("enum back to no payload", { $0.mode = .idle }),
      ("identified row", { $0.identified[id: 1]?.text = "b" }),
      ("dictionary", { $0.dictionary["b"] = 2 }),
      ("shared value (same bytes)", { $0.$shared.withLock { $0 += 1 } }),
      ("class contents (same bytes)", { $0.box.value += 1 }),
      (
        "shared and count",
        {
          $0.$shared.withLock { $0 += 1 }
          $0.count += 1
        }
      ),
      (
        "class contents and count",
        {
          $0.box.value += 1
          $0.count += 1
        }
      ),
      ("existential", { $0.anything = "now a string" }),
      ("tuple", { $0.tuple.1 = "three" }),
      ("metatype", { $0.type = String.self }),
    ]
    for (name, change) in changes {
      var builder = DumpBuilder()
      let before = state
      let beforeNode = builder.node(for: before, depth: 0)
      change(&state)
      var fullBuilder = DumpBuilder()
      let full = fullBuilder.node(for: state, depth: 0)
      let incremental = IncrementalDump.node(of: state, previous: before, previousNode: beforeNode)
      XCTAssertEqual(incremental, full, name)
    }
  }

  /// A printed reducer's diffs, one state after another, are those it printed when it dumped every state in full
  /// (the reference below, the algorithm before incremental dumps), including when the state changes between them (a
  /// parent) and when a shared value or a class changes behind the same bytes.
  func testConsecutiveDiffsAreThoseOfFullDumps() {
    var dumps = ConsecutiveStateDumps<Root>()
    var reference = FullDumps<Root>()
    var state = Root(shared: Shared(value: 0), box: Box())
    let steps: [(inout Root) -> Void] = [
      { $0.count += 1 },
      { $0.middle.leaf.count += 1 },
      { $0.rows.append(Root.Leaf(count: 2)) },
      { $0.mode = .loading(id: 1) },
      { $0.$shared.withLock { $0 += 1 } },
      {
        $0.$shared.withLock { $0 += 1 }
        $0.title = "t"
      },
      {
        $0.box.value += 1
        $0.count += 1
      },
      { $0.optional = Root.Middle() },
      { $0.optional?.name = "named" },
    ]
    for (index, step) in steps.enumerated() {
      if index == 3 { state.middle.name = "changed by a parent" }
      let before = state
      step(&state)
      XCTAssertEqual(dumps.diff(from: before, to: state), reference.diff(from: before, to: state), "step \(index)")
    }
  }

  /// A plain struct holding a shared value is walked in memory; the shared value is dumped each time (its bytes
  /// stay the same when it changes).
  func testASharedValueInAPlainStructIsDumpedAgainEveryTime() {
    var state = Feature(shared: Shared(value: 0))
    XCTAssertNotNil(DumpLayout.of(Feature.self).fields)
    let changes: [(inout Feature) -> Void] = [
      { $0.$shared.withLock { $0 += 1 } },
      {
        $0.$shared.withLock { $0 += 1 }
        $0.count += 1
      },
      { $0.middle.leaf.count += 1 },
      { $0.destination = Root.Middle() },
      { $0.destination?.leaf.flag = true },
    ]
    for (index, change) in changes.enumerated() {
      var builder = DumpBuilder()
      let before = state
      let beforeNode = builder.node(for: before, depth: 0)
      change(&state)
      var fullBuilder = DumpBuilder()
      XCTAssertEqual(
        IncrementalDump.node(of: state, previous: before, previousNode: beforeNode),
        fullBuilder.node(for: state, depth: 0), "change \(index)")
    }
  }

  func testTheLayoutOfAPlainStructListsItsFieldsAsMirrorDoes() {
    let layout = DumpLayout.of(Root.Middle.self)
    XCTAssertEqual(layout.fields?.map(\.label), Mirror(reflecting: Root.Middle()).children.map(\.label))
    XCTAssertTrue(layout.isPure)
    // A class, a weak reference or an existential directly in it: walked with `Mirror` instead.
    XCTAssertNil(DumpLayout.of(Root.self).fields)
    XCTAssertFalse(DumpLayout.of(Root.self).isPure)
  }

  func testPurity() {
    XCTAssertTrue(DumpPurity.isPure(Int.self))
    XCTAssertTrue(DumpPurity.isPure(String.self))
    XCTAssertTrue(DumpPurity.isPure([Root.Leaf].self))
    XCTAssertTrue(DumpPurity.isPure(Root.Mode.self))
    XCTAssertTrue(DumpPurity.isPure(IdentifiedArrayOf<Row>.self))
    XCTAssertTrue(DumpPurity.isPure([String: Root.Middle?].self))
    XCTAssertTrue(DumpPurity.isPure(Tree.self), "a recursive enum of pure parts")
    XCTAssertFalse(DumpPurity.isPure(Shared<Int>.self))
    XCTAssertFalse(DumpPurity.isPure(Box.self))
    XCTAssertFalse(DumpPurity.isPure([Box].self))
    XCTAssertFalse(DumpPurity.isPure(Any.self))
    XCTAssertFalse(DumpPurity.isPure(Described.self), "describes itself")
    XCTAssertFalse(DumpPurity.isPure(TreeOfBoxes.self))
  }

  /// Cases with a payload, taken out through the enum's value witnesses, dump as `Mirror` dumps them: nested,
  /// generic, `indirect`, an optional or a struct payload; tuples and self-describing enums are still reflected.
  func testACaseWithAPayloadIsDumpedAsMirrorDumpsIt() {
    XCTAssertEqual(customDump(Nested.child(.child(.leaf))), "Nested.child(Nested.Inner.child(Nested.Innermost.leaf))")
    XCTAssertEqual(
      customDump(Tree.node([.leaf(1), .leaf(2)])),
      "Tree.node(\n  [\n    [0]: Tree.leaf(1),\n    [1]: Tree.leaf(2)\n  ]\n)")
    XCTAssertEqual(customDump(Generic<String>.value("a\nb")), #"Generic<String>.value("a\nb")"#)
    XCTAssertEqual(customDump(Generic<Int?>.value(nil)), "Generic<Optional<Int>>.value(nil)")
    XCTAssertEqual(
      customDump(Root.Mode.done(Root.Middle())),
      """
      Root.Mode.done(
        Root.Middle(
          leaf: Root.Leaf(
            count: 0,
            ratio: 0.5,
            flag: false
          ),
          name: "middle",
          small: 1
        )
      )
      """)
    XCTAssertEqual(customDump(Root.Mode.loading(id: 4)), "Root.Mode.loading(id: 4)")
    XCTAssertEqual(customDump(Nested.pair(1, "b")), #"Nested.pair(1, "b")"#)
    XCTAssertEqual(customDump(Described.two(2)), "Described.two(2)")
    XCTAssertEqual(describe(Nested.child(.child(.leaf))), "Nested.child(Nested.Inner.child(Nested.Innermost.leaf))")
  }

  func testACaseWithoutPayloadIsDumpedAsMirrorDumpsIt() {
    XCTAssertEqual(EnumCaseDumps.text(of: Root.Mode.idle), "Root.Mode.idle")
    XCTAssertNil(EnumCaseDumps.text(of: Root.Mode.loading(id: 1)))
    XCTAssertNil(EnumCaseDumps.text(of: Described.one), "describes itself")
    XCTAssertEqual(customDump(Described.one), "Described.uno")
    XCTAssertEqual(describe(Root.Mode.idle), "Root.Mode.idle")
    XCTAssertEqual(describe(Root.Mode.loading(id: 2)), "Root.Mode.loading(id: 2)")
  }
}

private indirect enum Tree {
  case leaf(Int)
  case node([Tree])
}

private indirect enum TreeOfBoxes {
  case leaf(Box)
  case node(TreeOfBoxes)
}

private enum Described: CustomStringConvertible {
  case one
  case two(Int)
  var description: String { "uno" }
}

private enum Nested {
  enum Inner {
    case child(Innermost)
  }
  enum Innermost {
    case leaf
  }
  case child(Inner)
  case pair(Int, String)
}

private enum Generic<Value> {
  case value(Value)
  case none
}

/// ``ConsecutiveStateDumps`` as it was before incremental dumps: the state after is always dumped in full.
private struct FullDumps<State> {
  private var last: (state: State, node: DumpNode)?

  mutating func diff(from before: State, to after: State) -> String? {
    if hasSameBytes(before, after) { return nil }
    var builder = DumpBuilder()
    let beforeNode =
      last.flatMap { hasSameBytes($0.state, before) ? $0.node : nil } ?? builder.node(for: before, depth: 0)
    let afterNode = builder.node(for: after, depth: 0)
    last = (after, afterNode)
    return Unidirectional.diff(beforeNode, afterNode)
  }
}
