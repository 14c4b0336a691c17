import Testing
import Unidirectional

@testable import UnidirectionalGeneratedPrograms

/// The live checks fail on what they are meant to find: a send of an effect nothing can cancel that was never
/// reduced, an action of a cancelled effect reduced after the cancelling call returned or sent after its task was
/// cancelled, a store that still holds something.
@Suite struct LiveStoreVerdictTests {
  let run = RunID(reduction: 0, index: 0)

  @Test func aSendOfAnUncancellableEffectNeverReducedIsLost() {
    var records = LiveLog.Records()
    records.attempts[5] = LiveLog.Attempt(run: run, began: 5)
    records.uncancellable = [run]
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: true)?.kind == .lost)
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: false) == nil)
    records.deliveries[5] = 6
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: true) == nil)
  }

  @Test func anActionReducedAfterTheCancellingCallReturnedBreaksTheCancel() {
    var records = LiveLog.Records()
    records.attempts[5] = LiveLog.Attempt(run: run, began: 5)
    records.cancellations[run] = LiveLog.Cancellation(seq: 8, call: 7)
    records.returns[7] = 9
    records.deliveries[5] = 10
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: true)?.kind == .afterCancel)
    records.deliveries[5] = 8
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: true) == nil)
  }

  @Test func aSendBegunAfterTheTaskWasCancelledMustNotBeReduced() {
    var records = LiveLog.Records()
    records.attempts[9] = LiveLog.Attempt(run: run, began: 9)
    records.cancellations[run] = LiveLog.Cancellation(seq: 8, call: nil)
    records.deliveries[9] = 10
    #expect(LiveStoreRun.verdict(records, bookkeeping: StoreBookkeeping(), checksLoss: true)?.kind == .afterCancel)
  }

  @Test func aStoreThatStillHoldsSomethingKeepsIt() {
    var bookkeeping = StoreBookkeeping()
    bookkeeping.cancellationKeys = 1
    #expect(LiveStoreRun.verdict(LiveLog.Records(), bookkeeping: bookkeeping, checksLoss: true)?.kind == .bookkeeping)
  }
}
