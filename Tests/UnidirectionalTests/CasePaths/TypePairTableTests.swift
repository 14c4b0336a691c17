import Testing

@testable import Unidirectional

// The table behind derived case paths: one entry per pair of types, the pair in order, growing past its first size.
@Suite struct TypePairTableTests {
  private enum A {}
  private enum B {}

  @Test func findsEachPairInOrder() {
    var table = TypePairTable<String>()
    table.insert("A B", for: A.self, B.self)
    table.insert("B A", for: B.self, A.self)
    #expect(table.entry(A.self, B.self) == "A B")
    #expect(table.entry(B.self, A.self) == "B A")
    #expect(table.entry(A.self, A.self) == nil)
  }

  @Test func theFirstEntryOfAPairStays() {
    var table = TypePairTable<Int>()
    table.insert(1, for: A.self, B.self)
    table.insert(2, for: A.self, B.self)
    #expect(table.entry(A.self, B.self) == 1)
  }

  @Test func growsAndKeepsEveryEntry() {
    // 24 × 24 pairs of distinct types, far past the first 64 slots.
    let types: [Any.Type] = [
      Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
      UInt64.self, Float.self, Double.self, String.self, Character.self, Bool.self, [Int].self, [String].self,
      Set<Int>.self, [Int: Int].self, Int?.self, String?.self, A.self, B.self, Void.self,
    ]
    var table = TypePairTable<Int>()
    for (i, root) in types.enumerated() {
      for (j, value) in types.enumerated() { table.insert(i * 100 + j, for: root, value) }
    }
    for (i, root) in types.enumerated() {
      for (j, value) in types.enumerated() { #expect(table.entry(root, value) == i * 100 + j) }
    }
  }
}
