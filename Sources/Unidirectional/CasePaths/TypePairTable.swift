/// A hash table from a pair of types to a value: what ``PayloadCases`` keeps per pair, looked up every time a case
/// path is made from a constructor.
///
/// The key is the two metadata addresses, mixed by one multiplication: `Dictionary` would hash them with SipHash,
/// which was most of the cost of making a case path (≈ 190 of its instructions). Open addressing, linear probing,
/// never more than half full.
struct TypePairTable<Value> {
  private var slots: [(root: UInt, value: UInt, entry: Value)?] = Array(repeating: nil, count: 64)
  private var count = 0

  /// The entry of the pair, if any.
  func entry(_ root: Any.Type, _ value: Any.Type) -> Value? {
    let (root, value) = (Self.address(root), Self.address(value))
    var index = Self.index(root, value, capacity: slots.count)
    while let slot = slots[index] {
      if slot.root == root && slot.value == value { return slot.entry }
      index = (index + 1) & (slots.count - 1)
    }
    return nil
  }

  /// Keeps `entry` for the pair (the first one kept stays).
  mutating func insert(_ entry: Value, for root: Any.Type, _ value: Any.Type) {
    guard self.entry(root, value) == nil else { return }
    if 2 * (count + 1) > slots.count {
      let old = slots
      slots = Array(repeating: nil, count: 2 * old.count)
      count = 0
      for case let slot? in old { place(slot) }
    }
    place((Self.address(root), Self.address(value), entry))
  }

  private mutating func place(_ slot: (root: UInt, value: UInt, entry: Value)) {
    var index = Self.index(slot.root, slot.value, capacity: slots.count)
    while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
    slots[index] = slot
    count += 1
  }

  private static func address(_ type: Any.Type) -> UInt { UInt(bitPattern: unsafeBitCast(type, to: Int.self)) }

  /// Fibonacci hashing of the two addresses: the high bits of their mix times 2⁶⁴/φ.
  private static func index(_ root: UInt, _ value: UInt, capacity: Int) -> Int {
    let mixed = (root ^ (value &<< 1 | value &>> 63)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> UInt(UInt.bitWidth - capacity.trailingZeroBitCount))
  }
}
