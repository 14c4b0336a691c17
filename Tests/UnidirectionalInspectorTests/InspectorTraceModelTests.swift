import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

@testable import UnidirectionalInspector

/// A failing explored run, saved by the explorer as a trace with its states, opens in the inspector alone: its
/// steps, each action, the state after it and the diff it made, and the effect timeline — with no reducer and no
/// `Codable` actions.
@MainActor
struct InspectorTraceModelTests {
  /// A search that forgets to cancel the search in flight: the older answer may land last.
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }
    enum Action: Equatable {
      case queryChanged(String)
      case response([String])
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .run { send in send(.response(try await withRacing { ["\(query)!"] })) }
      case let .response(results):
        state.results = results
        return .none
      }
    }
  }

  @Test func theExplorersFailingRunOpensAsAnActionLogWithItsEffects() async throws {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      let store = TestStore(initialState: Search.State()) { Search() }
      store.exhaustivity = .off
      await store.send(.queryChanged("a"))
      await store.send(.queryChanged("ab"))
      await store.skipReceivedActions(strict: false)
      #expect(store.state.results == ["ab!"])
    }
    let url = try #require(report.failingRunTrace)
    #expect(url.path.contains(".build/explorations/InspectorTraceModelTests-"))
    let model = try InspectorTraceModel(contentsOf: url)
    #expect(model.stepCount == 4)
    #expect(model.hasStates)
    #expect(model.effectCount == 2)
    #expect(model.info().mode == "trace")
    #expect(model.info().feature == "InspectorTraceModelTests.Search")
    #expect(
      model.steps(from: 0, count: 10, filter: nil).steps.map { "\($0.origin) \($0.name)" }
        == ["sent queryChanged", "sent queryChanged", "received response", "received response"])
    let last = try model.step(4)
    #expect(last.action.hasSuffix(#"Search.Action.response([[0]: "a!"])"#), "the older answer, last")
    #expect(last.state.contains("results: [\n    [0]: \"a!\"\n  ]"))
    #expect(last.diff?.contains(#"-     [0]: "ab!""#) == true, "\(last.diff ?? "no diff")")
    #expect(last.diff?.contains(#"+     [0]: "a!""#) == true, "\(last.diff ?? "no diff")")
    #expect(model.effects(from: 1, to: 4, offset: 0, count: 10).effects.map(\.startedBy) == [1, 2])
    #expect(model.steps(from: 0, count: 10, filter: "resp").total == 2)
  }

  @Test func aTraceWithoutStatesOpensWithItsActionsOnly() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/every-event.trace.json")
    let model = try InspectorTraceModel(contentsOf: fixture, feature: "Uploads")
    #expect(model.stepCount == 4)
    #expect(model.steps(from: 0, count: 4, filter: nil).steps.map(\.name) == ["start", "progress", "rename", "cancel"])
    let renamed = try model.step(3)
    #expect(renamed.action == #"Uploads.Action.rename("a \"quoted\" name\n")"#)
    #expect(renamed.state == #"Uploads.State(name: "a \"quoted\" name\n")"#)
    #expect(renamed.diff?.hasPrefix("  Uploads.State(\n-   name: \"\"") == true)
    #expect(try model.step(1).state.hasPrefix("(the trace does not record states"))
    #expect(throws: InspectorError.noSuchStep(5)) { try model.step(5) }
  }

  @Test func caseNamesComeFromTheShortNames() {
    #expect(InspectorTraceSteps.caseName(#".queryChanged("ab")"#) == "queryChanged")
    #expect(InspectorTraceSteps.caseName(".row(id: 3, action: .tap)") == "row.tap")
    #expect(InspectorTraceSteps.caseName(".child(.presented(.save))") == "child.presented.save")
    #expect(InspectorTraceSteps.caseName(".tick") == "tick")
    #expect(InspectorTraceSteps.caseName("Counter.Action") == "Counter.Action")
  }
}
