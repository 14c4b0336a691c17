import Foundation
import Observation
import Unidirectional

/// Field-by-field observation: a change to one row of 1,000 observed rows against the same change unobserved, and
/// a read of an observed field against the same read through `withState`.
enum ObservationBenchmarks {
  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  struct ListState: Equatable, Sendable {
    var rows: IdentifiedArray<Int, Row>
    var title = "Rows"
  }

  enum ListAction: Sendable {
    case row(id: Int, action: RowAction)
    enum RowAction: Sendable { case increment }
    static let rowCase = CasePath(ListAction.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
  }

  struct ListFeature: Reducer {
    var body: some Reducer<ListState, ListAction> {
      EmptyReducer()
        .forEach(\.rows, action: ListAction.rowCase) {
          Reduce<Row, ListAction.RowAction> { row, _ in
            row.count &+= 1
            return .none
          }
        }
    }
  }

  static func makeStore() -> Store<ListState, ListAction> {
    Store(initialState: ListState(rows: IdentifiedArray(uniqueElements: (0..<1_000).map { Row(id: $0) }))) {
      ListFeature()
    }
  }

  /// Counts the notifications its observers receive (each observer is told once, then registers again before the
  /// next change, outside the timing, as a view re-renders).
  final class Counter: @unchecked Sendable {
    let count = LockIsolated(0)
    func observe(_ read: @escaping @Sendable () -> Void) {
      withObservationTracking(read) { [self] in count.withLock { $0 += 1 } }
    }
  }

  /// Loops one case for a profiler; false for a name that is not an observation case. `observed_row_change` and
  /// `unobserved_row_change` make one change per 1,000 iterations asked (a change costs about that many sends).
  static func profile(_ name: String, iterations: Int) -> Bool {
    switch name {
    case "observed_row_change":
      let observed = makeStore()
      let rows = Array(observed.scope(state: \.rows, action: ListAction.rowCase))
      let counter = Counter()
      for _ in 0..<max(1, iterations / 1_000) {
        for row in rows { counter.observe { _ = row.count } }
        counter.observe { _ = observed.scope(state: \.rows, action: ListAction.rowCase) }
        observed.send(.row(id: 7, action: .increment))
      }
    case "unobserved_row_change":
      let store = makeStore()
      for _ in 0..<max(1, iterations / 1_000) { store.send(.row(id: 7, action: .increment)) }
    default:
      return false
    }
    return true
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    let iterations = 2_000
    let unobserved = makeStore()
    let plain = await median(rounds: rounds) {
      measure(iterations: iterations) { unobserved.send(.row(id: 7, action: .increment)) }
    }

    let observed = makeStore()
    let rows = Array(observed.scope(state: \.rows, action: ListAction.rowCase))
    let counter = Counter()
    var notifications = 0
    let changes = 200
    let perChange = await median(rounds: rounds) {
      var elapsed: UInt64 = 0
      for _ in 0..<changes {
        for row in rows { counter.observe { _ = row.count } }
        counter.observe { _ = observed.scope(state: \.rows, action: ListAction.rowCase) }
        counter.count.setValue(0)
        let start = DispatchTime.now().uptimeNanoseconds
        observed.send(.row(id: 7, action: .increment))
        elapsed += DispatchTime.now().uptimeNanoseconds - start
        notifications = counter.count.value
      }
      return Double(elapsed) / Double(changes)
    }

    let readStore = makeStore()
    let viaWithState = await median(rounds: rounds) {
      var sum = 0
      let result = measure(iterations: iterations * 100) { sum &+= readStore.withState { $0.title.count } }
      blackHole(sum)
      return result
    }
    let observedRead = await median(rounds: rounds) {
      var sum = 0
      let result = measure(iterations: iterations * 100) { sum &+= readStore.title.count }
      blackHole(sum)
      return result
    }

    return [
      BenchmarkResult(
        name: "observed_row_change (1,000 row observers + 1 list observer; notifications: \(notifications))",
        nsPerOp: perChange, baselineName: "the same send, unobserved", baselineNsPerOp: plain,
        target: "≤ 3×, 1 notification"),
      BenchmarkResult(
        name: "observed_field_read", nsPerOp: observedRead, baselineName: "withState read",
        baselineNsPerOp: viaWithState, target: "≤ 5×"),
    ]
  }
}
