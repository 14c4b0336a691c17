import Testing

@testable import UnidirectionalGeneratedPrograms

/// Programs the generator found (shrunk) or that a finding names: each was a bug of the library, and stays a test.
/// A bug still open is wrapped in `withKnownIssue`, so that the test command stays green, and fails as "known issue
/// was not recorded" once fixed — then drop the wrapper and the generator option that avoids its shape
/// (``ProgramGenerator/Options``).
///
/// Every child reducer has one rule that does nothing unless the program says otherwise.
@Suite struct GeneratedProgramRegressionTests {
  // MARK: A cancellable inside a concatenation (fixed by the interpreter of 277b943)
  //
  // The asynchronous part of a concatenation ran in one task (`runToCompletion`): its `.cancellable` case registered
  // the whole concatenation's record under the inner id, so cancelling that id cancelled the whole concatenation
  // (TCA cancels that part only), and the registration was never removed (`finish` removed only `record.cancelIDs`):
  // memory kept per finished effect, and a later cancel of the id still reached the concatenation.

  /// The candidate the issue names: cancelling B, a branch of a merge in the asynchronous part of a concatenation,
  /// cancels the other branch too.
  @Test func cancellingABranchOfAMergeInAConcatenationLeavesTheOtherBranch() async {
    let program = GeneratedProgram(
      rootRules: [
        Rule(
          effect: .concatenate([
            .run(RunSpec(steps: [.sleep(milliseconds: 10)])),
            .merge([
              .cancellable(
                id: 1, cancelInFlight: false, .run(RunSpec(steps: [.sleep(milliseconds: 10), .send(.step(2))]))),
              .run(RunSpec(steps: [.sleep(milliseconds: 20), .send(.step(3))])),
            ]),
          ])),
        Rule(effect: .cancel(id: 1)),
        Rule(effect: .none),
        Rule(effect: .none),
      ],
      childRules: Self.idleChildren,
      script: [.send(.step(0)), .advance(milliseconds: 10), .send(.step(1)), .advance(milliseconds: 20)])
    await expectToMatchTheModel(program)
  }

  /// Shrunk from seed 63: an effect that cancels its own part of a concatenation ends that part; the next part runs.
  @Test func cancellingAPartOfAConcatenationLetsTheNextPartRun() async {
    let program = GeneratedProgram(
      rootRules: [
        Rule(
          effect: .concatenate([
            .cancellable(id: 0, cancelInFlight: false, .run(RunSpec(steps: [.cancel(id: 0)]))),
            .run(RunSpec(steps: [])),
          ]))
      ],
      childRules: Self.idleChildren,
      script: [.send(.step(0))])
    await expectToMatchTheModel(program)
  }

  /// Shrunk from seed 101: inside a debounce (a concatenation after its delay), the branch cancelled by its sibling's
  /// action is only that sibling.
  @Test func aDebouncedMergeLosesOnlyTheCancelledBranch() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .none)],
      childRules: [
        [
          Rule(effect: .none),
          Rule(
            effect: .debounce(
              id: 2, milliseconds: 0,
              .merge([.cancellable(id: 0, cancelInFlight: false, .send(2)), .run(RunSpec(steps: []))]))),
          Rule(effect: .cancel(id: 0)),
        ],
        [Rule(effect: .none)], [Rule(effect: .none)], [Rule(effect: .none)],
      ],
      script: [.send(.child(.scoped, 1))])
    await expectToMatchTheModel(program)
  }

  /// An id whose part of a concatenation has finished no longer reaches the concatenation.
  @Test func anIDWhosePartHasEndedCancelsNothing() async {
    let program = GeneratedProgram(
      rootRules: [
        Rule(
          effect: .concatenate([
            .cancellable(id: 1, cancelInFlight: false, .run(RunSpec(steps: []))),
            .run(RunSpec(steps: [.sleep(milliseconds: 10), .send(.step(2))])),
          ])),
        Rule(effect: .cancel(id: 1)),
        Rule(effect: .none),
      ],
      childRules: Self.idleChildren,
      script: [.send(.step(0)), .send(.step(1)), .advance(milliseconds: 10)])
    await expectToMatchTheModel(program)
  }

  /// Shrunk from seed 134: the same through a debounce and `Task.cancel(id:)` from a later effect.
  @Test func aDebounceIDThatHasFiredCancelsNothing() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .none)],
      childRules: [
        [
          Rule(effect: .none), Rule(effect: .none),
          Rule(
            effect: .concatenate([
              .debounce(id: 1, milliseconds: 0, .cancel(id: 0)),
              .merge([.send(3), .run(RunSpec(steps: [.sleep(milliseconds: 0), .fail], caught: 3))]),
            ])),
          Rule(effect: .run(RunSpec(steps: [.cancel(id: 1)]))),
        ],
        [Rule(effect: .none)], [Rule(effect: .none)], [Rule(effect: .none)],
      ],
      script: [.send(.child(.scoped, 2))])
    await expectToMatchTheModel(program)
  }

  /// The first memory shape, `.concatenate(.run {…}, .run {…}.cancellable(id: A))`: after `finish()` the
  /// cancellation table still holds A.
  @Test func aFinishedConcatenationKeepsNoID() async {
    let program = GeneratedProgram(
      rootRules: [
        Rule(
          effect: .concatenate([
            .run(RunSpec(steps: [])), .cancellable(id: 0, cancelInFlight: false, .run(RunSpec(steps: []))),
          ]))
      ],
      childRules: Self.idleChildren,
      script: [.send(.step(0))])
    await expectToMatchTheModel(program)
  }

  /// Shrunk from seed 13: a debounce whose effect is only a cancel-in-flight keeps that id.
  @Test func aFiredDebounceKeepsNoID() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .debounce(id: 1, milliseconds: 0, .cancellable(id: 0, cancelInFlight: true, .none)))],
      childRules: Self.idleChildren,
      script: [.send(.step(0))])
    await expectToMatchTheModel(program)
  }

  // MARK: The order a cancellation wakes effects in (model: ReferenceModel.wakeOrderIsOpen)

  /// Shrunk from seed 2421 (found on the new interpreter): one `cancelInFlight` cancels two sleeping effects, and a
  /// concatenation waits for each; the order their ends reach the concatenations decides which of two later effects
  /// the second one cancels. `cancelHeld` wakes the effects in the order of a `Set<UInt64>` of record ids, which
  /// changed from run to run in one process (143 of 300 runs differed from the model): a TestStore test of such a
  /// feature was flaky. The effects now wake in the order they started (the model's), every run.
  @Test func aCancellationWakesTheEffectsItCancelsInOneOrder() async {
    let program = GeneratedProgram(
      rootRules: [
        Rule(effect: .run(RunSpec(steps: [.send(.step(3))]))),
        Rule(effect: .none),
        Rule(effect: .debounce(id: 1, milliseconds: 10, .merge([.send(.step(3)), .send(.step(3))]))),
        Rule(
          effect: .concatenate([
            .cancellable(id: 2, cancelInFlight: false, .run(RunSpec(steps: [.sleep(milliseconds: 20)]))),
            .cancellable(id: 2, cancelInFlight: true, .run(RunSpec(steps: []))),
          ])),
      ],
      childRules: Self.idleChildren,
      script: [.send(.step(0)), .send(.step(2))])
    var seen: Set<String> = []
    for _ in 0..<40 {
      let observed = await TestStoreRun.observe(program, asserting: nil)
      seen.insert("\(observed.delivered) \(observed.outcomes.sorted { $0.key < $1.key })")
    }
    #expect(seen.count == 1, "\(seen.count) different runs")
  }

  // MARK: Shared changes

  /// Shrunk from seed 23 (issue 45, finding 3): a shared change made by an action received while `send` runs the
  /// effects is asserted at that action's `receive` — the TestStore reports it at an earlier step.
  @Test func aSharedChangeIsAssertedWhereItsActionIsReceived() async {
    let program = GeneratedProgram(
      rootRules: [Rule(effect: .none)],
      childRules: [
        [
          Rule(effect: .send(2)), Rule(effect: .none), Rule(effect: .run(RunSpec(steps: [.send(3)]))),
          Rule(writesShared: true, effect: .none),
        ],
        [Rule(effect: .none)], [Rule(effect: .none)], [Rule(effect: .none)],
      ],
      script: [.send(.child(.scoped, 0))])
    await expectToMatchTheModel(program)
  }

  /// Fails with the first difference between the store and the reference model.
  func expectToMatchTheModel(_ program: GeneratedProgram, sourceLocation: SourceLocation = #_sourceLocation) async {
    let failure = await TestStoreRun.check(program)
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
  }

  static let idleChildren: [[Rule<Int>]] = Array(repeating: [Rule(effect: .none)], count: ChildKind.allCases.count)
}
