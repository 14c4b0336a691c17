import Foundation
import Unidirectional
import XCTest

/// Stores that send into each other from inside their reducers, from many threads at once: no combination of
/// stores, threads and sends deadlocks, every send is reduced exactly once, and a send into another store made while
/// reducing is reduced once the sending `send` has let go of its store, before it returns.
final class CrossStoreSendTests: XCTestCase {
  func testTwoStoresSendingIntoEachOtherFromFourThreadsNeverDeadlock() throws {
    try stress(stores: 2, threads: 4, sendsPerThread: 2_000, hops: 3)
  }

  func testThreeStoresSendingRoundACycleFromSixThreadsNeverDeadlock() throws {
    try stress(stores: 3, threads: 6, sendsPerThread: 1_500, hops: 5)
  }

  func testASendIntoAnotherStoreIsReducedAfterTheSendingBatchAndBeforeSendReturns() {
    let log = LockIsolated<[String]>([])
    let ring = Ring()
    let first = Store(initialState: Hop.State()) { Hop(name: "first", index: 0, ring: ring, log: log) }
    let second = Store(initialState: Hop.State()) { Hop(name: "second", index: 1, ring: ring, log: log) }
    let third = Store(initialState: Hop.State()) { Hop(name: "third", index: 2, ring: ring, log: log) }
    ring.stores = [first, second, third]
    defer { ring.stores = [] }

    first.send(.hop(2))

    // `first` finishes its own batch (the re-entrant `.local`) before `second` sees the hop; `second`'s send into
    // `third` is delivered by the same thread after it, all before `first.send` returns.
    XCTAssertEqual(
      log.value, ["first hop(2)", "first local", "second hop(1)", "second local", "third hop(0)", "third local"])
    XCTAssertEqual(second.reduced, 2)
    XCTAssertEqual(third.reduced, 2)
  }

  func testTheHandleOfASendIntoAnotherStoreCoversTheEffectsItStarted() async {
    let gate = Gate()
    let handle = LockIsolated<StoreTask?>(nil)
    let target = Store(initialState: Waiter.State()) { Waiter(gate: gate) }
    let sender = Store(initialState: Forwarder.State()) {
      Forwarder { handle.setValue(target.send(.wait)) }
    }

    sender.send(.forward)

    guard let task = handle.value else { return XCTFail("the forwarder's reducer did not run") }
    XCTAssertTrue(task.isRunning, "the effect started by the delivered send is running")
    gate.open()
    await task.finish()
    XCTAssertFalse(task.isRunning)
    XCTAssertEqual(target.opened, 1)
  }

  /// `threads` threads each send `sendsPerThread` hops into the stores of a ring, round robin; each hop is forwarded
  /// `hops` times round the ring from inside the reducers. Fails — instead of hanging the suite — when no send has
  /// finished for 10 s.
  private func stress(stores count: Int, threads: Int, sendsPerThread: Int, hops: Int) throws {
    let ring = Ring()
    let log = LockIsolated<[String]>([])
    ring.stores = (0..<count).map { index in
      Store(initialState: Hop.State()) { Hop(name: nil, index: index, ring: ring, log: log) }
    }
    let finished = LockIsolated(0)
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread {
        for send in 0..<sendsPerThread {
          ring.stores[(thread + send) % count].send(.hop(hops))
          finished.withLock { $0 += 1 }
        }
        group.leave()
      }.start()
    }

    let total = threads * sendsPerThread
    var lastSeen = -1
    var stalledSeconds = 0
    while group.wait(timeout: .now() + 1) == .timedOut {
      let seen = finished.value
      stalledSeconds = seen == lastSeen ? stalledSeconds + 1 : 0
      lastSeen = seen
      if stalledSeconds >= 10 {
        // The deadlocked threads and stores are left behind: the suite goes on.
        XCTFail("deadlock: no send finished for 10 s (\(seen) of \(total) done)")
        throw Deadlock()
      }
    }

    // Every hop of every send reached its store once, with its re-entrant `.local`.
    XCTAssertEqual(ring.stores.map(\.reduced).reduce(0, +), total * (hops + 1) * 2)
    for (index, store) in ring.stores.enumerated() {
      var expected = 0
      for thread in 0..<threads {
        for send in 0..<sendsPerThread {
          let start = (thread + send) % count
          expected += (0...hops).filter { (start + $0) % count == index }.count * 2
        }
      }
      XCTAssertEqual(store.reduced, expected, "store \(index)")
    }
    ring.stores = []
  }

  private struct Deadlock: Error {}
}

/// The stores of a ring, set before any thread sends and cleared at the end (to break the reference cycle).
private final class Ring: @unchecked Sendable {
  var stores: [Store<Hop.State, Hop.Action>] = []
}

/// Counts what it reduces; a hop sends `.local` into its own store (queued behind it) and the rest of the hop into
/// the next store of the ring (deferred until this thread lets go of this store).
private struct Hop: Reducer {
  struct State: Sendable { var reduced = 0 }
  enum Action: Sendable { case hop(Int), local }

  let name: String?
  let index: Int
  let ring: Ring
  let log: LockIsolated<[String]>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.reduced += 1
    if let name { log.withLock { $0.append("\(name) \(action)") } }
    guard case let .hop(left) = action else { return .none }
    ring.stores[index].send(.local)
    if left > 0 { ring.stores[(index + 1) % ring.stores.count].send(.hop(left - 1)) }
    return .none
  }
}

/// Calls `forward` (which sends into another store) from its reducer.
private struct Forwarder: Reducer {
  struct State: Sendable {}
  enum Action: Sendable { case forward }
  let forward: @Sendable () -> Void

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    forward()
    return .none
  }
}

/// Starts an effect that waits for a gate, then feeds back `.opened`.
private struct Waiter: Reducer {
  struct State: Sendable { var opened = 0 }
  enum Action: Sendable { case wait, opened }
  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .wait:
      return .run { [gate] send in
        await gate.wait()
        send(.opened)
      }
    case .opened:
      state.opened += 1
      return .none
    }
  }
}
