import Testing

@testable import UnidirectionalGeneratedPrograms

/// The generator produces the whole vocabulary, the same program for the same seed, and leaves out what an option
/// says: a generator that silently stopped making a shape would leave it untested.
@Suite struct ProgramGeneratorTests {
  @Test func theSameSeedMakesTheSameProgram() {
    let first = ProgramGenerator(seed: 99).programOnce()
    let second = ProgramGenerator(seed: 99).programOnce()
    let other = ProgramGenerator(seed: 100).programOnce()
    #expect(first == second)
    #expect(first != other)
  }

  @Test func aThousandProgramsUseEveryShape() {
    var seen: Set<String> = []
    for seed in 0..<1_000 as Range<UInt64> {
      var generator = ProgramGenerator(seed: seed)
      let program = generator.program()
      for rule in program.rootRules { collect(rule.effect, into: &seen) }
      for rules in program.childRules { for rule in rules { collect(rule.effect, into: &seen) } }
      for rule in program.rootRules where rule.writesShared { seen.insert("shared") }
      for rule in program.rootRules { if let change = rule.structural { seen.insert("rule \(kind(change))") } }
      for step in program.script {
        switch step {
        case let .send(.structural(change)): seen.insert("script \(kind(change))")
        case .send(.dismissDestination): seen.insert("script dismiss")
        case let .send(.child(slot, _)): seen.insert("script child \(slot.kind)")
        case .send(.step): seen.insert("script step")
        case .advance: seen.insert("advance")
        case .cancelTask: seen.insert("cancelTask")
        }
      }
    }
    let expected: Set<String> = [
      "none", "send", "run", "merge", "concatenate", "cancellable", "cancelInFlight", "cancel", "debounce", "map",
      "step send", "step sleep", "step sleep 0", "step checkCancellation", "step fail", "step never", "step stream",
      "step cancel", "step dismiss", "caught", "shared",
      "rule presentOptional", "rule clearOptional", "rule addRow", "rule removeRow", "rule present",
      "rule clearDestination", "script presentOptional", "script clearOptional", "script addRow", "script removeRow",
      "script present", "script clearDestination", "script dismiss", "script child scoped", "script child optional",
      "script child row", "script child destination", "script step", "advance", "cancelTask",
    ]
    #expect(expected.subtracting(seen).isEmpty, "never generated: \(expected.subtracting(seen).sorted())")
  }

  @Test func anOptionLeavesOutItsShape() {
    for seed in 0..<500 as Range<UInt64> {
      var generator = ProgramGenerator(seed: seed, options: ProgramGenerator.Options(avoidsSharedWrites: true))
      let program = generator.program()
      let writesShared =
        program.rootRules.contains { $0.writesShared } || program.childRules.joined().contains { $0.writesShared }
      #expect(!writesShared, "seed \(seed)")
    }
  }

  private func collect<Target>(_ effect: EffectSpec<Target>, into seen: inout Set<String>) {
    switch effect {
    case .none: seen.insert("none")
    case .send: seen.insert("send")
    case let .run(run):
      seen.insert("run")
      if run.caught != nil { seen.insert("caught") }
      for step in run.steps {
        switch step {
        case .send: seen.insert("step send")
        case let .sleep(milliseconds): seen.insert(milliseconds == 0 ? "step sleep 0" : "step sleep")
        case .checkCancellation: seen.insert("step checkCancellation")
        case .fail: seen.insert("step fail")
        case .never: seen.insert("step never")
        case .stream: seen.insert("step stream")
        case .cancel: seen.insert("step cancel")
        case .dismiss: seen.insert("step dismiss")
        }
      }
    case let .merge(effects):
      seen.insert("merge")
      for effect in effects { collect(effect, into: &seen) }
    case let .concatenate(effects):
      seen.insert("concatenate")
      for effect in effects { collect(effect, into: &seen) }
    case let .cancellable(_, cancelInFlight, effect):
      seen.insert("cancellable")
      if cancelInFlight { seen.insert("cancelInFlight") }
      collect(effect, into: &seen)
    case .cancel: seen.insert("cancel")
    case let .debounce(_, _, effect):
      seen.insert("debounce")
      collect(effect, into: &seen)
    case let .map(_, effect):
      seen.insert("map")
      collect(effect, into: &seen)
    }
  }

  private func kind(_ change: Structural) -> String {
    switch change {
    case .presentOptional: "presentOptional"
    case .clearOptional: "clearOptional"
    case .addRow: "addRow"
    case .removeRow: "removeRow"
    case .present: "present"
    case .clearDestination: "clearDestination"
    }
  }
}

extension ProgramGenerator {
  fileprivate func programOnce() -> GeneratedProgram {
    var copy = self
    return copy.program()
  }
}
