import Foundation
import Observation
import Testing
import Unidirectional

/// The main-actor facade: state shown on the main actor field by field, observers told on the main actor whatever
/// thread sent, sends from the main actor shown when `send` returns.
@MainActor
@Suite struct MainActorStoreTests {
  struct Counter: Reducer {
    struct State: Equatable, Sendable {
      var count = 0
      var name = ""
    }
    enum Action: Equatable, Sendable { case increment, rename(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment: state.count += 1
      case let .rename(name): state.name = name
      }
      return .none
    }
  }

  @Test func aSendFromTheMainActorIsShownWhenSendReturns() {
    let store = MainActorStore(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    #expect(store.count == 1)
    store.send(.increment)
    #expect(store.count == 2)
  }

  @Test func observersAreToldOnTheMainActorWhileABackgroundThreadSends() async {
    let store = MainActorStore(initialState: Counter.State()) { Counter() }
    let seen = Seen()
    seen.observe(store)

    let underlying = store.store
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        for _ in 0..<1_000 { underlying.send(.increment) }
        done.resume()
      }
    }
    // The last batch's delivery was queued on the main queue before the sends ended: one hop runs it.
    await MainActor.run {}
    #expect(store.count == 1_000)
    #expect(!seen.counts.isEmpty)
    #expect(seen.counts == seen.counts.sorted(), "states are seen in order, coalesced")
    #expect(seen.counts.last == 1_000)
    #expect(seen.onMainThread.allSatisfy { $0 })
  }

  @Test func anObserverOfOneFieldIsNotToldOfAnother() async {
    let store = MainActorStore(initialState: Counter.State()) { Counter() }
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = store.count
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    store.send(.rename("Blob"))
    #expect(changes.value == 0)
    store.send(.increment)
    #expect(changes.value == 1)
  }

  @Test func aStoreHasOneFacade() {
    let store = Store(initialState: Counter.State()) { Counter() }
    #expect(store.mainActorStore === store.mainActorStore)
  }

  /// The counts an observer saw, re-registering after each change as a view re-renders.
  final class Seen: @unchecked Sendable {
    static let mainQueue: DispatchSpecificKey<Bool> = {
      let key = DispatchSpecificKey<Bool>()
      DispatchQueue.main.setSpecific(key: key, value: true)
      return key
    }()

    private(set) var counts: [Int] = []
    private(set) var onMainThread: [Bool] = []

    @MainActor func observe(_ store: MainActorStore<Counter.State, Counter.Action>) {
      withObservationTracking {
        _ = store.count
      } onChange: { [self] in
        MainActor.assertIsolated("observers of a main-actor store are told on the main actor")
        onMainThread.append(DispatchQueue.getSpecific(key: Self.mainQueue) == true)
        // `onChange` runs before the new value is stored: read it once the change is done.
        Task { @MainActor in
          counts.append(store.count)
          observe(store)
        }
      }
    }
  }
}
