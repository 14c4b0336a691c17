import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `CompileTimeTests`, ported: spellings that must keep compiling (and, run, give the value type
/// they say), from overloads that could become ambiguous.
@Suite struct CompileTimeTests {
  @Test func anIdentifiedArrayDefaultTakesAnArrayLiteral() {
    do {
      @Shared(.items) var items = []
      #expect(items.isEmpty)
    }
    do {
      @SharedReader(.items) var items = []
      #expect(items.isEmpty)
    }
  }

  @Test func aReaderTakesAWritableKeyWithAnInitialValue() {
    let reader = SharedReader(wrappedValue: 42, .count)
    #expect(reader.wrappedValue == 42)
  }

  @Test func aKeyWithADefaultNeedsNoInitialValue() {
    @SharedReader(.optionalCount) var count1
    @Shared(.optionalCount) var count2
    #expect(count1 == nil)
    #expect(count2 == nil)
    $count2.withLock { $0 = 3 }
    #expect(count1 == 3)
  }

  @Test func anOptionalKeyNeedsNoInitialValue() {
    @Shared(.appStorage("name")) var name: String?
    @SharedReader(.inMemory("age")) var age: Int?
    #expect(name == nil)
    #expect(age == nil)
  }
}

private struct Item: Identifiable, Sendable {
  let id = UUID()
}

extension SharedReaderKey where Self == InMemoryKey<IdentifiedArrayOf<Item>>.Default {
  fileprivate static var items: Self { Self[.inMemory("items"), default: []] }
}

extension SharedKey where Self == InMemoryKey<Int> {
  fileprivate static var count: Self { .inMemory("count") }
}

extension SharedReaderKey where Self == AppStorageKey<Int?>.Default {
  fileprivate static var optionalCount: Self { Self[.appStorage("count"), default: nil] }
}
