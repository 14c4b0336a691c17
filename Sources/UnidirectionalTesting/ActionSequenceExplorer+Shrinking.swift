// Shrinking a failing generated sequence.
extension ActionSequenceExplorer {
  /// The failing `run` made as simple as still fails: fewer steps first, then simpler payloads.
  ///
  /// Passes, each restarted after an improvement, until none improves or `budget` runs were spent:
  /// - remove a run of steps, from half the sequence down to single steps (delta debugging; every length up to 4);
  /// - remove a step and change another to any choice it had, nearest first (adding 15 then 10 becomes adding 25,
  ///   which a payload that only shrinks never reaches);
  /// - simplify each step's payload: the simplest (0), half, one less.
  ///
  /// A candidate replays its choices on a fresh store — a step whose choice is not available in the state it
  /// reaches is left out — and counts when it fails the same way (its first failure of the same kind: the same
  /// `#expect`, error type or test store failure), cut after its first failure, and is simpler: fewer steps, or as
  /// many with smaller payloads. Under `interleavings`, a candidate fails if any schedule of it fails.
  nonisolated(nonsending) func shrink(
    _ run: SequenceRun<Action>, interleavings: ExplorationStrategy?, budget: Int = 2_000
  ) async -> SequenceRun<Action> {
    var best = run.truncated
    var remaining = budget
    nonisolated(nonsending) func attempt(_ choices: [StepChoice]) async -> Bool {
      guard remaining > 0 else { return false }
      remaining -= 1
      let candidate = await replay(choices, interleavings: interleavings).truncated
      guard candidate.failed, candidate.failureKind == best.failureKind, candidate.isSimpler(than: best) else {
        return false
      }
      best = candidate
      return true
    }
    var improved = true
    while improved, remaining > 0 {
      improved = false
      for size in Self.removalSizes(for: best.choices.count) {
        var start = 0
        while start < best.choices.count, remaining > 0 {
          var candidate = best.choices
          candidate.removeSubrange(start..<min(start + size, candidate.count))
          if await attempt(candidate) { improved = true } else { start += size }
        }
      }
      if improved { continue }
      merging: for removed in best.choices.indices {
        for changed in Self.othersNearestFirst(to: removed, count: best.choices.count) {
          for replacement in Self.choices(among: best.alternatives[changed]) where remaining > 0 {
            var candidate = best.choices
            candidate[changed] = replacement
            candidate.remove(at: removed)
            if await attempt(candidate) {
              improved = true
              break merging
            }
          }
        }
      }
      if improved { continue }
      var step = 0
      while step < best.choices.count, remaining > 0 {
        for payload in Self.simpler(than: best.choices[step].payload) {
          var candidate = best.choices
          candidate[step].payload = payload
          if await attempt(candidate) {
            improved = true
            break
          }
        }
        step += 1
      }
    }
    return best
  }

  /// The lengths of the runs of steps removal tries, longest first: halving from half the sequence, and every length
  /// up to 4.
  static func removalSizes(for count: Int) -> [Int] {
    var sizes = Set((1...4).filter { $0 < max(count, 2) })
    var size = count / 2
    while size > 4 {
      sizes.insert(size)
      size /= 2
    }
    return sizes.sorted(by: >)
  }

  /// The indices of a sequence of `count` steps other than `index`, nearest to it first.
  static func othersNearestFirst(to index: Int, count: Int) -> [Int] {
    (0..<count).filter { $0 != index }.sorted { abs($0 - index) < abs($1 - index) }
  }

  /// Every choice a step had, simplest first: choice by choice, payload by payload.
  static func choices(among alternatives: [Int]) -> [StepChoice] {
    alternatives.enumerated().flatMap { option, count in
      (0..<count).map { StepChoice(option: option, payload: $0) }
    }
  }

  /// The payload indices tried in place of `payload`, simplest first.
  static func simpler(than payload: Int) -> [Int] {
    var candidates: [Int] = []
    for candidate in [0, payload / 2, payload - 1] where (0..<payload).contains(candidate) {
      if !candidates.contains(candidate) { candidates.append(candidate) }
    }
    return candidates
  }
}

extension SequenceRun {
  /// Fewer steps, or as many with simpler payloads in total.
  func isSimpler(than other: Self) -> Bool {
    if choices.count != other.choices.count { return choices.count < other.choices.count }
    return choices.reduce(0) { $0 + $1.payload } < other.choices.reduce(0) { $0 + $1.payload }
  }
}
