/// Prints a program as Swift source: a named regression test to paste into
/// `Tests/UnidirectionalGeneratedProgramsTests/GeneratedProgramRegressionTests.swift`.
///
/// ```swift
/// print(ProgramSource.regressionTest(named: "stale ids after a concatenation", program, failure: failure))
/// ```
enum ProgramSource {
  static func regressionTest(named name: String, _ program: GeneratedProgram, failure: ProgramFailure) -> String {
    let identifier = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).enumerated().map { index, word in
      index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst()
    }.joined()
    let message = failure.description.split(separator: "\n").map { "  // " + $0 }.joined(separator: "\n")
    return """
      /// \(name)
      @Test func \(identifier)() async {
      \(message)
        let program = \(source(program, indent: "  "))
        #expect(await TestStoreRun.check(program) == nil)
      }
      """
  }

  static func source(_ program: GeneratedProgram, indent: String) -> String {
    var lines = ["GeneratedProgram(", "  rootRules: ["]
    lines += program.rootRules.map { "    " + source($0) { source($0) } + "," }
    lines += ["  ],", "  childRules: ["]
    lines += program.childRules.map { rules in
      "    [" + rules.map { source($0) { "\($0)" } }.joined(separator: ", ") + "],"
    }
    lines += ["  ],", "  script: ["]
    lines += program.script.map { "    " + source($0) + "," }
    lines += ["  ])"]
    return lines.joined(separator: "\n" + indent)
  }

  static func source<Target>(_ rule: Rule<Target>, target: (Target) -> String) -> String {
    var arguments: [String] = []
    if rule.writesShared { arguments.append("writesShared: true") }
    if let structural = rule.structural { arguments.append("structural: \(source(structural))") }
    arguments.append("effect: \(source(rule.effect, target: target))")
    return "Rule(\(arguments.joined(separator: ", ")))"
  }

  static func source<Target>(_ effect: EffectSpec<Target>, target: (Target) -> String) -> String {
    switch effect {
    case .none: ".none"
    case let .send(sent): ".send(\(target(sent)))"
    case let .run(run): ".run(\(source(run, target: target)))"
    case let .merge(parts): ".merge([\(parts.map { source($0, target: target) }.joined(separator: ", "))])"
    case let .concatenate(parts):
      ".concatenate([\(parts.map { source($0, target: target) }.joined(separator: ", "))])"
    case let .cancellable(id, cancelInFlight, inner):
      ".cancellable(id: \(id), cancelInFlight: \(cancelInFlight), \(source(inner, target: target)))"
    case let .cancel(id): ".cancel(id: \(id))"
    case let .debounce(id, milliseconds, inner):
      ".debounce(id: \(id), milliseconds: \(milliseconds), \(source(inner, target: target)))"
    case let .map(shift, inner): ".map(shift: \(shift), \(source(inner, target: target)))"
    }
  }

  static func source<Target>(_ run: RunSpec<Target>, target: (Target) -> String) -> String {
    let steps = run.steps.map { step -> String in
      switch step {
      case let .send(sent): ".send(\(target(sent)))"
      case let .sleep(milliseconds): ".sleep(milliseconds: \(milliseconds))"
      case .checkCancellation: ".checkCancellation"
      case .fail: ".fail"
      case .never: ".never"
      case .stream: ".stream"
      case let .cancel(id): ".cancel(id: \(id))"
      case .dismiss: ".dismiss"
      }
    }
    let caught = run.caught.map { ", caught: \(target($0))" } ?? ""
    return "RunSpec(steps: [\(steps.joined(separator: ", "))]\(caught))"
  }

  static func source(_ target: RootTarget) -> String {
    switch target {
    case let .step(rule): ".step(\(rule))"
    case let .child(slot, rule): ".child(\(source(slot)), \(rule))"
    case let .structural(change): ".structural(\(source(change)))"
    case .dismissDestination: ".dismissDestination"
    }
  }

  static func source(_ slot: ChildSlot) -> String {
    switch slot {
    case .scoped: ".scoped"
    case .optional: ".optional"
    case let .row(id): ".row(\(id))"
    case .destination: ".destination"
    }
  }

  static func source(_ change: Structural) -> String {
    switch change {
    case let .presentOptional(id): ".presentOptional(id: \(id))"
    case .clearOptional: ".clearOptional"
    case let .addRow(id): ".addRow(id: \(id))"
    case let .removeRow(id): ".removeRow(id: \(id))"
    case let .present(id): ".present(id: \(id))"
    case .clearDestination: ".clearDestination"
    }
  }

  static func source(_ step: ScriptStep) -> String {
    switch step {
    case let .send(target): ".send(\(source(target)))"
    case let .advance(milliseconds): ".advance(milliseconds: \(milliseconds))"
    case let .cancelTask(step): ".cancelTask(ofStep: \(step))"
    }
  }
}
