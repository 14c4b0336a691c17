import CaptureSession
import Foundation
import Scan
import Testing
import Unidirectional
import UnidirectionalTesting

/// The steps of the test written from the demo's recording (`Emitted/ScanDemoSessionTests.swift`), run against
/// changed scan reducers: each fails at the step that changed, with the `TestStore`'s own message.
@Suite struct ScanDemoSessionChangesTests {
  /// `ScanFeature` with one effect removed: *Create 3D model* no longer sends the capture's `createModel` delegate
  /// action.
  struct WithoutCreateModelEffect: Reducer {
    func reduce(into state: inout ScanFeature.State, action: ScanFeature.Action) -> Effect<ScanFeature.Action> {
      let effect = ScanFeature().reduce(into: &state, action: action)
      if case .capture(.createModelTapped) = action { return .none }
      return effect
    }
  }

  /// `ScanFeature` changed: asking for a model keeps the capture session's state instead of releasing it.
  struct KeepingTheCapture: Reducer {
    func reduce(into state: inout ScanFeature.State, action: ScanFeature.Action) -> Effect<ScanFeature.Action> {
      let capture = state.capture
      let effect = ScanFeature().reduce(into: &state, action: action)
      if case .capture(.delegate(.createModel)) = action { state.capture = capture }
      return effect
    }
  }

  @Test func aRemovedEffectFailsAtTheStepThatReceivedItsAction() async throws {
    let failures = try await failures(of: WithoutCreateModelEffect())
    let first = try #require(failures.first)
    #expect(try sourceLine(of: first) == "await store.receive(.capture(.delegate(.createModel([")
    #expect(
      first.message.hasPrefix(
        "Expected to receive ScanFeature.Action.capture(CaptureSessionFeature.Action.delegate("
          + "CaptureSessionFeature.Action.Delegate.createModel("), "\(first.message)")
    #expect(first.message.contains("but received none"), "\(first.message)")
  }

  @Test func aChangedStateFailsAtItsStepWithTheStateDiff() async throws {
    let failures = try await failures(of: KeepingTheCapture())
    let first = try #require(failures.first)
    #expect(try sourceLine(of: first) == "await store.receive(.capture(.delegate(.createModel([")
    #expect(first.message.contains("-   capture: nil,"), "\(first.message)")
    #expect(first.message.contains("+   capture: CaptureSessionFeature.State("), "\(first.message)")
  }

  /// The failures of the emitted steps run against `reducer`, in order.
  private func failures(of reducer: some Reducer<ScanFeature.State, ScanFeature.Action>) async throws -> [TestFailure] {
    let failures = LockIsolated<[TestFailure]>([])
    try await scanDemoSessionSteps(
      reducer: reducer, reporter: TestReporter { failure in failures.withLock { $0.append(failure) } })
    return failures.value.filter { !$0.isSkippedAssertion }
  }

  /// The line of the emitted test a failure points at.
  private func sourceLine(of failure: TestFailure) throws -> String {
    #expect("\(failure.filePath)".hasSuffix("Emitted/ScanDemoSessionTests.swift"))
    let text = try String(contentsOfFile: "\(failure.filePath)", encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines[Int(failure.line) - 1].trimmingCharacters(in: .whitespaces)
  }
}
