import Unidirectional

/// The three levels of `scoped_send_3`, scoped with case paths derived from the case constructors, made once
/// (statics).
enum DerivedPaths {
  static let root = CasePath(BenchAction.child)
  static let level1 = CasePath(BenchAction.Level1Action.child)
  static let level2 = CasePath(BenchAction.Level2Action.child)

  struct Level2Feature: Reducer {
    var body: some Reducer<BenchState.Level2, BenchAction.Level2Action> {
      Scope(state: \.child, action: DerivedPaths.level2) { LeafFeature() }
    }
  }

  struct Level1Feature: Reducer {
    var body: some Reducer<BenchState.Level1, BenchAction.Level1Action> {
      Scope(state: \.child, action: DerivedPaths.level1) { Level2Feature() }
    }
  }

  struct RootFeature: Reducer {
    var body: some Reducer<BenchState, BenchAction> {
      Scope(state: \.child, action: DerivedPaths.root) { Level1Feature() }
      BenchFeature()
    }
  }
}

/// The same, with the case paths made in `body` at every action, as a port writes them.
enum InlinePaths {
  struct Level2Feature: Reducer {
    var body: some Reducer<BenchState.Level2, BenchAction.Level2Action> {
      Scope(state: \.child, action: CasePath(BenchAction.Level2Action.child)) { LeafFeature() }
    }
  }

  struct Level1Feature: Reducer {
    var body: some Reducer<BenchState.Level1, BenchAction.Level1Action> {
      Scope(state: \.child, action: CasePath(BenchAction.Level1Action.child)) { Level2Feature() }
    }
  }

  struct RootFeature: Reducer {
    var body: some Reducer<BenchState, BenchAction> {
      Scope(state: \.child, action: CasePath(BenchAction.child)) { Level1Feature() }
      BenchFeature()
    }
  }
}

/// An action whose cases carry payloads (a reference-counted `String`, an `Int`): extraction copies the payload.
enum PayloadAction: Sendable {
  case number(Int)
  case text(String)
  case tap

  static let textCase = CasePath(PayloadAction.text) { if case let .text(text) = $0 { text } else { nil } }
  static let derivedText = CasePath(PayloadAction.text)
}

/// A hand-written case path (`CasePath(Action.child) { if case let .child(a) = $0 { a } else { nil } }`) next to
/// one derived from the constructor alone (`CasePath(Action.child)`): one extraction of a matching action, one of
/// another case, one path made and used; and `scoped_send_3` with derived paths.
enum CasePathBenchmarks {
  static let action = BenchAction.child(.child(.child(.increment)))

  /// The cases `--profile` knows besides the core's; returns false for an unknown name.
  static func profile(_ name: String, iterations: Int) -> Bool {
    let handWritten = opaque(BenchAction.childCase)
    let derived = opaque(DerivedPaths.root)
    let action = opaque(action)
    let other = opaque(BenchAction.increment)
    switch name {
    case "casepath_handwritten": for _ in 0..<iterations { blackHole(handWritten.extract(action)) }
    case "casepath_derived": for _ in 0..<iterations { blackHole(derived.extract(action)) }
    case "casepath_handwritten_miss": for _ in 0..<iterations { blackHole(handWritten.extract(other)) }
    case "casepath_derived_miss": for _ in 0..<iterations { blackHole(derived.extract(other)) }
    case "casepath_derived_made": for _ in 0..<iterations { blackHole(makeAndExtract(action)) }
    case "casepath_payload_handwritten", "casepath_payload_derived":
      let path = opaque(name == "casepath_payload_derived" ? PayloadAction.derivedText : PayloadAction.textCase)
      let text = opaque(PayloadAction.text("a string long enough to be on the heap"))
      for _ in 0..<iterations { blackHole(path.extract(text)) }
    case "scoped_send_3_derived":
      let store = Store(initialState: BenchState()) { DerivedPaths.RootFeature() }
      for _ in 0..<iterations { store.send(.child(.child(.child(.increment)))) }
    case "scoped_send_3_derived_inline":
      let store = Store(initialState: BenchState()) { InlinePaths.RootFeature() }
      for _ in 0..<iterations { store.send(.child(.child(.child(.increment)))) }
    default: return false
    }
    return true
  }

  @inline(never)
  static func makeAndExtract(_ action: BenchAction) -> BenchAction.Level1Action? {
    CasePath(BenchAction.child).extract(action)
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    let iterations = 2_000_000
    let handWritten = opaque(BenchAction.childCase)
    let derived = opaque(DerivedPaths.root)
    let action = opaque(action)
    let other = opaque(BenchAction.increment)
    let hit = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(handWritten.extract(action)) }
    }
    let derivedHit = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(derived.extract(action)) }
    }
    let miss = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(handWritten.extract(other)) }
    }
    let derivedMiss = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(derived.extract(other)) }
    }
    let text = opaque(PayloadAction.text("a string long enough to be on the heap"))
    let handWrittenText = opaque(PayloadAction.textCase)
    let derivedText = opaque(PayloadAction.derivedText)
    let payload = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(handWrittenText.extract(text)) }
    }
    let derivedPayload = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(derivedText.extract(text)) }
    }
    let made = await median(rounds: rounds) {
      measure(iterations: iterations) { blackHole(makeAndExtract(action)) }
    }
    let scopedStore = Store(initialState: BenchState()) { ScopedRootFeature() }
    let scoped = await median(rounds: rounds) {
      measure(iterations: iterations) { scopedStore.send(.child(.child(.child(.increment)))) }
    }
    let derivedStore = Store(initialState: BenchState()) { DerivedPaths.RootFeature() }
    let scopedDerived = await median(rounds: rounds) {
      measure(iterations: iterations) { derivedStore.send(.child(.child(.child(.increment)))) }
    }
    let inlineStore = Store(initialState: BenchState()) { InlinePaths.RootFeature() }
    let scopedInline = await median(rounds: rounds) {
      measure(iterations: iterations) { inlineStore.send(.child(.child(.child(.increment)))) }
    }
    return [
      BenchmarkResult(
        name: "casepath_derived", nsPerOp: derivedHit, baselineName: "casepath_handwritten", baselineNsPerOp: hit,
        target: "reference: extract a matching action"),
      BenchmarkResult(
        name: "casepath_derived_miss", nsPerOp: derivedMiss, baselineName: "casepath_handwritten_miss",
        baselineNsPerOp: miss, target: "reference: extract another case"),
      BenchmarkResult(
        name: "casepath_payload_derived", nsPerOp: derivedPayload, baselineName: "casepath_payload_handwritten",
        baselineNsPerOp: payload, target: "reference: extract a String payload"),
      BenchmarkResult(
        name: "casepath_derived_made", nsPerOp: made, baselineName: "casepath_handwritten", baselineNsPerOp: hit,
        target: "reference: make the path, then extract"),
      BenchmarkResult(
        name: "scoped_send_3_derived", nsPerOp: scopedDerived, baselineName: "scoped_send_3", baselineNsPerOp: scoped,
        target: "reference: derived paths made once"),
      BenchmarkResult(
        name: "scoped_send_3_derived_inline", nsPerOp: scopedInline, baselineName: "scoped_send_3",
        baselineNsPerOp: scoped, target: "reference: derived paths made in body"),
    ]
  }
}
