import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import Unidirectional
import UnidirectionalTesting
import XCTest

/// Writing an override reads the current value first (a key-path write, or a write into a property of a
/// dependency). That read is not a use: as in TCA, no "used without an override" / "has no test value" failure may
/// come from it. Each test fails on a TestStore that reported one (before: one failure per override written).
final class DependencyOverrideTests: XCTestCase {
  /// Reads every built-in, so a default that leaked through would be used (and report) here.
  private struct ReadsBuiltIns: Reducer {
    struct State: Equatable { var summary = "" }
    enum Action: Equatable, Sendable { case read }
    @Dependency(\.calendar) var calendar
    @Dependency(\.locale) var locale
    @Dependency(\.timeZone) var timeZone
    @Dependency(\.urlSession) var urlSession
    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.summary = [
        "\(calendar.identifier)", locale.identifier, timeZone.identifier, "\(urlSession === URLSession.shared)",
        uuid().uuidString, "\(date.now.timeIntervalSince1970)",
      ].joined(separator: " ")
      return .none
    }
  }

  private static let calendar = Calendar(identifier: .gregorian)
  private static let locale = Locale(identifier: "en_US_POSIX")
  private static let timeZone = TimeZone(secondsFromGMT: 0) ?? .current
  private static let expected = "gregorian en_US_POSIX GMT true 00000000-0000-0000-0000-000000000000 0.0"

  func testReducerDependencyModifiersWriteBuiltInsWithoutReadingTheirTestDefaults() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: ReadsBuiltIns.State(),
      reducer: {
        ReadsBuiltIns()
          .dependency(\.calendar, Self.calendar)
          .dependency(\.locale, Self.locale)
          .dependency(\.timeZone, Self.timeZone)
          .dependency(\.urlSession, .shared)
          .dependency(\.uuid, .incrementing)
          .dependency(\.date, .constant(Date(timeIntervalSince1970: 0)))
          .dependency(\.clock, ImmediateClock())
      }, reporter: failures.reporter)
    await store.send(.read) { $0.summary = Self.expected }
    XCTAssertEqual(failures.messages, [])
  }

  func testTestStoreDependenciesAreWrittenWithoutReadingTheirTestDefaults() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: ReadsBuiltIns.State(), reducer: { ReadsBuiltIns() }, reporter: failures.reporter)
    store.dependencies.calendar = Self.calendar
    store.dependencies.locale = Self.locale
    store.dependencies.timeZone = Self.timeZone
    store.dependencies.urlSession = .shared
    store.dependencies.uuid = .incrementing
    store.dependencies.date = .constant(Date(timeIntervalSince1970: 0))
    store.dependencies[keyPath: \.clock] = ImmediateClock()
    await store.send(.read) { $0.summary = Self.expected }
    XCTAssertEqual(failures.messages, [])
  }

  func testANestedPropertyOfAClientWithoutATestValueIsOverriddenSilentlyAndTheRestStillReports() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Fetching.State(), reducer: { Fetching() }, reporter: failures.reporter)
    store.dependencies.numbers.fetch = { 1 }
    await store.send(.fetch)
    await store.receive(.fetched(1)) { $0.value = 1 }
    XCTAssertEqual(failures.messages, [])

    await store.withDependencies {
      $0.numbers.fetch = { 2 }
    } operation: {
      await store.send(.fetch)
      await store.receive(.fetched(2)) { $0.value = 2 }
    }
    XCTAssertEqual(failures.messages, [])

    // A store where nobody overrode it: the real use still reports, by the key's name.
    let untouched = TestStore(initialState: Fetching.State(), reducer: { Fetching() }, reporter: failures.reporter)
    await untouched.send(.fetch)
    await untouched.receive(.fetched(-1)) { $0.value = -1 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("NumbersClientKey") == true, "\(failures.messages)")
  }

  func testTheTestStoresWithDependenciesClosureWritesThroughKeyPathsSilently() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: ReadsBuiltIns.State(), reducer: { ReadsBuiltIns() },
      withDependencies: {
        $0[keyPath: \.calendar] = Self.calendar
        $0[keyPath: \.locale] = Self.locale
        $0[keyPath: \.timeZone] = Self.timeZone
        $0[keyPath: \.urlSession] = .shared
        $0[keyPath: \.uuid] = .incrementing
        $0[keyPath: \.date] = .constant(Date(timeIntervalSince1970: 0))
        $0[keyPath: \.clock] = ImmediateClock()
      }, reporter: failures.reporter)
    await store.send(.read) { $0.summary = Self.expected }
    XCTAssertEqual(failures.messages, [])
  }
}

/// A client whose key has no test value: resolving its default in a test reports.
struct NumbersClient: Sendable {
  var fetch: @Sendable () async -> Int
}

private enum NumbersClientKey: DependencyKey {
  static let liveValue = NumbersClient(fetch: { -1 })
}

extension DependencyValues {
  var numbers: NumbersClient {
    get { self[NumbersClientKey.self] }
    set { self[NumbersClientKey.self] = newValue }
  }
}

private struct Fetching: Reducer {
  struct State: Equatable { var value = 0 }
  enum Action: Equatable, Sendable {
    case fetch
    case fetched(Int)
  }
  @Dependency(\.numbers) var numbers

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fetch:
      return .run { send in send(.fetched(await numbers.fetch())) }
    case let .fetched(value):
      state.value = value
      return .none
    }
  }
}
