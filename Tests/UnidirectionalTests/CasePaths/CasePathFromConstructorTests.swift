import Foundation
import Testing

@testable import Unidirectional

// `CasePath(Action.child)`: extraction derived from the case's constructor alone. Ported from swift-case-paths'
// reflection tests (`ReflectionTests`, `CasePathsTests` of its 0.x releases): payloads of every shape, cases that
// share a payload type, generic, indirect and optional enums, and what it refuses to guess.

private enum Child: Equatable, Sendable { case tap, response(String) }
private final class Reference: Sendable {}
private protocol Shape: Sendable {}
private struct Square: Shape, Equatable {}

private enum Action: Sendable {
  case child(Child)
  case tap
  case first(Int)
  case second(Int)
  case row(id: Int, action: Child)
  case labelled(value: String)
  case reference(Reference)
  case optional(Int?)
  case shape(any Shape)
  case error(any Error)
  case callback(@Sendable () -> Int)
  indirect case boxed(Action)
  case pair(String, [Int])
  case presentation(PresentationAction<Child>)
  case result(Result<Int, TestFailure>)
  case done
}

private struct TestFailure: Error, Equatable {}

// Payloads without bytes: the runtime lays their cases out as cases without payload, after the others.
private enum OneCase: Equatable, Sendable { case only }
private struct Nothing: Equatable, Sendable {}
private enum Sizeless: Sendable { case first(OneCase), plain, second(Nothing), third(Int) }

private func issues(_ body: () -> Void) -> [String] {
  let issues = LockIsolated<[String]>([])
  withDependencies {
    $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
  } operation: {
    body()
  }
  return issues.value
}

@Suite struct CasePathFromConstructorTests {
  @Test func extractsThePayloadOfItsCaseAndNothingElse() {
    let child = CasePath(Action.child)
    #expect(child.extract(.child(.tap)) == .tap)
    #expect(child.extract(.child(.response("Hi"))) == .response("Hi"))
    #expect(child.extract(.tap) == nil)
    #expect(child.extract(.first(1)) == nil)
    #expect(child.extract(.done) == nil)
    guard case .child(.tap) = child.embed(.tap) else { Issue.record("embed makes the case"); return }
  }

  @Test func aCaseSharingItsPayloadTypeWithAnotherIsToldApart() {
    let first = CasePath(Action.first)
    let second = CasePath(Action.second)
    #expect(first.extract(.first(1)) == 1)
    #expect(first.extract(.second(2)) == nil)
    #expect(second.extract(.second(2)) == 2)
    #expect(second.extract(.first(1)) == nil)
  }

  @Test func labelledCasesGiveTuplesOrTheirOneValue() {
    let row = CasePath(Action.row)
    let extracted = row.extract(.row(id: 7, action: .tap))
    #expect(extracted?.0 == 7)
    #expect(extracted?.1 == .tap)
    #expect(CasePath(Action.labelled).extract(.labelled(value: "x")) == "x")
    let pair = CasePath(Action.pair).extract(.pair("a", [1, 2]))
    #expect(pair?.0 == "a")
    #expect(pair?.1 == [1, 2])
  }

  @Test func referencesOptionalsAndExistentialsOfTheirExactType() {
    let reference = Reference()
    #expect(CasePath(Action.reference).extract(.reference(reference)) === reference)
    let optional = CasePath(Action.optional)
    #expect(optional.extract(.optional(nil)) == .some(nil))
    #expect(optional.extract(.optional(3)) == .some(3))
    #expect(CasePath(Action.shape).extract(.shape(Square())) as? Square == Square())
    #expect(CasePath(Action.error).extract(.error(TestFailure())) as? TestFailure == TestFailure())
  }

  @Test func genericIndirectAndNestedEnums() {
    #expect(CasePath(Action.presentation).extract(.presentation(.presented(.tap))) == .presented(.tap))
    #expect(CasePath(PresentationAction<Child>.presented).extract(.presented(.response("r"))) == .response("r"))
    #expect(CasePath(PresentationAction<Child>.presented).extract(.dismiss) == nil)
    #expect(CasePath(Result<Int, TestFailure>.success).extract(.success(1)) == 1)
    #expect(CasePath(Result<Int, TestFailure>.failure).extract(.failure(TestFailure())) == TestFailure())
    #expect(CasePath(Result<Int, TestFailure>.failure).extract(.success(1)) == nil)
    let boxed = CasePath(Action.boxed)
    guard case .first(1)? = boxed.extract(.boxed(.first(1))) else {
      Issue.record("an indirect case's payload is read from its box")
      return
    }
    #expect(boxed.extract(.first(1)) == nil)
    #expect(CasePath(Optional<String>.some).extract("x") == "x")
    #expect(CasePath(Optional<String>.some).extract(nil) == nil)
  }

  @Test func payloadsWithoutBytes() {
    #expect(CasePath(Sizeless.first).extract(.first(.only)) == .only)
    #expect(CasePath(Sizeless.first).extract(.second(Nothing())) == nil)
    #expect(CasePath(Sizeless.second).extract(.second(Nothing())) == Nothing())
    #expect(CasePath(Sizeless.second).extract(.plain) == nil)
    #expect(CasePath(Sizeless.third).extract(.third(3)) == 3)
    #expect(CasePath(Sizeless.plain).extract(.plain) != nil)
    #expect(CasePath(Sizeless.plain).extract(.first(.only)) == nil)
  }

  @Test func aCaseWithoutPayloadFromTheCaseItself() {
    let tap = CasePath(Action.tap)
    #expect(tap.extract(.tap) != nil)
    #expect(tap.extract(.done) == nil)
    #expect(tap.extract(.first(0)) == nil)
    guard case .tap = tap.embed(()) else { Issue.record("embed gives the case"); return }
  }

  @Test func aValueOfACaseWithAPayloadIsAnIssue() {
    let found = issues { #expect(CasePath(Action.first(1)).extract(.first(1)) == nil) }
    #expect(found.count == 1)
    #expect(found.first?.contains("pass its constructor") == true, "\(found)")
  }

  @Test func aConstructorConvertedToAnotherPayloadTypeIsAnIssueNotAGuess() {
    // Swift converts `(Int?) -> Action` to `(Int) -> Action`: the payload in memory is an `Int?`, not an `Int`.
    let found = issues {
      let promoted = CasePath<Action, Reference>(Action.reference)  // exact: fine
      #expect(promoted.extract(.reference(Reference())) != nil)
      let square = CasePath<Action, Square>(Action.shape)  // the payload is `any Shape`
      #expect(square.extract(.shape(Square())) == nil)
    }
    #expect(found.count == 1)
    #expect(found.first?.contains("no case has exactly that payload") == true, "\(found)")
    // Where other cases hold an `Int`, a promoted constructor never extracts theirs, nor its own.
    let promoted = CasePath<Action, Int>(Action.optional)
    #expect(promoted.extract(.first(1)) == nil)
    #expect(promoted.extract(.optional(3)) == nil)
  }

  @Test func aFunctionPayloadIsNotRead() {
    let found = issues { #expect(CasePath(Action.callback).extract(.callback({ 1 })) == nil) }
    #expect(found.count == 1)
  }

  @Test func aStructIsNotAnEnum() {
    struct Wrapper: Sendable { var value: Int }
    let found = issues { #expect(CasePath(Wrapper.init(value:)).extract(Wrapper(value: 1)) == nil) }
    #expect(found.first?.contains("it is not an enum") == true, "\(found)")
  }

  @Test func mirrorFallbackAgreesWithTheRuntimeMetadata() {
    // What 32-bit and arm64e platforms use.
    #expect(CasePath.extractByMirror(Action.child(.tap), embed: Action.child) == .tap)
    #expect(CasePath.extractByMirror(Action.second(2), embed: Action.first) == nil)
    #expect(CasePath.extractByMirror(Action.first(1), embed: Action.first) == 1)
    #expect(CasePath.extractByMirror(Action.tap, embed: Action.child) == nil)
  }

  @Test func manyThreadsDeriveAndExtractAtOnce() async {
    await withTaskGroup(of: Int.self) { group in
      for index in 0..<8 {
        group.addTask {
          var found = 0
          for value in 0..<1_000 where CasePath(Action.second).extract(.second(value + index)) != nil { found += 1 }
          return found
        }
      }
      var total = 0
      for await found in group { total += found }
      #expect(total == 8_000)
    }
  }
}
