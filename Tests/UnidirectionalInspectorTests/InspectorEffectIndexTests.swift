import XCTest

@testable import UnidirectionalInspector

/// The index behind both timelines: effects kept by starting step, a window's effects found without looking at the
/// ones that ended long before.
final class InspectorEffectIndexTests: XCTestCase {
  private func effect(_ id: UInt64, _ startedBy: Int, to endStep: Int?) -> InspectorEffect {
    InspectorEffect(
      id: id, startedBy: startedBy, parent: nil, name: "", endStep: endStep, cancelled: false, cancelStep: nil,
      start: 0, duration: nil)
  }

  func testEffectsAddedOutOfOrderOrEndingLaterAreFoundInTheirWindows() {
    var index = InspectorEffectIndex([effect(1, 1, to: 2), effect(3, 5, to: nil)])
    index.upsert(effect(2, 3, to: 4))  // started by an earlier step than the last one kept
    index.upsert(effect(4, 9, to: 9))
    XCTAssertEqual(index.effects.map(\.id), [1, 2, 3, 4])
    XCTAssertEqual(index.page(from: 3, to: 3, offset: 0, count: 9).effects.map(\.id), [2])
    XCTAssertEqual(index.page(from: 6, to: 20, offset: 0, count: 9).effects.map(\.id), [3, 4], "3 still runs")
    index.upsert(effect(3, 5, to: 6))  // effect 3 ends at step 6
    XCTAssertEqual(index.page(from: 7, to: 20, offset: 0, count: 9).effects.map(\.id), [4])
    XCTAssertEqual(index.page(from: 6, to: 6, offset: 0, count: 9).effects.map(\.id), [3])
    XCTAssertEqual(index.page(from: 1, to: 20, offset: 1, count: 2).effects.map(\.id), [2, 3])
    XCTAssertEqual(index.page(from: 1, to: 20, offset: 1, count: 2).total, 4)
    index.removeFirst(2)
    XCTAssertEqual(index.page(from: 1, to: 20, offset: 0, count: 9).effects.map(\.id), [3, 4])
    XCTAssertEqual(index.effect(3)?.endStep, 6)
    XCTAssertNil(index.effect(1))
  }
}
