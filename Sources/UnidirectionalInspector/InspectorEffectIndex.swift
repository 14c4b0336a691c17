/// The effects of a run ordered by the step that started them, answering "which effects ran during steps A to B"
/// a page at a time without looking at the effects that ended long before.
///
/// `reach[i]` is the latest step any of the first `i + 1` effects ran to (a running one runs to the end): a scan
/// back from the window's end stops where nothing earlier reaches the window.
///
/// ```swift
/// var index = InspectorEffectIndex(effects)
/// let page = index.page(from: 10, to: 20, offset: 0, count: 100)
/// ```
struct InspectorEffectIndex: Sendable {
  /// The effects, by the step that started them, then by id.
  private(set) var effects: [InspectorEffect]
  private var reach: [Int] = []
  /// Where each effect is in ``effects``, by id.
  private var positions: [UInt64: Int] = [:]

  init(_ effects: [InspectorEffect] = []) {
    self.effects = effects.sorted { ($0.startedBy, $0.id) < ($1.startedBy, $1.id) }
    reindex()
  }

  /// The effect with `id`, if kept.
  func effect(_ id: UInt64) -> InspectorEffect? {
    positions[id].map { effects[$0] }
  }

  /// Adds `effect`, or replaces the one with its id.
  mutating func upsert(_ effect: InspectorEffect) {
    if let position = positions[effect.id] {
      effects[position] = effect
      // An effect's end only moves from "running" to a step: the reach stays an upper bound, so scans stay right.
      return
    }
    guard let last = effects.last, (last.startedBy, last.id) > (effect.startedBy, effect.id) else {
      positions[effect.id] = effects.count
      effects.append(effect)
      reach.append(max(reach.last ?? 0, effect.endStep ?? Int.max))
      return
    }
    // Started out of order (rare: effects start in the order their actions were reduced): in its place.
    var low = 0
    var high = effects.count
    while low < high {
      let middle = (low + high) / 2
      if (effects[middle].startedBy, effects[middle].id) < (effect.startedBy, effect.id) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    effects.insert(effect, at: low)
    reindex()
  }

  /// Forgets the `count` effects that started first.
  mutating func removeFirst(_ count: Int) {
    effects.removeFirst(min(count, effects.count))
    reindex()
  }

  /// Up to `count` effects from position `offset` among those that ran at some step from `first` to `last`.
  func page(from first: Int, to last: Int, offset: Int, count: Int) -> InspectorEffectPage {
    // The first effect started after the window.
    var low = 0
    var high = effects.count
    while low < high {
      let middle = (low + high) / 2
      if effects[middle].startedBy <= last { low = middle + 1 } else { high = middle }
    }
    var matches: [Int] = []
    var position = low - 1
    while position >= 0, reach[position] >= first {
      if !effects[position].isOutside(first, last) { matches.append(position) }
      position -= 1
    }
    matches.reverse()
    let window = matches.dropFirst(max(0, offset)).prefix(max(0, count))
    return InspectorEffectPage(
      from: first, to: last, effects: window.map { effects[$0] }, offset: max(0, offset), total: matches.count)
  }

  private mutating func reindex() {
    reach = []
    reach.reserveCapacity(effects.count)
    positions = [:]
    positions.reserveCapacity(effects.count)
    for (position, effect) in effects.enumerated() {
      reach.append(max(reach.last ?? 0, effect.endStep ?? Int.max))
      positions[effect.id] = position
    }
  }
}
