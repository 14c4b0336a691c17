/// Makes a failing program as small as it can while it still fails the same way: drops script steps, replaces
/// effects (and parts of them) by `none`, flattens merges and concatenations, unwraps `cancellable`, `debounce` and
/// `map`, drops and shortens a run's steps, lowers durations and ids.
///
/// ```swift
/// let minimal = await ProgramShrinker.shrink(program, failure: failure) { await TestStoreRun.check($0) }
/// print(ProgramSource.regressionTest(named: "cancelInsideMerge", minimal.program, failure: minimal.failure))
/// ```
enum ProgramShrinker {
  /// Shrinks `program`, which fails with `failure` under `check`; returns the smallest program found that fails
  /// with the same kind of failure, and that failure. `budget` bounds the number of checks.
  static func shrink(
    _ program: GeneratedProgram, failure: ProgramFailure, budget: Int = 5_000,
    check: (GeneratedProgram) async -> ProgramFailure?
  ) async -> (program: GeneratedProgram, failure: ProgramFailure) {
    var best = (program: program, failure: failure)
    var checks = 0
    var improved = true
    while improved, checks < budget {
      improved = false
      for candidate in candidates(of: best.program) where checks < budget {
        checks += 1
        if let candidateFailure = await check(candidate), candidateFailure.kind == failure.kind {
          best = (candidate, candidateFailure)
          improved = true
          break
        }
      }
    }
    return best
  }

  /// The programs one simplification away from `program`, the biggest simplifications first.
  static func candidates(of program: GeneratedProgram) -> [GeneratedProgram] {
    var candidates: [GeneratedProgram] = []
    // Script steps, the last first (a later step depends on earlier ones more often than the reverse).
    for index in program.script.indices.reversed() {
      candidates.append(withoutStep(index, of: program))
    }
    for (index, step) in program.script.enumerated() {
      if case let .advance(milliseconds) = step, milliseconds > 0 {
        for lower in lower(milliseconds) {
          var candidate = program
          candidate.script[index] = .advance(milliseconds: lower)
          candidates.append(candidate)
        }
      }
    }
    // A reducer's last rule: a reference to a rule that does not exist changes nothing, in the store and the model.
    if program.rootRules.count > 1 {
      var candidate = program
      candidate.rootRules.removeLast()
      candidates.append(candidate)
    }
    for kind in program.childRules.indices where program.childRules[kind].count > 1 {
      var candidate = program
      candidate.childRules[kind].removeLast()
      candidates.append(candidate)
    }
    for index in program.rootRules.indices {
      for rule in simpler(program.rootRules[index]) {
        var candidate = program
        candidate.rootRules[index] = rule
        candidates.append(candidate)
      }
    }
    for kind in program.childRules.indices {
      for index in program.childRules[kind].indices {
        for rule in simpler(program.childRules[kind][index]) {
          var candidate = program
          candidate.childRules[kind][index] = rule
          candidates.append(candidate)
        }
      }
    }
    return candidates
  }

  /// The script without step `index`; later `cancelTask` steps are renumbered, and those of the removed step go.
  static func withoutStep(_ index: Int, of program: GeneratedProgram) -> GeneratedProgram {
    var candidate = program
    candidate.script = program.script.enumerated().compactMap { position, step in
      if position == index { return nil }
      guard case let .cancelTask(step) = step else { return step }
      if step == index { return nil }
      return .cancelTask(ofStep: step > index ? step - 1 : step)
    }
    return candidate
  }

  static func simpler<Target>(_ rule: Rule<Target>) -> [Rule<Target>] {
    var rules: [Rule<Target>] = []
    if rule.writesShared { rules.append(Rule(writesShared: false, structural: rule.structural, effect: rule.effect)) }
    if rule.structural != nil {
      rules.append(Rule(writesShared: rule.writesShared, structural: nil, effect: rule.effect))
    }
    for effect in simpler(rule.effect) {
      rules.append(Rule(writesShared: rule.writesShared, structural: rule.structural, effect: effect))
    }
    return rules
  }

  /// Effects one simplification away from `effect`.
  static func simpler<Target>(_ effect: EffectSpec<Target>) -> [EffectSpec<Target>] {
    var effects: [EffectSpec<Target>] = []
    if case .none = effect { return [] }
    effects.append(.none)
    switch effect {
    case .none, .send:
      break
    case let .cancel(id):
      if id > 0 { effects.append(.cancel(id: 0)) }
    case let .run(run):
      effects += simpler(run).map { .run($0) }
    case let .merge(parts), let .concatenate(parts):
      let rebuild: ([EffectSpec<Target>]) -> EffectSpec<Target> = {
        if case .merge = effect { return .merge($0) } else { return .concatenate($0) }
      }
      effects += parts
      if case .concatenate = effect { effects.append(.merge(parts)) }
      for index in parts.indices {
        var fewer = parts
        fewer.remove(at: index)
        effects.append(fewer.count == 1 ? fewer[0] : rebuild(fewer))
        for part in simpler(parts[index]) {
          var changed = parts
          changed[index] = part
          effects.append(rebuild(changed))
        }
      }
    case let .cancellable(id, cancelInFlight, inner):
      effects.append(inner)
      if cancelInFlight { effects.append(.cancellable(id: id, cancelInFlight: false, inner)) }
      if id > 0 { effects.append(.cancellable(id: 0, cancelInFlight: cancelInFlight, inner)) }
      effects += simpler(inner).map { .cancellable(id: id, cancelInFlight: cancelInFlight, $0) }
    case let .debounce(id, milliseconds, inner):
      effects.append(inner)
      effects.append(.cancellable(id: id, cancelInFlight: true, inner))
      effects += lower(milliseconds).map { .debounce(id: id, milliseconds: $0, inner) }
      effects += simpler(inner).map { .debounce(id: id, milliseconds: milliseconds, $0) }
    case let .map(shift, inner):
      effects.append(inner)
      effects += simpler(inner).map { .map(shift: shift, $0) }
    }
    return effects
  }

  static func simpler<Target>(_ run: RunSpec<Target>) -> [RunSpec<Target>] {
    var runs: [RunSpec<Target>] = []
    for index in run.steps.indices.reversed() {
      var fewer = run
      fewer.steps.remove(at: index)
      runs.append(fewer)
    }
    if run.caught != nil, !run.steps.contains(.fail) { runs.append(RunSpec(steps: run.steps, caught: nil)) }
    for (index, step) in run.steps.enumerated() {
      var replacements: [RunStep<Target>] = []
      switch step {
      case let .sleep(milliseconds): replacements = lower(milliseconds).map { .sleep(milliseconds: $0) }
      case let .cancel(id): if id > 0 { replacements = [.cancel(id: 0)] }
      case .never: replacements = [.stream]
      default: break
      }
      for replacement in replacements {
        var changed = run
        changed.steps[index] = replacement
        runs.append(changed)
      }
    }
    return runs
  }

  /// Smaller durations to try: zero, then the sleeps the generator uses below it.
  static func lower(_ milliseconds: Int) -> [Int] {
    ([0] + ProgramGenerator.sleeps).filter { $0 < milliseconds }.reduce(into: []) {
      if !$0.contains($1) { $0.append($1) }
    }
  }
}
