import Unidirectional

/// The state of a generated feature as plain values: what the reference model keeps, and what the real state is
/// compared with.
///
/// ```swift
/// let snapshot = ModelSnapshot(store.state)
/// snapshot.apply(to: &expectedState)   // in a TestStore assertion closure
/// ```
struct ModelSnapshot: Hashable, Sendable, CustomStringConvertible {
  struct Child: Hashable, Sendable {
    var id: Int
    var count = 0
    var last = -1
  }

  var count = 0
  var last = -1
  var total = 0
  var scoped = Child(id: 0)
  var optional: Child?
  var rows: [Child] = []
  var destination: Child?

  init() {}

  init(_ state: GeneratedFeature.State) {
    count = state.count
    last = state.last
    total = state.total
    scoped = Child(state.scoped)
    optional = state.optional.map(Child.init)
    rows = state.rows.map(Child.init)
    destination = state.destination.map(Child.init)
  }

  /// Makes `state` equal to this snapshot, reusing its children's shared total.
  func apply(to state: inout GeneratedFeature.State) {
    state.count = count
    state.last = last
    if state.total != total { state.$total.withLock { $0 = total } }
    scoped.apply(to: &state.scoped)
    state.optional = optional.map { $0.state(reusing: state) }
    state.rows = IdentifiedArray(uniqueElements: rows.map { $0.state(reusing: state) })
    state.destination = destination.map { $0.state(reusing: state) }
  }

  var description: String {
    var parts = ["count: \(count)", "last: \(last)", "total: \(total)", "scoped: \(scoped)"]
    if let optional { parts.append("optional: \(optional)") }
    if !rows.isEmpty { parts.append("rows: \(rows.map(\.description).joined(separator: ", "))") }
    if let destination { parts.append("destination: \(destination)") }
    return parts.joined(separator: ", ")
  }
}

extension ModelSnapshot.Child: CustomStringConvertible {
  init(_ state: GeneratedChild.State) {
    self.init(id: state.id, count: state.count, last: state.last)
  }

  func apply(to state: inout GeneratedChild.State) {
    state.count = count
    state.last = last
  }

  func state(reusing parent: GeneratedFeature.State) -> GeneratedChild.State {
    GeneratedChild.State(id: id, count: count, last: last, total: parent.$total)
  }

  var description: String { "#\(id)(\(count), \(last))" }
}
