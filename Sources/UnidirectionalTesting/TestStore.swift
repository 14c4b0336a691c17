import Unidirectional

/// Tests a feature exhaustively: every state change, every action its effects feed back, every effect's end.
///
/// ```swift
/// @Test func autoClear() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Upload.State()) {
///     Upload()
///   } withDependencies: {
///     $0.clock = clock
///     $0.uploadClient.upload = { _ in ["m1"] }
///   }
///   await store.send(.uploadTapped) { $0.status = .uploading }
///   await store.receive(.uploadFinished(.success(["m1"]))) { $0.status = .success }
///   await clock.advance(by: .seconds(3))
///   await store.receive(.clearStatus) { $0.status = .idle }
/// }
/// ```
///
/// Effects run on a `TestRuntime` owned by the store: each `send`, `receive` and clock `advance` runs them until
/// they suspend, so the order of actions is exactly the order a live `Store` processes them in, and a `receive`
/// that cannot be satisfied fails at once instead of hanging.
///
/// The state need not be `Equatable`: a state holding a closure, a reference or any other value is compared by its
/// structural dump (what a failure's diff shows), an `Equatable` one with `==`.
public final class TestStore<State, Action: Sendable>: @unchecked Sendable {
  /// The state as of the last assertion. Inside the closure of `send`, `receive` or `assert` it is still the state
  /// before the action: the closure is handed a copy to make match the state after it.
  public internal(set) var state: State
  /// How strictly the store checks the test.
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait for effects that run outside the store's runtime (real I/O, other
  /// actors). Effects that only wait on a `TestClock` never cause a wait.
  public var timeout: Duration = .seconds(1)

  /// The store's dependencies. Changing them affects the actions sent from now on and the effects they start;
  /// effects already running keep the values they started with.
  ///
  /// ```swift
  /// store.dependencies.date = .constant(Date(timeIntervalSince1970: 0))
  /// ```
  public var dependencies: DependencyValues {
    get { store.dependencies }
    set {
      store.dependencies = newValue
      journal.stackElementIDs.setValue(newValue.stackElementID)
    }
    // `store.dependencies.apiClient.fetch = { … }` reads `apiClient` before replacing part of it: that read is not
    // a use of the default (which may report a missing test value).
    _modify {
      var values = store.dependencies
      DependencyValues.configuringBegan()
      defer {
        DependencyValues.configuringEnded()
        store.dependencies = values
        journal.stackElementIDs.setValue(values.stackElementID)
      }
      yield &values
    }
  }

  /// Whether the feature dismissed itself (`@Dependency(\.dismiss)` at the root, as in TCA): the store then
  /// refuses further actions ("Can't send action to dismissed test store.") and stops waiting for the effects
  /// still in flight.
  public var isDismissed: Bool { dismissed.value }

  let store: Store<State, Action>
  package let runtime: TestRuntime
  let reporter: TestReporter
  let journal: Journal<State, Action>
  let location: Location
  let dismissed: LockIsolated<Bool>
  /// The shared values the feature changed since the last assertion, step by step.
  let sharedChanges: SharedChangeTracker
  /// `==`, or the states' dumps.
  let comparison: StateComparison<State>
  var didFinish = false

  /// A test store running `reducer` from `initialState`, whose states are compared with `==`.
  ///
  /// `initialState` and `reducer` are evaluated with the store's dependencies (a state initializer reading
  /// `@Dependency(\.uuid)` gets the overridden generator).
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts from.
  ///   - reducer: The feature under test.
  ///   - prepareDependencies: Overrides for this store. Everything else resolves to test values, and a dependency
  ///     without a safe test value fails the test when used.
  ///   - reporter: Where failures go; the running XCTest or Swift Testing test by default.
  ///   - fileID: The file failures are reported in (the caller's by default), as Swift Testing names it.
  ///   - filePath: The same file's full path, as XCTest names it.
  ///   - line: The line failures are reported at.
  ///   - column: The column failures are reported at.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    reporter: TestReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where State: Equatable {
    self.init(
      initialState: initialState(), reducer: reducer, withDependencies: prepareDependencies, reporter: reporter,
      comparison: .equatable, location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// A test store running `reducer` from `initialState`, a state that is not `Equatable` (it holds a closure, a
  /// reference, a value of a type you do not own): the states are compared by their structural dumps, as TCA 2.0
  /// compares debug snapshots, and a mismatch shows the same diff as for an `Equatable` state.
  ///
  /// ```swift
  /// struct State { var onSave: (String) -> Void; var draft = "" }   // not Equatable
  /// let store = TestStore(initialState: State(onSave: { _ in })) { Editor() }
  /// await store.send(.typed("Hi")) { $0.draft = "Hi" }
  /// ```
  ///
  /// Two states match when they dump alike: closures dump as `(Function)` (a test cannot tell two apart), and a
  /// class instance dumps as its fields as they are when the assertion runs.
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts from.
  ///   - reducer: The feature under test.
  ///   - prepareDependencies: Overrides for this store.
  ///   - reporter: Where failures go; the running XCTest or Swift Testing test by default.
  ///   - fileID: The file failures are reported in (the caller's by default), as Swift Testing names it.
  ///   - filePath: The same file's full path, as XCTest names it.
  ///   - line: The line failures are reported at.
  ///   - column: The column failures are reported at.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    reporter: TestReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initialState: initialState(), reducer: reducer, withDependencies: prepareDependencies, reporter: reporter,
      comparison: .dumps, location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void,
    reporter: TestReporter,
    comparison: StateComparison<State>,
    location: Location
  ) {
    TestStoreDefaults.install()
    // Under an interleaving explorer, the run chooses the order of the store's work and collects its failures; in a
    // generated action sequence, the sequence's run collects them.
    let runtime = ExploredRun.current.map { TestRuntime(chooser: $0) } ?? TestRuntime()
    // A failing explored run, run once more to be saved: its trace, states included.
    let tracing = ExploredRun.current?.tracer?.instrument(for: R.self, recordingStates: true)
    let sharedChanges = SharedChangeTracker()
    let journal = Journal<State, Action>(
      sharedChanges: sharedChanges, exploredRuntime: runtime.describesChoices ? runtime : nil, tracing: tracing)
    let reporter = InterleavingExplorer.collector ?? GeneratedSequenceFailures.collector ?? reporter
    TestRuntimes.register(runtime)
    var dependencies = DependencyValues.current
    dependencies.context = .test
    dependencies.issueReporter = Self.issueReporter(reporter, current: journal.location, origin: location)
    DependencyValues.configuring { prepareDependencies(&dependencies) }
    dependencies.sharedChangeTracker = sharedChanges
    let values = dependencies.isolated()
    let (initialState, reducer) = Unidirectional.withDependencies {
      $0 = values
    } operation: {
      (initialState(), reducer())
    }
    // The feature runs presented, as in TCA: dismissing it marks the store dismissed.
    let dismissed = LockIsolated(false)
    let skipEffects = LockIsolated<(() -> Void)?>(nil)
    var rootValues = values
    let root = PresentedRootReducer(base: reducer, dependencies: &rootValues) {
      dismissed.setValue(true)
      skipEffects.value?()
    }
    journal.stackElementIDs.setValue(rootValues.stackElementID)
    journal.startStackIDs()
    self.state = initialState
    self.runtime = runtime
    self.reporter = reporter
    self.journal = journal
    self.location = location
    self.dismissed = dismissed
    self.sharedChanges = sharedChanges
    self.comparison = comparison
    let store = Store(
      initialState: initialState, reducer: root, dependencies: rootValues, runtime: runtime, instrument: journal)
    self.store = store
    skipEffects.setValue { [weak store] in store?.skipRunningEffects() }
  }

  deinit {
    guard !didFinish else { return }
    runtime.runUntilIdle()
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
      checkNoUnassertedSharedChanges(at: location)
    }
    store.cancelAllEffects()
    runtime.runUntilIdle()
    // What went wrong with racing calls after the test's last step (an explored run's only).
    for problem in runtime.takeProblems() { report(problem, at: location) }
  }

}
