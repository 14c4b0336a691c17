import Testing
@testable import Unidirectional

/// swift-sharing's `DefaultTests`, and the shared-default tests of TCA's `SharedTests` (1.x), ported: a key with a
/// default (`SharedKeyDefault`, spelled `Key.Default[key, default: value]`) needs no initial value at each use; an
/// initial value given at a use wins over the key's default; and whichever use comes first sets the value every
/// later use sees.
@Suite struct DefaultTests {
  @Test func theFirstUseWinsOverTheDefaultAndLaterInitialValues() {
    @Shared(.isEnabled) var isOn1 = true
    @Shared(.isEnabled) var isOn2 = false
    @Shared(.isEnabled) var isOn3

    #expect(isOn1 == true)
    #expect(isOn2 == true)
    #expect(isOn3 == true)
  }

  @Test func anInitialValueEqualToTheDefaultChangesNothing() {
    @Shared(.isEnabled) var isOn1 = false
    @Shared(.isEnabled) var isOn2 = true
    @Shared(.isEnabled) var isOn3

    #expect(isOn1 == false)
    #expect(isOn2 == false)
    #expect(isOn3 == false)
  }

  @Test func aFirstUseWithoutAnInitialValueTakesTheDefault() {
    @Shared(.isEnabled) var isOn1
    @Shared(.isEnabled) var isOn2 = true
    @Shared(.isEnabled) var isOn3 = false

    #expect(isOn1 == false)
    #expect(isOn2 == false)
    #expect(isOn3 == false)
  }

  @Test func readersFollowTheSameRules() {
    do {
      @SharedReader(.isEnabled) var isOn1 = true
      @SharedReader(.isEnabled) var isOn2 = false
      @SharedReader(.isEnabled) var isOn3
      #expect(isOn1 == true && isOn2 == true && isOn3 == true)
    }
    do {
      @SharedReader(.isDisabled) var isOff1
      @SharedReader(.isDisabled) var isOff2 = true
      @SharedReader(.isDisabled) var isOff3 = false
      #expect(isOff1 == false && isOff2 == false && isOff3 == false)
    }
  }

  @Test func anInitialValueGivenAtAUseIsKeptAfterTheUseEnds() {
    do {
      @Shared(.isEnabled) var isOn = true
      #expect(isOn == true)
    }
    do {
      @Shared(.isEnabled) var isOn
      #expect(isOn == true)
    }
  }

  @Test func aChangeIsKeptAfterTheUseEnds() {
    do {
      @Shared(.isEnabled) var isOn = false
      $isOn.withLock { $0 = true }
      #expect(isOn == true)
    }
    do {
      @Shared(.isEnabled) var isOn
      #expect(isOn == true)
    }
  }

  @Test func theDefaultIsTheKeysInitialValue() {
    #expect(InMemoryKey<Bool>.Default.isEnabled.initialValue == false)
  }

  // MARK: A writer and a reader of one key with different defaults

  @Test func writerDefaultThenReaderDefault() {
    @Shared(.count1) var count
    @SharedReader(.count2) var countReader
    $count.withLock { $0 += 1 }
    #expect(count == 2)
    #expect(countReader == 2)
  }

  @Test func readerDefaultThenWriterDefault() {
    @SharedReader(.count2) var countReader
    @Shared(.count1) var count
    $count.withLock { $0 += 1 }
    #expect(count == 3)
    #expect(countReader == 3)
  }

  @Test func writerThenReaderDefault() {
    @Shared(.count1) var count = 3
    @SharedReader(.count2) var countReader
    $count.withLock { $0 += 1 }
    #expect(count == 4)
    #expect(countReader == 4)
  }

  @Test func writerDefaultThenReader() {
    @Shared(.count1) var count
    @SharedReader(.count2) var countReader = 3
    $count.withLock { $0 += 1 }
    #expect(count == 2)
    #expect(countReader == 2)
  }

  @Test func readerThenWriterDefault() {
    @SharedReader(.count2) var countReader = 3
    @Shared(.count1) var count
    $count.withLock { $0 += 1 }
    #expect(count == 4)
    #expect(countReader == 4)
  }

  @Test func readerDefaultThenWriter() {
    @SharedReader(.count2) var countReader
    @Shared(.count1) var count = 3
    $count.withLock { $0 += 1 }
    #expect(count == 3)
    #expect(countReader == 3)
  }

  // MARK: TCA's SharedTests (1.x)

  @Test func everyUseOfTheBaseKeySharesTheValue() {
    @Shared(.appStorageIsOn) var isOn1
    @Shared(.appStorageIsOn) var isOn2 = true
    @Shared(.appStorage("isOn")) var isOn3 = true
    #expect(isOn1 == false && isOn2 == false && isOn3 == false)

    $isOn2.withLock { $0 = true }
    #expect(isOn1 == true && isOn2 == true && isOn3 == true)

    $isOn1.withLock { $0 = false }
    #expect(isOn1 == false && isOn2 == false && isOn3 == false)

    $isOn3.withLock { $0 = true }
    #expect(isOn1 == true && isOn2 == true && isOn3 == true)
  }

  @Test func readersOfTheBaseKeySeeTheWritersChanges() {
    @Shared(.appStorage("isOn")) var isOn = false
    @SharedReader(.appStorageIsOn) var isOn1
    @SharedReader(.appStorageIsOn) var isOn2 = true
    @SharedReader(.appStorage("isOn")) var isOn3 = true
    #expect(isOn1 == false && isOn2 == false && isOn3 == false)

    $isOn.withLock { $0 = true }
    #expect(isOn1 == true && isOn2 == true && isOn3 == true)
  }

  @Test func theDefaultIsEvaluatedOnlyWhenUsed() {
    let didEvaluate = LockIsolated(false)
    let logDefault: @Sendable () -> Bool = {
      didEvaluate.setValue(true)
      return true
    }
    @Shared(.isActive(default: logDefault())) var isActive1 = false
    @Shared(.isActive(default: logDefault())) var isActive2
    #expect(isActive1 == false && isActive2 == false)
    #expect(didEvaluate.value == false, "an initial value given at the first use replaces the default")
  }

  @Test func theDefaultIsEvaluatedForAFirstUseWithoutAnInitialValue() {
    let didEvaluate = LockIsolated(false)
    let logDefault: @Sendable () -> Bool = {
      didEvaluate.setValue(true)
      return true
    }
    @Shared(.isActive(default: logDefault())) var isActive
    #expect(isActive == true)
    #expect(didEvaluate.value == true)
  }

  @Test func anInitialValueIsEvaluatedOnlyForTheFirstUse() {
    let evaluated1 = LockIsolated(false)
    let evaluated2 = LockIsolated(false)
    @Shared(.appStorageIsOn) var isOn1 = {
      evaluated1.setValue(true)
      return false
    }()
    @SharedReader(.appStorageIsOn) var isOn2 = {
      evaluated2.setValue(true)
      return true
    }()
    #expect(isOn1 == false && isOn2 == false)
    #expect(evaluated1.value == true)
    #expect(evaluated2.value == false)
  }

  @Test func requiringAKeyThatHoldsNothingThrows() async {
    // TCA 1.x spelled this `try Shared(.noDefaultIsOn)`; swift-sharing 2.x, `try await Shared(require:)`.
    await #expect(throws: SharedKeyHoldsNoValue.self) {
      try await Shared<Bool>(require: .appStorage("noDefaultIsOn"))
    }
    await #expect(throws: SharedKeyHoldsNoValue.self) {
      try await SharedReader<Bool>(require: .appStorage("noDefaultIsOn"))
    }
  }

  @Test func anOptionalWithANilDefaultReadsWhatTheDefaultsHold() {
    DependencyValues.current.defaultAppStorage.set(true, forKey: "optionalValueWithDefault")
    @Shared(.optionalValueWithDefault) var optionalValueWithDefault
    #expect(optionalValueWithDefault == true)

    $optionalValueWithDefault.withLock { $0 = nil }
    #expect(optionalValueWithDefault == nil)
    #expect(DependencyValues.current.defaultAppStorage.object(forKey: "optionalValueWithDefault") == nil)
  }
}

/// An optional with a default compiles as a stored property (TCA's compile-time check).
private struct StateWithOptionalSharedAndDefault {
  @Shared(.optionalValueWithDefault) var optionalValueWithDefault
}

extension SharedReaderKey where Self == InMemoryKey<Bool>.Default {
  fileprivate static var isEnabled: Self { Self[.inMemory("isEnabled"), default: false] }
  fileprivate static var isDisabled: Self { Self[.inMemory("isDisabled"), default: false] }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var count1: Self { Self[.inMemory("count"), default: 1] }
}

extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var count2: Self { Self[.inMemory("count"), default: 2] }
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  fileprivate static var appStorageIsOn: Self { Self[.appStorage("isOn"), default: false] }

  fileprivate static func isActive(default value: @autoclosure @escaping @Sendable () -> Bool) -> Self {
    Self[.appStorage("isActive"), default: value()]
  }
}

extension SharedKey where Self == AppStorageKey<Bool?>.Default {
  fileprivate static var optionalValueWithDefault: Self {
    Self[.appStorage("optionalValueWithDefault"), default: nil]
  }
}
