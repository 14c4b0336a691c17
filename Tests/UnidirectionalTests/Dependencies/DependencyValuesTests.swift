import Foundation
@testable import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Greeter: Sendable {
  var greet: @Sendable (String) -> String
}

/// A client without a test value: using it in a test without an override must fail the test.
private enum GreeterKey: DependencyKey {
  static let liveValue = Greeter { "Hello, \($0)" }
}

extension DependencyValues {
  fileprivate var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}

private struct Greeting: Reducer {
  @Dependency(\.greeter) var greeter
  func reduce(into state: inout String, action: String) -> Effect<String> {
    state = greeter.greet(action)
    return .none
  }
}

final class DependencyValuesTests: XCTestCase {
  func testContextDecidesTheDefault() {
    XCTAssertEqual(DependencyValues(context: .live).greeter.greet("a"), "Hello, a")
    XCTAssertEqual(DependencyValues(context: .preview).greeter.greet("a"), "Hello, a")
  }

  func testThisProcessIsDetectedAsATestContext() {
    XCTAssertEqual(DependencyContext.detected, .test)
  }

  func testUsingADependencyWithoutTestValueFailsTheTestNamingIt() async {
    let failures = TestFailures()
    let store = TestStore(initialState: "", reducer: { Greeting() }, reporter: failures.reporter)
    await store.send("x") { $0 = "Hello, x" }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].hasPrefix("@Dependency(GreeterKey) has no test value"), failures.messages[0])
  }

  func testAnOverriddenDependencyDoesNotFail() async {
    let store = TestStore(initialState: "") {
      Greeting()
    } withDependencies: {
      $0.greeter = Greeter { "Hi \($0)" }
    }
    await store.send("y") { $0 = "Hi y" }
  }

  func testBuiltInsAreUnimplementedInTests() async {
    struct UsesAll: Reducer {
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      @Dependency(\.clock) var clock
      func reduce(into state: inout Int, action: Int) -> Effect<Int> {
        _ = uuid()
        _ = date.now
        return .run { _ in try await clock.sleep(for: .seconds(1)) }
      }
    }
    let failures = TestFailures()
    let store = TestStore(initialState: 0, reducer: { UsesAll() }, reporter: failures.reporter)
    await store.send(1)
    await store.finish()
    let messages = failures.messages
    XCTAssertTrue(
      messages.contains { $0.hasPrefix("@Dependency(\\.uuid) was used without an override") }, "\(messages)")
    XCTAssertTrue(
      messages.contains { $0.hasPrefix("@Dependency(\\.date) was used without an override") }, "\(messages)")
    XCTAssertTrue(
      messages.contains { $0.hasPrefix("Unimplemented clock @Dependency(\\.clock) was used") }, "\(messages)")
  }

  func testIncrementingUUIDsAndConstantDates() {
    let uuid = UUIDGenerator.incrementing
    XCTAssertEqual(uuid().uuidString, "00000000-0000-0000-0000-000000000000")
    XCTAssertEqual(uuid().uuidString, "00000000-0000-0000-0000-000000000001")
    XCTAssertEqual(UUID(sequenceNumber: 0x1_0000_002a).uuidString, "00000000-0000-0000-0000-00010000002A")
    let date = Date(timeIntervalSince1970: 1_000)
    XCTAssertEqual(DateGenerator.constant(date).now, date)
  }

  func testWithDependenciesScopesValuesToTheOperation() {
    let inside = withDependencies {
      $0.greeter = Greeter { _ in "scoped" }
    } operation: {
      DependencyValues.current.greeter.greet("z")
    }
    XCTAssertEqual(inside, "scoped")
    XCTAssertEqual(DependencyValues(context: .live).greeter.greet("z"), "Hello, z")
  }

  func testAsyncWithDependenciesReachesChildTasks() async {
    let value = await withDependencies {
      $0.uuid = .constant(UUID(sequenceNumber: 3))
    } operation: {
      await Task {
        @Dependency(\.uuid) var uuid
        return uuid()
      }.value
    }
    XCTAssertEqual(value, UUID(sequenceNumber: 3))
  }

  func testEachStoreResolvesStatefulDefaultsAfresh() async {
    struct Counting: DependencyKey {
      static var liveValue: UUIDGenerator { .incrementing }
      static var testValue: UUIDGenerator { .incrementing }
    }
    struct Reads: Reducer {
      func reduce(into state: inout UUID?, action: Void) -> Effect<Void> {
        state = DependencyValues.current[Counting.self]()
        return .none
      }
    }
    for _ in 0..<2 {
      let store = Store(initialState: nil) { Reads() }
      store.send(())
      XCTAssertEqual(store.withState { $0 }, UUID(sequenceNumber: 0), "a fresh generator per store")
    }
  }
}
