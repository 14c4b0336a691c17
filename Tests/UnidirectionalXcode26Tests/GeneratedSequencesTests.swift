import Testing
import Unidirectional
import UnidirectionalTesting

/// Generated action sequences from a target with Xcode 26's settings: the generator reads the main-actor state of the
/// todos, the model and the checks are main-actor values of the test, nothing is `Sendable` or `@MainActor` by hand.
struct GeneratedSequencesTests {
  final class Tally {
    var checks = 0
  }

  var todoActions: ActionGenerator<Todos.State, Todos.Action> {
    ActionGenerator { state in
      [
        ActionChoice(weight: 3, .addTapped),
        ActionChoice(weight: 2, state.todos.ids.map(Todos.Action.editTapped)),
        ActionChoice(weight: 1, state.editing == nil ? [] : [Todos.Action.doneEditingTapped]),
        ActionChoice(weight: 2, state.todos.ids.map { .todos(.element(id: $0, action: .toggleTapped)) }),
      ]
    }
  }

  @Test func theListHasOneRowPerAddAndEditingEndsWhereItBegan() async {
    let tally = Tally()
    let report = await exploreActions(.random(seed: 1, sequences: 100, length: 10), generating: todoActions, model: 0) {
      TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.uuid = .incrementing
      }
    } update: { adds, step in
      if case .send(.addTapped) = step { adds += 1 }
    } check: { state, adds in
      tally.checks += 1
      #expect(state.todos.count == adds)
      if let editing = state.editing { #expect(state.todos[id: editing.id] != nil) }
    }
    #expect(report.sequencesRun == 100)
    #expect(report.failingSequence == nil)
    #expect(tally.checks > 100)
  }

  @Test func sequencesUnderInterleavingsCallTheTestsClosuresOnItsActor() async {
    // Crashed before: the explorer ran the scenario's closures off the test's actor, and the check — main-actor
    // state of the test in this target — failed the runtime's isolation check.
    let tally = Tally()
    let report = await exploreActions(
      .random(seed: 3, sequences: 10, length: 4), generating: todoActions, interleavings: .exhaustive(maxDeviations: 1)
    ) {
      TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.uuid = .incrementing
      }
    } check: { state, _ in
      tally.checks += 1
      if let editing = state.editing { #expect(state.todos[id: editing.id] != nil) }
    }
    #expect(report.failingSequence == nil)
    #expect(tally.checks > 10)
  }

  @Test func aSeededBugIsFoundAndShrunk() async {
    // "Adding clears the list once it has two rows": found, and shrunk to the three adds that show it.
    let report = await exploreActions(
      .random(seed: 2, sequences: 100, length: 10), generating: todoActions, reporter: TestFailures().reporter
    ) {
      TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.uuid = .incrementing
      }
    } check: { state, step in
      if case .send(.addTapped) = step { #expect(state.todos.count < 3, "a third row") }
    }
    #expect(report.steps == Array(repeating: "await store.send(.addTapped)", count: 3))
  }
}
