import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class BuiltInDependenciesTests: XCTestCase {
  func testCalendarLocaleAndTimeZoneFailATestThatUsesThemUnset() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Reader.State(), reducer: { Reader() }, reporter: failures.reporter)
    store.exhaustivity = .off  // what the machine's calendar, locale and time zone are is not the point
    await store.send(.readCalendar)
    await store.send(.readLocale)
    await store.send(.readTimeZone)
    XCTAssertEqual(failures.messages.count, 3, "\(failures.messages)")
    XCTAssertTrue(failures.messages[0].contains("@Dependency(\\.calendar) was used without an override"))
    XCTAssertTrue(failures.messages[1].contains("@Dependency(\\.locale) was used without an override"))
    XCTAssertTrue(failures.messages[2].contains("@Dependency(\\.timeZone) was used without an override"))
  }

  func testOverriddenCalendarLocaleAndTimeZoneAreWhatTheFeatureReads() async {
    let utc = TimeZone(secondsFromGMT: 0) ?? .current
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    let store = TestStore(initialState: Reader.State()) {
      Reader()
    } withDependencies: {
      $0.calendar = calendar
      $0.locale = Locale(identifier: "fr_FR")
      $0.timeZone = utc
    }
    await store.send(.readCalendar) { $0.text = "gregorian" }
    await store.send(.readLocale) { $0.text = "fr_FR" }
    await store.send(.readTimeZone) { $0.text = "GMT" }
  }

  func testLiveValuesAreTheSystems() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.calendar) var calendar
      @Dependency(\.locale) var locale
      @Dependency(\.timeZone) var timeZone
      @Dependency(\.urlSession) var urlSession
      XCTAssertEqual(calendar, .autoupdatingCurrent)
      XCTAssertEqual(locale, .autoupdatingCurrent)
      XCTAssertEqual(timeZone, .autoupdatingCurrent)
      XCTAssertTrue(urlSession === URLSession.shared)
    }
  }

  func testTheURLSessionTestValueFailsTheTestAndRefusesRequestsWithoutIO() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Reader.State(), reducer: { Reader() }, reporter: failures.reporter)
    await store.send(.fetch)
    await store.receive(.fetched("@Dependency(\\.urlSession) has no test value: the request was not sent")) {
      $0.text = "@Dependency(\\.urlSession) has no test value: the request was not sent"
    }
    XCTAssertEqual(failures.messages.count, 1, "\(failures.messages)")
    XCTAssertTrue(failures.messages[0].contains("@Dependency(\\.urlSession) was used without an override"))
  }

  func testContinuousAndSuspendingClocksFailUnsetAndAreSeparateFromClock() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = TestStore(
      initialState: Reader.State(), reducer: { Reader() }, withDependencies: { $0.clock = clock },
      reporter: failures.reporter)
    await store.send(.sleepOnContinuousClock)
    await store.receive(.slept)
    await store.send(.sleepOnSuspendingClock)
    await store.receive(.slept)
    // Each use reports (its `now` and its `sleep`); the two clocks are named.
    let messages = Array(Set(failures.messages)).sorted()
    XCTAssertEqual(messages.count, 2, "\(failures.messages)")
    XCTAssertTrue(messages[0].contains("@Dependency(\\.continuousClock)"), messages[0])
    XCTAssertTrue(messages[1].contains("@Dependency(\\.suspendingClock)"), messages[1])
  }

  func testOverriddenContinuousClockDrivesTheEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Reader.State()) {
      Reader()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.sleepOnContinuousClock)
    await clock.advance(by: .seconds(1))
    await store.receive(.slept)
  }

  func testLiveClocksAreTheSystemClocks() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.continuousClock) var continuous
      @Dependency(\.suspendingClock) var suspending
      XCTAssertTrue(continuous is ContinuousClock)
      XCTAssertTrue(suspending is SuspendingClock)
    }
  }

  func testDismissAndIsPresentedAtTheRootOfALiveContext() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.isPresented) var isPresented
      XCTAssertFalse(isPresented)
    }
  }
}

private struct Reader: Reducer {
  struct State: Equatable, Sendable { var text = "" }
  enum Action: Equatable, Sendable {
    case fetch, fetched(String), readCalendar, readLocale, readTimeZone
    case sleepOnContinuousClock, sleepOnSuspendingClock, slept
  }
  @Dependency(\.calendar) var calendar
  @Dependency(\.continuousClock) var continuousClock
  @Dependency(\.locale) var locale
  @Dependency(\.suspendingClock) var suspendingClock
  @Dependency(\.timeZone) var timeZone
  @Dependency(\.urlSession) var urlSession

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetch:
      let session = urlSession
      return .run { send in
        do {
          _ = try await session.data(from: URL(string: "http://127.0.0.1:9/")!)
          send(.fetched("sent"))
        } catch {
          send(.fetched("\(error)"))
        }
      }
    case let .fetched(text):
      state.text = text
      return .none
    case .readCalendar:
      state.text = "\(calendar.identifier)"
      return .none
    case .readLocale:
      state.text = locale.identifier
      return .none
    case .readTimeZone:
      state.text = timeZone.identifier
      return .none
    case .sleepOnContinuousClock:
      return .run { send in
        try await continuousClock.sleep(for: .seconds(1))
        send(.slept)
      }
    case .sleepOnSuspendingClock:
      return .run { send in
        try await suspendingClock.sleep(for: .seconds(1))
        send(.slept)
      }
    case .slept:
      return .none
    }
  }
}
