import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's SyncUps `RecordMeetingTests`, ported (the tests without speech recognition): the recording screen holds the
/// same `@Shared` sync-up as the detail under it, and ending the meeting adds a meeting to it. The timer runs on a
/// `TestClock`.
@Suite struct RecordMeetingTests {
  static let now = Date(timeIntervalSince1970: 1_234_567_890)
  static let sixSecondsForThree = SyncUp(
    id: UUID(), attendees: [Attendee(id: UUID()), Attendee(id: UUID()), Attendee(id: UUID())],
    duration: .seconds(6))

  private func makeStore(
    _ syncUp: SyncUp, clock: TestClock
  ) -> TestStoreOf<RecordMeeting> {
    TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: syncUp))) {
      RecordMeeting()
    } withDependencies: {
      $0.clock = clock
      $0.date.now = Self.now
      $0.uuid = .incrementing
    }
  }

  @Test func timer() async {
    let clock = TestClock()
    let store = makeStore(Self.sixSecondsForThree, clock: clock)
    await store.send(.onTask)

    let speakers = [0, 1, 1, 2, 2]
    for (second, speaker) in zip(1..., speakers) {
      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = speaker
        $0.secondsElapsed = second
        #expect($0.durationRemaining == .seconds(6 - second))
      }
    }

    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 6
      $0.$syncUp.withLock {
        _ = $0.meetings.insert(Meeting(id: UUID(0), date: Self.now, transcript: ""), at: 0)
      }
      #expect($0.durationRemaining == .seconds(0))
    }
    #expect(store.isDismissed)
  }

  @Test func endMeetingSave() async {
    let clock = TestClock()
    let store = makeStore(.mock, clock: clock)
    await store.send(.onTask)

    await store.send(.endMeetingButtonTapped) {
      $0.alert = RecordMeeting.endMeetingAlert(isDiscardable: true)
    }

    await clock.advance(by: .seconds(3))
    await store.receive(.timerTick)
    await store.receive(.timerTick)
    await store.receive(.timerTick)

    await store.send(.alert(.presented(.confirmSave))) {
      $0.alert = nil
      $0.$syncUp.withLock {
        _ = $0.meetings.insert(Meeting(id: UUID(0), date: Self.now, transcript: ""), at: 0)
      }
    }
    #expect(store.isDismissed)
  }

  @Test func endMeetingDiscard() async {
    let clock = TestClock()
    let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: .mock))) {
      RecordMeeting()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.onTask)

    await store.send(.endMeetingButtonTapped) {
      $0.alert = RecordMeeting.endMeetingAlert(isDiscardable: true)
    }
    await store.send(.alert(.presented(.confirmDiscard))) {
      $0.alert = nil
    }
    #expect(store.isDismissed)
  }

  @Test func nextSpeaker() async {
    let clock = TestClock()
    let store = makeStore(Self.sixSecondsForThree, clock: clock)
    await store.send(.onTask)

    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
    }
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
    }
    await store.send(.nextButtonTapped) {
      $0.alert = RecordMeeting.endMeetingAlert(isDiscardable: false)
    }
    await store.send(.alert(.presented(.confirmSave))) {
      $0.alert = nil
      $0.$syncUp.withLock {
        _ = $0.meetings.insert(Meeting(id: UUID(0), date: Self.now, transcript: ""), at: 0)
      }
    }
  }
}
