import Foundation

/// An array of elements with unique ids and O(1) lookup by id: the state of a `forEach` list.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
/// todos[id: 1]?.isDone = true
/// todos.sort { $0.title < $1.title }
/// todos.remove(id: 2)
/// ```
///
/// It has the API of swift-identified-collections' `IdentifiedArray` that features use. Ids stay unique through
/// every operation, and no operation traps on a duplicate id: an insertion whose id is present is refused (and says
/// so in its result), and a mutation that would give two elements one id is reported as a runtime issue.
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  /// The key path to each element's id.
  public let id: KeyPath<Element, ID>
  /// Reads an element's id; faster than the key path for `Identifiable` elements.
  @usableFromInline let readID: (Element) -> ID
  /// The storage of ``elements``, reachable from inlinable code (the operations that must be specialized for the
  /// caller's element type to be fast: sorting 10,000 elements unspecialized took 20× `Array.sort`).
  @usableFromInline var storedElements: [Element]
  /// Each element's position, by id.
  @usableFromInline var offsets: [ID: Int]

  /// The elements, in order.
  public internal(set) var elements: [Element] {
    @inlinable get { storedElements }
    @inlinable _modify { yield &storedElements }
    @inlinable set { storedElements = newValue }
  }

  init(
    id: KeyPath<Element, ID>, readID: @escaping (Element) -> ID, elements: [Element],
    offsets: [ID: Int]
  ) {
    self.id = id
    self.readID = readID
    self.storedElements = elements
    self.offsets = offsets
  }

  /// The ids, in order.
  @inlinable
  public var ids: [ID] { elements.map(readID) }

  /// Whether `other` has the same ids in the same order, found without building arrays of ids (see
  /// ``idsOfChangedElements(since:)``).
  @inlinable
  func hasSameIDs(as other: Self) -> Bool {
    idsOfChangedElements(since: other) != nil
  }

  /// The ids of the elements whose bytes differ from `old`'s at the same position, or nil when elements were
  /// added, removed or moved. No value is compared or hashed: `old` holds every reference its elements had, so
  /// identical bytes are the identical value, and only the elements whose bytes differ have their ids read (bytes
  /// that differ in padding only make an element look changed, which costs a look, never a missed change). Two
  /// copies that still share their storage (nothing was written in between) cost nothing.
  @inlinable
  func idsOfChangedElements(since old: Self) -> [ID]? {
    guard storedElements.count == old.storedElements.count else { return nil }
    let size = MemoryLayout<Element>.size
    let stride = MemoryLayout<Element>.stride
    var changedOffsets: [Int] = []
    storedElements.withUnsafeBytes { newBytes in
      old.storedElements.withUnsafeBytes { oldBytes in
        guard oldBytes.baseAddress != newBytes.baseAddress, size > 0,
          let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress,
          memcmp(oldBase, newBase, oldBytes.count) != 0
        else { return }
        // Blocks of 64 first: one changed row of a thousand costs 16 block compares and 64 row compares.
        var blockStart = 0
        while blockStart < storedElements.count {
          let blockEnd = Swift.min(blockStart + 64, storedElements.count)
          let blockBytes = (blockEnd - blockStart) * stride
          if memcmp(oldBase + blockStart * stride, newBase + blockStart * stride, blockBytes) != 0 {
            for offset in blockStart..<blockEnd
            where memcmp(oldBase + offset * stride, newBase + offset * stride, size) != 0 {
              changedOffsets.append(offset)
            }
          }
          blockStart = blockEnd
        }
      }
    }
    var ids: [ID] = []
    ids.reserveCapacity(changedOffsets.count)
    for offset in changedOffsets {
      let newID = readID(storedElements[offset])
      guard newID == old.readID(old.storedElements[offset]) else { return nil }
      ids.append(newID)
    }
    return ids
  }

  /// The position of the element with `id`.
  @inlinable
  public func index(id elementID: ID) -> Int? { offsets[elementID] }

  /// Whether an element with the id of `element` is present.
  @inlinable
  public func contains(_ element: Element) -> Bool { offsets[readID(element)] != nil }

  /// The element with `id`, or nil. Setting nil removes it; setting an element replaces it, or appends it when no
  /// element has that id. An element whose own id differs from `id` is a runtime issue and changes nothing.
  public subscript(id elementID: ID) -> Element? {
    @inlinable
    get { offsets[elementID].map { elements[$0] } }
    set {
      guard let newValue else {
        remove(id: elementID)
        return
      }
      guard readID(newValue) == elementID else {
        reportIssue(
          """
          IdentifiedArray: an element with the id \(readID(newValue)) was assigned to the subscript [id: \
          \(elementID)]; nothing changed. Assign an element with the same id, or use updateOrAppend(_:).
          """)
        return
      }
      if let offset = offsets[elementID] {
        elements[offset] = newValue
      } else {
        offsets[elementID] = elements.count
        elements.append(newValue)
      }
    }
    @inlinable
    _modify {
      guard let offset = offsets[elementID] else {
        var absent: Element? = nil
        yield &absent
        if let absent { self[id: elementID] = absent }
        return
      }
      var element: Element? = takeElement(at: offset)
      defer { putBack(element, at: offset, previousID: elementID) }
      yield &element
    }
  }

  /// Removes and returns the element with `id`.
  @discardableResult
  public mutating func remove(id elementID: ID) -> Element? {
    guard let offset = offsets[elementID] else { return nil }
    return remove(at: offset)
  }

  /// Removes and returns the element with the id of `element`.
  @discardableResult
  public mutating func remove(_ element: Element) -> Element? {
    remove(id: readID(element))
  }

  /// Rebuilds the positions of the elements from `start` on.
  @inlinable
  mutating func reindex(from start: Int) {
    if start == 0 {
      offsets.removeAll(keepingCapacity: true)
      offsets.reserveCapacity(storedElements.count)
    }
    for offset in start..<storedElements.count { offsets[readID(storedElements[offset])] = offset }
  }

  /// Moves the element at `offset` out of the storage, so that it is uniquely referenced while a caller mutates
  /// it (no copy-on-write of its own buffers): the last element takes its place until ``putBack(_:at:previousID:)``.
  @inlinable
  mutating func takeElement(at offset: Int) -> Element {
    elements.swapAt(offset, elements.count - 1)
    return elements.removeLast()
  }

  /// Undoes ``takeElement(at:)`` with the mutated element, or removes the position when it became nil.
  @inlinable
  mutating func putBack(_ element: Element?, at offset: Int, previousID: ID) {
    let last = elements.count
    if let element {
      elements.append(element)
      elements.swapAt(offset, last)
      rekeyIfNeeded(at: offset, previousID: previousID)
    } else {
      if offset != last { elements.append(elements.remove(at: offset)) }
      offsets.removeValue(forKey: previousID)
      reindex(from: offset)
    }
  }

  /// After the element at `offset` was mutated in place: if its id changed, indexes it under the new id. An id
  /// that another element holds is a runtime issue; the mutated element wins and the other one is removed.
  @inlinable
  mutating func rekeyIfNeeded(at offset: Int, previousID: ID) {
    let newID = readID(elements[offset])
    guard newID != previousID else { return }
    rekey(at: offset, from: previousID, to: newID)
  }

  /// Indexes the element at `offset` under `newID` instead of `previousID` (see ``rekeyIfNeeded(at:previousID:)``).
  @usableFromInline
  mutating func rekey(at offset: Int, from previousID: ID, to newID: ID) {
    offsets.removeValue(forKey: previousID)
    if let other = offsets[newID], other != offset {
      reportIssue(
        """
        IdentifiedArray: an element's id was changed from \(previousID) to \(newID), which another element \
        already has; that other element was removed. Ids must stay unique.
        """)
      elements.remove(at: other)
      reindex(from: Swift.min(other, offset))
      return
    }
    offsets[newID] = offset
  }
}

extension IdentifiedArray {
  /// An empty array identifying elements by `id`.
  public init(id: KeyPath<Element, ID>) {
    self.init(id: id, readID: { $0[keyPath: id] }, elements: [], offsets: [:])
  }

  /// The elements of `elements`, identified by `id`; of elements with equal ids, `combine` decides which stays
  /// (at the position of the first).
  public init(
    _ elements: some Sequence<Element>,
    id: KeyPath<Element, ID>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    self.init(id: id)
    try append(uniquing: elements, with: combine)
  }

  /// The elements of `elements`, identified by `id`. Ids must be unique: of duplicates, the first is kept and each
  /// later one is reported as a runtime issue.
  public init(uniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID>) {
    self.init(id: id)
    appendReportingDuplicates(elements)
  }

  /// The elements of `elements`, which the caller guarantees have unique ids (checked: a duplicate is reported and
  /// dropped, never trapped on).
  public init(uncheckedUniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID>) {
    self.init(uniqueElements: elements, id: id)
  }

  mutating func append(uniquing elements: some Sequence<Element>, with combine: (Element, Element) throws -> Element)
    rethrows
  {
    for element in elements {
      let elementID = readID(element)
      if let offset = offsets[elementID] {
        self.elements[offset] = try combine(self.elements[offset], element)
        rekeyIfNeeded(at: offset, previousID: elementID)
      } else {
        offsets[elementID] = self.elements.count
        self.elements.append(element)
      }
    }
  }

  mutating func appendReportingDuplicates(_ elements: some Sequence<Element>) {
    for element in elements where !append(element).inserted {
      reportIssue("IdentifiedArray: a second element with the id \(readID(element)) was dropped; ids must be unique.")
    }
  }
}

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  /// An empty array of identifiable elements.
  public init() {
    self.init(id: \.id, readID: { $0.id }, elements: [], offsets: [:])
  }

  /// The elements of `sequence`, keeping the first of any duplicate ids.
  public init(_ sequence: some Sequence<Element>) {
    self.init()
    for element in sequence { append(element) }
  }

  /// The elements of `elements`; of elements with equal ids, `combine` decides which stays.
  public init(
    _ elements: some Sequence<Element>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    self.init()
    try append(uniquing: elements, with: combine)
  }

  /// The elements of `elements`. Ids must be unique: of duplicates, the first is kept and each later one is reported
  /// as a runtime issue.
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    appendReportingDuplicates(elements)
  }

  /// The elements of `elements`, which the caller guarantees have unique ids (checked: a duplicate is reported and
  /// dropped, never trapped on).
  public init(uncheckedUniqueElements elements: some Sequence<Element>) {
    self.init(uniqueElements: elements)
  }
}

/// An ``IdentifiedArray`` of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable
