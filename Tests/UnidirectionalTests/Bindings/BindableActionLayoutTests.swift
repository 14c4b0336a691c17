@testable import Unidirectional
import XCTest

private struct Form: Equatable {
  var title = ""
  var count = 0
}

/// Only the binding case has a payload: a single-payload enum, its other cases in the payload's spare bits.
private enum SinglePayload: BindableAction {
  case tap, appear, disappear
  case binding(BindingAction<Form>)
}

/// Payloads of several sizes and kinds around the binding case, which is not the first.
private enum MultiPayload: BindableAction {
  case count(Int)
  case text(String)
  case big((Int, Int, Int, Int, Int, Int))
  case object(NSObjectLike)
  case binding(BindingAction<Form>)
  case tap
  final class NSObjectLike: Sendable {}
}

private enum OnlyBinding: BindableAction {
  case binding(BindingAction<Form>)
}

private enum Indirect: BindableAction {
  indirect case binding(BindingAction<Form>)
  indirect case child(Indirect)
  case tap
}

private enum Generic<Payload: Sendable>: BindableAction {
  case payload(Payload)
  case binding(BindingAction<Form>)
}

/// A struct can conform too (it has no cases): reflection finds nothing, and nothing traps.
private struct NotAnEnum: BindableAction {
  var wrapped: BindingAction<Form>?
  static func binding(_ action: BindingAction<Form>) -> Self { Self(wrapped: action) }
}

/// The default `binding` rules other cases out by the runtime's case tag and reads the binding by reflection:
/// both must agree on every enum layout.
final class BindableActionLayoutTests: XCTestCase {
  private let title = BindingAction<Form>.set(\.title, "Milk")

  func testASinglePayloadEnum() {
    XCTAssertEqual(SinglePayload.binding(title).binding, title)
    for other in [SinglePayload.tap, .appear, .disappear] { XCTAssertNil(other.binding) }
  }

  func testAMultiPayloadEnum() {
    XCTAssertEqual(MultiPayload.binding(title).binding, title)
    let others: [MultiPayload] = [.count(1), .text("binding"), .big((1, 2, 3, 4, 5, 6)), .object(.init()), .tap]
    for other in others { XCTAssertNil(other.binding) }
  }

  func testAnEnumOfOnlyTheBindingCase() {
    XCTAssertEqual(OnlyBinding.binding(title).binding, title)
  }

  func testIndirectCases() {
    XCTAssertEqual(Indirect.binding(title).binding, title)
    XCTAssertNil(Indirect.child(.binding(title)).binding)
    XCTAssertNil(Indirect.tap.binding)
  }

  func testAGenericEnum() {
    XCTAssertEqual(Generic<String>.binding(title).binding, title)
    XCTAssertNil(Generic<String>.payload("x").binding)
    XCTAssertEqual(Generic<Int>.binding(title).binding, title)
    XCTAssertNil(Generic<Int>.payload(1).binding)
  }

  func testAStructHasNoBindingCase() {
    XCTAssertNil(NotAnEnum.binding(title).binding)
  }

  func testTheTagNumbersPayloadCasesFirstThenTheOthers() {
    XCTAssertEqual(EnumCaseTag.of(MultiPayload.count(1)), 0)
    XCTAssertEqual(EnumCaseTag.of(MultiPayload.binding(title)), 4)
    XCTAssertEqual(EnumCaseTag.of(MultiPayload.tap), 5)
    XCTAssertEqual(EnumCaseTag.of(SinglePayload.binding(title)), 0)
    XCTAssertEqual(EnumCaseTag.of(SinglePayload.disappear), 3)
    XCTAssertEqual(EnumCaseTag.of(Int?.none), 1)
    XCTAssertNil(EnumCaseTag.of(NotAnEnum()))
    XCTAssertNil(EnumCaseTag.of(42))
  }
}
