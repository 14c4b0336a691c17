import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// The spellings a TCA feature and its tests use, accepted as written: `ReducerOf<Self>`, `StoreOf<F>`,
/// `TestStoreOf<F>`, `UUID(0)` and type-keyed dependencies (`@Dependency(Client.self)`).
final class TCASpellingTests: XCTestCase {
  /// A client declared as its own dependency key, the way TCA features declare theirs.
  struct NumberClient: Sendable {
    var fetch: @Sendable () async -> Int
  }

  struct Feature: Reducer {
    struct State: Equatable { var ids: [UUID] = []; var number = 0 }
    enum Action: Equatable, Sendable { case addID, fetch, fetched(Int) }
    @Dependency(\.uuid) var uuid
    @Dependency(NumberClient.self) var numbers

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .addID:
          state.ids.append(uuid())
          return .none
        case .fetch:
          return .run { send in send(.fetched(await numbers.fetch())) }
        case let .fetched(number):
          state.number = number
          return .none
        }
      }
    }
  }

  func testUUIDOfAnIntegerIsWhatTheIncrementingGeneratorGives() {
    let generator = UUIDGenerator.incrementing
    XCTAssertEqual(generator(), UUID(0))
    XCTAssertEqual(generator(), UUID(1))
    XCTAssertEqual(UUID(0).uuidString, "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(UUID(42).uuidString, "00000000-0000-0000-0000-00000000002A")
  }

  func testTypeKeyedDependencyIsReadAndOverriddenByItsType() async {
    let store: TestStoreOf<Feature> = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0[NumberClient.self] = NumberClient(fetch: { 7 })
    }
    await store.send(.addID) { $0.ids = [UUID(0)] }
    await store.send(.fetch)
    await store.receive(.fetched(7)) { $0.number = 7 }
  }

  func testTypeKeyedDependencyWithoutAnOverrideUsesItsTestValue() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.fetch)
    await store.receive(.fetched(-1)) { $0.number = -1 }
  }

  func testTypeKeyedDependencyResolvesToTheLiveValueLiveAndToAnOverrideWhenSet() async {
    var values = DependencyValues(context: .live)
    let live = await values[NumberClient.self].fetch()
    values[NumberClient.self] = NumberClient(fetch: { 3 })
    let overridden = await values[NumberClient.self].fetch()
    XCTAssertEqual(live, 42)
    XCTAssertEqual(overridden, 3)
  }

  /// A client whose interface module gives only test and preview values (TCA's `TestDependencyKey`).
  struct InterfaceOnlyClient: TestDependencyKey, Sendable {
    var name: String
    static let testValue = Self(name: "test")
    static let previewValue = Self(name: "preview")
  }

  func testAnInterfaceOnlyKeyUsedLiveReportsThatItHasNoLiveValueAndUsesItsPreviewValue() {
    let issues = LockIsolated<[String]>([])
    let name = withDependencies {
      $0.context = .live
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      DependencyValues.current[InterfaceOnlyClient.self].name
    }
    XCTAssertEqual(name, "preview")
    XCTAssertEqual(issues.value.count, 1)
    XCTAssertTrue(issues.value.first?.contains("has no live value") == true, "\(issues.value)")
  }

  func testStoreOfNamesTheFeaturesStore() {
    let store: StoreOf<Feature> = Store(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.addID)
    XCTAssertEqual(store.ids, [UUID(0)])
  }
}

extension TCASpellingTests.NumberClient: DependencyKey {
  static let liveValue = Self(fetch: { 42 })
  static let testValue = Self(fetch: { -1 })
}
