import Dispatch
import Foundation
import Observation
import Testing
@testable import Unidirectional

/// swift-sharing's `SharedTests` (2.x), ported: reference semantics, views through key paths and optionals,
/// collections of shared elements, readers, descriptions.
@Suite struct SharedTests {
  struct User: Equatable, Identifiable, Sendable {
    var name = ""
    var id = 0
  }

  @Test func aChangeThroughOneCopyIsSeenByEveryCopy() {
    @Shared(value: 0) var count
    $count.withLock { $0 += 1 }
    #expect(count == 1)

    @Shared var copy: Int
    _copy = $count
    $copy.withLock { $0 += 1 }
    #expect(count == 2)
    #expect(copy == 2)
  }

  @Test func aWritableKeyPathIsASharedViewOfPartOfTheValue() {
    @Shared(value: User(name: "Blob")) var user
    @Shared var name: String
    _name = $user.name

    $name.withLock { $0 += ", Jr." }
    #expect(user.name == "Blob, Jr.")

    $user.name.withLock { $0 += " III" }
    #expect(name == "Blob, Jr. III")
  }

  @Test func aReadOnlyKeyPathIsASharedReader() {
    struct Fixed: Sendable { let id: Int }
    @Shared(value: Fixed(id: 1)) var fixed
    @SharedReader var id: Int
    _id = $fixed.id
    #expect(id == 1)
    $fixed.withLock { $0 = Fixed(id: 42) }
    #expect(id == 42)
    // Pointing the property at another shared value leaves views made earlier on the first.
    $fixed = Shared(value: Fixed(id: 1729))
    #expect(id == 42)
  }

  @Test func aComputedReaderFollowsItsSource() {
    @Shared(value: 0) var count
    @SharedReader var isZero: Bool
    _isZero = $count.read { $0 == 0 }
    #expect(isZero)
    $count.withLock { $0 += 1 }
    #expect(!isZero)
    // Pointing the property at another shared value leaves readers computed earlier on the first.
    $count = Shared(value: 0)
    #expect(!isZero)
  }

  @Test func anOptionalIsUnwrappedWhileItHasAValue() throws {
    @Shared(value: nil) var wrappedCount: Int?
    #expect(Shared($wrappedCount) == nil)

    $wrappedCount.withLock { $0 = 0 }
    @Shared var count: Int
    _count = try #require(Shared($wrappedCount))
    #expect(count == 0)

    $count.withLock { $0 += 1 }
    #expect(wrappedCount == 1)

    $wrappedCount.withLock { $0? += 1 }
    #expect(count == 2)

    $wrappedCount.withLock { $0 = nil }
    #expect(count == 2, "the view keeps its last value once the optional is nil")

    $wrappedCount.withLock { $0 = 4 }
    #expect(count == 4)
  }

  @Test func anIdentifiedArrayGivesASharedViewOfEachElementByID() {
    @Shared(value: IdentifiedArray(uniqueElements: [1, 2, 3], id: \.self)) var counts
    let elements = Array($counts)
    #expect(elements.map(\.wrappedValue) == [1, 2, 3])

    @Shared var third: Int
    _third = elements[2]
    $counts.withLock { _ = $0.removeLast() }
    #expect(counts == IdentifiedArray(uniqueElements: [1, 2], id: \.self))
    #expect(third == 3)

    // The removed element's view changes nothing in the array.
    $third.withLock { $0 += 1 }
    #expect(third == 4)
    #expect(counts == IdentifiedArray(uniqueElements: [1, 2], id: \.self))
  }

  @Test func aSubscriptByIDIsAViewThatFollowsTheElementWhenTheArrayIsSorted() throws {
    @Shared(value: IdentifiedArrayOf<User>([User(name: "B", id: 2), User(name: "A", id: 1)])) var users
    let blob = try #require(Shared($users[id: 2]))
    $users.withLock { $0.sort { $0.name < $1.name } }
    blob.withLock { $0.name = "Blob" }
    #expect(users.map(\.name) == ["A", "Blob"])
  }

  @Test func aChangeFromAnotherTaskIsSeen() async {
    @Shared(value: 0) var count
    await Task { [$count] in $count.withLock { $0 = 1 } }.value
    #expect(count == 1)
  }

  @Test func aReaderOfASharedValueSeesItsChanges() {
    @Shared(value: 0) var count
    @SharedReader var readOnly: Int
    _readOnly = SharedReader($count)
    $count.withLock { $0 = 1 }
    #expect(readOnly == 1)
    #expect(SharedReader.constant(5).wrappedValue == 5)
  }

  @Test func descriptionsNameTheTypeAndWhereTheValueLives() {
    @Shared(value: 0) var count
    #expect($count.description == "Shared<Int>(value: 0)")
    #expect(SharedReader($count).description == "SharedReader<Int>(value: 0)")

    @Shared(.inMemory("count")) var inMemory = 0
    #expect($inMemory.description == #"Shared<Int>(.inMemory("count"))"#)

    @Shared(.appStorage("count")) var appStorage = 0
    #expect($appStorage.description == #"Shared<Int>(.appStorage("count"))"#)

    @Shared(.fileStorage(URL(fileURLWithPath: "/"))) var file = 0
    #expect($file.description == "Shared<Int>(.fileStorage(file:///))")
  }

  @Test func sharedValuesAreEqualWhenTheirValuesAre() {
    let count = Shared(value: 0)
    @Shared(.inMemory("count")) var inMemoryCount = 0
    @Shared(.appStorage("count")) var appStorageCount = 0
    #expect(count == $inMemoryCount)
    #expect($inMemoryCount == $appStorageCount)
    $appStorageCount.withLock { $0 = 1 }
    #expect(count != $appStorageCount)
  }

  @Test func stateHoldingSharedValuesDumpsTheirValuesUnderThePropertyName() {
    struct State: Equatable {
      @Shared var count: Int
      @SharedReader var name: String
    }
    let state = State(count: Shared(value: 1), name: SharedReader(Shared(value: "Blob")))
    #expect(customDump(state) == "SharedTests.State(\n  count: 1,\n  name: \"Blob\"\n)")
  }

  @Test func sharedValuesEncodeAsTheirValuesAndDecodeIntoNewOnes() throws {
    struct State: Codable, Equatable {
      @Shared var count: Int
    }
    let data = try JSONEncoder().encode(State(count: Shared(value: 7)))
    #expect(String(decoding: data, as: UTF8.self) == #"{"count":7}"#)
    let decoded = try JSONDecoder().decode(State.self, from: data)
    #expect(decoded.count == 7)
  }

  @Test func aChangeNotifiesObservationTrackingOfTheValue() {
    @Shared(value: 0) var count
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = count
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    $count.withLock { $0 += 1 }
    #expect(changes.value == 1)
  }

  @Test func aChangeThroughAViewNotifiesObserversOfTheWhole() {
    @Shared(value: User(name: "Blob")) var user
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = user
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    $user.name.withLock { $0 = "Blob Jr." }
    #expect(changes.value == 1)
  }

  @Test func aChangeMayReadAViewOfTheSameValueWithoutDeadlocking() throws {
    @Shared(value: IdentifiedArrayOf<User>([User(name: "A", id: 1), User(name: "B", id: 2)])) var users
    let first = try #require(Shared($users[id: 1]))
    $users.withLock { _ = $0.remove(id: first.id) }
    #expect(users.ids == [2])
  }

  // MARK: The rest of swift-sharing's SharedTests, and TCA's (1.x) that need no Combine

  @Test func sharedValuesNestInsideSharedValues() {
    struct C: Equatable, Sendable {}
    struct B: Sendable {
      @Shared(.inMemory("c")) var c = C()
    }
    struct A: Sendable {
      @Shared(.inMemory("b")) var b = B()
    }
    let a = A()
    #expect(a.b.c == C())
  }

  /// swift-sharing paced this with sleeps; semaphores force the same interleaving: one task is computing the initial
  /// value of a key while another resolves a dependency whose initializer uses the same key. Neither waits for the
  /// other's lock, and both end up with the one value.
  @Test func aKeyUsedByADependencysInitializerWhileAnotherTaskCreatesItIsOneValue() async {
    struct Counter: TestDependencyKey, Sendable {
      @Shared(.inMemory("count")) var count = 0
      init() { $count.withLock { $0 += 1 } }
      static var testValue: Counter { Counter() }
    }
    let computingInitialValue = DispatchSemaphore(value: 0)
    let resolvedDependency = DispatchSemaphore(value: 0)
    let a = Task {
      guard computingInitialValue.wait(timeout: .now() + 10) == .success else { return -1 }
      @Dependency(Counter.self) var counter
      defer { resolvedDependency.signal() }
      return counter.count
    }
    let b = Task {
      @Shared(.inMemory("count")) var count: Int = {
        computingInitialValue.signal()
        _ = resolvedDependency.wait(timeout: .now() + 10)
        return 2
      }()
      return count
    }
    #expect(await a.value == 1)
    #expect(await b.value == 1, "the value the dependency made, not the initial value computed meanwhile")
  }

  @Test func aDefaultKeyDescribesItsBaseKey() {
    @Shared(AppStorageKey.Default[.appStorage("count"), default: 0]) var count
    #expect($count.description == #"Shared<Int>(.appStorage("count"))"#)
    #expect(SharedReader($count).description == #"SharedReader<Int>(.appStorage("count"))"#)

    @Shared(AppStorageKey.Default[.appStorage("count"), default: 0]) var withInitialValue = 0
    #expect($withInitialValue.description == #"Shared<Int>(.appStorage("count"))"#)
  }

  @Test func stateDumpsEachSharedValueInFullEvenWhenTwoShareOneRoot() {
    // swift-sharing's dump marks shared references (`#1 0`) and abbreviates a root dumped twice; state here dumps
    // as plain values, so a shared value held twice reads in full both times.
    struct Stats: Equatable, Sendable {
      var count = 0
    }
    struct State {
      @Shared var count: Int
      @Shared var stats: Stats
    }
    @Shared(value: Stats()) var stats
    #expect(
      customDump(State(count: $stats.count, stats: $stats)) == """
        SharedTests.State(
          count: 0,
          stats: SharedTests.Stats(
            count: 0
          )
        )
        """)
  }

  @Test func aNestedSharedValueDumpsAsItsValue() {
    struct Stats: Equatable, Sendable {
      var count = 0
    }
    struct Profile: Equatable, Sendable {
      @Shared var stats: Stats
    }
    @Shared(value: Profile(stats: Shared(value: Stats()))) var profile
    #expect(
      customDump(profile) == """
        SharedTests.Profile(
          stats: SharedTests.Stats(
            count: 0
          )
        )
        """)
    #expect(customDump(profile.$stats.count.wrappedValue) == "0")
  }

  @Test func elementsOfASharedCollectionFollowTheirElementThroughMoves() throws {
    @Shared(value: IdentifiedArrayOf<User>([User(name: "", id: 1), User(name: "", id: 2)])) var users
    let elements = Array($users)
    let first = try #require(elements.first)
    let second = try #require(elements.last)

    first.withLock { $0.name = "Blob" }
    second.withLock { $0.name = "Blob Jr" }
    #expect(first.wrappedValue == User(name: "Blob", id: 1))
    #expect(second.wrappedValue == User(name: "Blob Jr", id: 2))
    #expect(users.elements == [User(name: "Blob", id: 1), User(name: "Blob Jr", id: 2)])

    $users.withLock { $0.swapAt(0, 1) }
    #expect(first.wrappedValue == User(name: "Blob", id: 1))
    #expect(users.elements == [User(name: "Blob Jr", id: 2), User(name: "Blob", id: 1)])

    first.withLock { $0.name += ", M.D." }
    second.withLock { $0.name += ", Esq." }
    #expect(users.elements == [User(name: "Blob Jr, Esq.", id: 2), User(name: "Blob, M.D.", id: 1)])
  }
}
