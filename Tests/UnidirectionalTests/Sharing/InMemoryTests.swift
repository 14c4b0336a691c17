import Testing
@testable import Unidirectional

/// swift-sharing's `InMemoryTests`, ported: `.inMemory("key")` is one value per key for the life of the process
/// (of the test, in tests), shared by every `@Shared` and `@SharedReader` that names the key.
@Suite struct InMemoryTests {
  @Test func everyUseOfAKeyChangesTheSameValue() {
    @Shared(.inMemory("count")) var count = 0
    #expect(count == 0)

    $count.withLock { $0 += 1 }
    #expect(count == 1)

    @Shared(.inMemory("count")) var anotherCount = 0
    #expect(anotherCount == 1, "the key already holds 1: the initial value 0 is not used")

    $anotherCount.withLock { $0 += 1 }
    #expect(count == 2)
  }

  @Test func theValueOutlivesEveryUseOfIt() async {
    do {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 0)
      $count.withLock { $0 += 1 }
      #expect(count == 1)
    }
    do {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 1)
    }
    do {
      @SharedReader(.inMemory("count")) var count = 0
      #expect(count == 1)
    }
    // A task of the test is in the test's scope too.
    await Task {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 1)
    }
    .value
  }

  @Test func theFirstInitialValueIsStoredEvenByAReader() async throws {
    do {
      @SharedReader(.inMemory("count")) var count = 10
    }
    do {
      @SharedReader(.inMemory("count")) var count = 0
      #expect(count == 10)
    }
    let required = try await SharedReader<Int>(require: .inMemory("count"))
    #expect(required.wrappedValue == 10)
  }

  @Test func optionalInitialValuesAreStoredAsGiven() async {
    do {
      @Shared(.inMemory("count")) var count: Int? = 0
      #expect(count == 0)
    }
    do {
      @Shared(.inMemory("nilCount")) var nilCount: Int? = nil
      #expect(nilCount == nil)
    }
    do {
      @Shared(.inMemory("optionalCount")) var optionalCount: Int?? = .some(0)
      #expect(optionalCount == .some(0))
    }
    do {
      @Shared(.inMemory("nestedOptionalCount")) var nestedOptionalCount: Int?? = .some(.none)
      #expect(nestedOptionalCount == .some(.none))

      @SharedReader(.inMemory("nestedOptionalCountReader")) var nestedOptionalCountReader: Int?? = .some(.none)
      #expect(nestedOptionalCountReader == .some(.none))
    }
    await #expect(throws: (any Error).self) {
      try await Shared<Int?>(require: .inMemory("countNotExist"))
    }
  }

  @Test func aStorageOfItsOwnDoesNotShareTheTestsValues() {
    @Shared(.inMemory("count")) var count = 1
    let separate = withDependencies {
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      Shared(wrappedValue: 2, .inMemory("count"))
    }
    #expect(count == 1)
    #expect(separate.wrappedValue == 2)
    separate.withLock { $0 = 3 }
    #expect(count == 1)
  }
}
