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

  /// Counts the notifications its observers receive and, as a view re-renders, registers again only the observers
  /// that were told (outside the timing); the others stay registered from before.
  final class Counter: @unchecked Sendable {
    let count = LockIsolated(0)
    private let told = LockIsolated<[Int]>([])
    private var reads: [@Sendable () -> Void] = []

    /// Registers `read` as observer number `reads.count`.
    func add(_ read: @escaping @Sendable () -> Void) {
      reads.append(read)
      observe(reads.count - 1)
    }

    /// Registers again every observer that was told of a change since the last call.
    func renderTold() {
      let toldSinceLastRender = told.withLock { told in
        defer { told = [] }
        return told
      }
      for index in toldSinceLastRender { observe(index) }
    }

    private func observe(_ index: Int) {
      withObservationTracking(reads[index]) { [self] in
        count.withLock { $0 += 1 }
        told.withLock { $0.append(index) }
      }
    }
  }

  /// A store of 1,000 rows, each row's store and the list observed as views would observe them.
  static func observedStore() -> (store: Store<ListState, ListAction>, counter: Counter) {
    let store = makeStore()
    let counter = Counter()
    for row in store.scope(state: \.rows, action: ListAction.rowCase) { counter.add { _ = row.count } }
    counter.add { _ = store.scope(state: \.rows, action: ListAction.rowCase) }
    return (store, counter)
  }

  /// Loops one case for a profiler; false for a name that is not an observation case. `observed_row_change` and
  /// `unobserved_row_change` make one change per 1,000 iterations asked (a change costs about that many sends).
  static func profile(_ name: String, iterations: Int) -> Bool {
    switch name {
    case "observed_row_change":
      let (observed, counter) = observedStore()
      for _ in 0..<max(1, iterations / 1_000) {
        observed.send(.row(id: 7, action: .increment))
        counter.renderTold()
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

    let (observed, counter) = observedStore()
    var notifications = 0
    let changes = 200
    let perChange = await median(rounds: rounds) {
      var elapsed: UInt64 = 0
      for _ in 0..<changes {
        counter.count.setValue(0)
        let start = DispatchTime.now().uptimeNanoseconds
        observed.send(.row(id: 7, action: .increment))
        elapsed += DispatchTime.now().uptimeNanoseconds - start
        notifications = counter.count.value
        counter.renderTold()
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
