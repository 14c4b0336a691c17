import Foundation
import Unidirectional

/// Runs a generated program on a live `Store` (no `TestRuntime`, an `ImmediateClock`), its script's steps shared
/// among several threads that send and cancel at the same time, and checks what does not depend on their order:
///
/// - nothing lost: every action an effect nothing can cancel sent was reduced;
/// - every cancel honoured: no action of a cancelled effect is reduced after the call that cancelled it returned,
///   nor from a `send` that began once its task was cancelled;
/// - nothing kept: once every effect has ended, the store holds nothing (``StoreBookkeeping``).
///
/// The long-living waits (`never`, `stream`) end when their effect is cancelled, or when every thread is done and
/// they are all released; then the run waits on the tasks of every `send` (no sleeping on real time).
///
/// ```swift
/// #expect(await LiveStoreRun.check(program) == nil)
/// ```
enum LiveStoreRun {
  static let threads = 3

  static func check(_ program: GeneratedProgram) async -> ProgramFailure? {
    let (records, bookkeeping) = await observe(program)
    return verdict(records, bookkeeping: bookkeeping, checksLoss: !program.script.contains(where: \.cancelsATask))
  }

  /// Runs the program; returns what its effects and reducer recorded, and what the store held at the end.
  static func observe(_ program: GeneratedProgram) async -> (LiveLog.Records, StoreBookkeeping) {
    let live = LiveLog()
    let environment = ProgramEnvironment(clock: ImmediateClock(), live: live)
    // A child action after its child went away is a runtime issue the program may well cause: not printed here.
    let store = Store(initialState: GeneratedFeature.State()) {
      GeneratedFeature(program: program, environment: environment)
    } withDependencies: {
      $0.issueReporter = IssueReporter { _ in }
    }
    let tasks = LockIsolated<[Int: StoreTask]>([:])
    await withDrivers(threads) { thread in
      for (index, step) in program.script.enumerated() where index % threads == thread {
        switch step {
        case let .send(target):
          let task = live.call { store.send(GeneratedFeature.Action(target)) }
          tasks.withLock { $0[index] = task }
        case .advance:
          sched_yield()
        case let .cancelTask(step):
          if let task = tasks.withLock({ $0[step] }) { live.call { task.cancel() } }
        }
      }
    }
    live.waits.releaseAll()
    for task in tasks.value.sorted(by: { $0.key < $1.key }).map(\.value) { await task.finish() }
    return (live.all, store.bookkeeping)
  }

  static func verdict(_ records: LiveLog.Records, bookkeeping: StoreBookkeeping, checksLoss: Bool) -> ProgramFailure? {
    for (token, attempt) in records.attempts.sorted(by: { $0.key < $1.key }) {
      let delivered = records.deliveries[token]
      if checksLoss, delivered == nil, records.uncancellable.contains(attempt.run) {
        return ProgramFailure(kind: .lost, message: "run \(attempt.run) sent an action (send \(token)) never reduced")
      }
      guard let delivered, let cancellation = records.cancellations[attempt.run] else { continue }
      if attempt.began > cancellation.seq {
        return ProgramFailure(
          kind: .afterCancel,
          message: "run \(attempt.run)'s send \(token) began after its task was cancelled and was reduced")
      }
      if let call = cancellation.call, let returned = records.returns[call], delivered > returned {
        return ProgramFailure(
          kind: .afterCancel,
          message: "run \(attempt.run)'s action (send \(token)) was reduced after the call that cancelled it returned")
      }
    }
    if bookkeeping != StoreBookkeeping() {
      return ProgramFailure(kind: .bookkeeping, message: "once every effect ended the store holds \(bookkeeping)")
    }
    return nil
  }

  /// Runs `body(thread)` on `count` threads of their own at once and returns when all have.
  private static func withDrivers(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let remaining = LockIsolated(count)
      for thread in 0..<count {
        Thread {
          body(thread)
          let isLast = remaining.withLock {
            $0 -= 1
            return $0 == 0
          }
          if isLast { continuation.resume() }
        }.start()
      }
    }
  }
}

extension ScriptStep {
  var cancelsATask: Bool {
    if case .cancelTask = self { return true }
    return false
  }
}
