import Testing

@testable import UnidirectionalGeneratedPrograms

/// The reference model does what the documentation says, on programs small enough to work out by hand; each is
/// also run on the store, which must agree.
@Suite struct ReferenceModelTests {
  /// "Actions fed back this way are processed depth-first" (Effect.send); DifferencesFromTCA: `a → merge(.send(b),
  /// .send(c))`, `b → .send(d)` reduces a, b, d, c.
  @Test func sendsAreReducedDepthFirst() async {
    let program = root(
      [.merge([.send(.step(1)), .send(.step(2))]), .send(.step(3)), .none, .none],
      script: [.send(.step(0))])
    #expect(received(program) == [[".step(1)", ".step(3)", ".step(2)"]])
    await expectTheStoreAgrees(program)
  }

  /// "Sleepers wake in deadline order (ties in the order they went to sleep)", each run until it suspends before
  /// the next deadline wakes (TestClock).
  @Test func sleepersWakeInDeadlineOrderTiesInTheOrderTheySlept() async {
    let program = root(
      [
        .merge([sleepThenSend(20, 1), sleepThenSend(10, 2), sleepThenSend(10, 3)]),
        .none, .none, .none,
      ],
      script: [.send(.step(0)), .advance(milliseconds: 30)])
    #expect(received(program) == [[], [".step(2)", ".step(3)", ".step(1)"]])
    await expectTheStoreAgrees(program)
  }

  /// "A sleep until `now` itself — such as `sleep(for: .zero)` — suspends until the next `advance`, which may be
  /// `advance(by: .zero)`."
  @Test func aZeroSleepWaitsForTheNextAdvance() async {
    let program = root(
      [sleepThenSend(0, 1), .none], script: [.send(.step(0)), .advance(milliseconds: 0)])
    #expect(received(program) == [[], [".step(1)"]])
    await expectTheStoreAgrees(program)
  }

  /// "Effects of an element are cancelled when the parent removes it" (forEach): a row's effect sends nothing after
  /// the row is gone, and ends cancelled.
  @Test func removingARowCancelsItsEffects() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .none)],
      childRules: [[Rule(effect: .none)], [Rule(effect: .none)], rowRules, [Rule(effect: .none)]],
      script: [
        .send(.structural(.addRow(id: 1))), .send(.child(.row(1), 0)), .send(.structural(.removeRow(id: 1))),
        .advance(milliseconds: 100),
      ])
    let model = ReferenceModel(program)
    for (index, step) in program.script.enumerated() {
      switch step {
      case let .send(target): _ = model.send(target, step: index)
      case let .advance(milliseconds): #expect(model.advance(by: milliseconds).isEmpty)
      case .cancelTask: break
      }
    }
    #expect(model.outcomes[RunID(reduction: 1, index: 0)] == .cancelled)
    await expectTheStoreAgrees(program)
  }

  /// "An effect returned next to a `.send` is cancelled by what the sent action cancels, even though it starts after
  /// it" (DifferencesFromTCA).
  @Test func anEffectNextToASendIsCancelledByWhatTheSentActionCancels() async {
    let program = root(
      [
        .merge([.send(.step(1)), .cancellable(id: 0, cancelInFlight: false, sleepThenSend(10, 2))]),
        .cancel(id: 0), .none,
      ],
      script: [.send(.step(0)), .advance(milliseconds: 10)])
    #expect(received(program) == [[".step(1)"], []])
    await expectTheStoreAgrees(program)
  }

  /// "Delays this effect by `duration` on `clock`, cancelling a pending one with the same `id`: only the last of a
  /// burst runs."
  @Test func onlyTheLastOfADebouncedBurstRuns() async {
    let program = root(
      [.debounce(id: 0, milliseconds: 50, .send(.step(1))), .none],
      script: [.send(.step(0)), .advance(milliseconds: 20), .send(.step(0)), .advance(milliseconds: 50)])
    #expect(received(program) == [[], [], [], [".step(1)"]])
    await expectTheStoreAgrees(program)
  }

  /// "Runs `effects` one after another: each starts when the previous one has finished." The parts before the first
  /// asynchronous one run at once.
  @Test func aConcatenationRunsItsPartsInTurn() async {
    let program = root(
      [.concatenate([.send(.step(1)), sleepThenSend(10, 2), .send(.step(3))]), .none, .none, .none],
      script: [.send(.step(0)), .advance(milliseconds: 10)])
    #expect(received(program) == [[".step(1)"], [".step(2)", ".step(3)"]])
    await expectTheStoreAgrees(program)
  }

  /// `@Dependency(\.dismiss)` "sends `.dismiss` … through the calling effect, synchronously": the destination goes
  /// away, and with it the effect that dismissed it (it sends nothing more).
  @Test func aChildDismissesItself() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .none)],
      childRules: [
        [Rule(effect: .none)], [Rule(effect: .none)], [Rule(effect: .none)],
        [Rule(effect: .run(RunSpec(steps: [.dismiss, .send(1)]))), Rule(effect: .none)],
      ],
      script: [.send(.structural(.present(id: 1))), .send(.child(.destination, 0))])
    #expect(received(program) == [[], [".destination(.dismiss)"]])
    await expectTheStoreAgrees(program)
  }

  // MARK: Helpers

  private let rowRules: [Rule<Int>] = [
    Rule(effect: .run(RunSpec(steps: [.sleep(milliseconds: 50), .send(1)]))),
    Rule(effect: .none),
  ]

  private func sleepThenSend(_ milliseconds: Int, _ rule: Int) -> EffectSpec<RootTarget> {
    .run(RunSpec(steps: [.sleep(milliseconds: milliseconds), .send(.step(rule))]))
  }

  private func root(_ effects: [EffectSpec<RootTarget>], script: [ScriptStep]) -> GeneratedProgram {
    GeneratedProgram(
      rootRules: effects.map { Rule(effect: $0) }, childRules: GeneratedProgramRegressionTests.idleChildren,
      script: script)
  }

  /// What each script step delivers besides the action it sends, in the model.
  private func received(_ program: GeneratedProgram) -> [[String]] {
    let model = ReferenceModel(program)
    return program.script.enumerated().map { index, step in
      let received: [ReferenceModel.Reduced]
      switch step {
      case let .send(target): received = model.send(target, step: index).received
      case let .advance(milliseconds): received = model.advance(by: milliseconds)
      case let .cancelTask(step): received = model.cancelTask(ofStep: step)
      }
      return received.map { "\($0.action)" }
    }
  }

  private func expectTheStoreAgrees(_ program: GeneratedProgram, sourceLocation: SourceLocation = #_sourceLocation)
    async
  {
    let failure = await TestStoreRun.check(program)
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
  }
}
