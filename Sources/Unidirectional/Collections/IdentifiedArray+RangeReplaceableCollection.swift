import Foundation

extension IdentifiedArray {
  /// Appends `element` unless its id is present.
  ///
  /// - Returns: Whether it was inserted, and the index of the element with its id.
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    insert(element, at: endIndex)
  }

  /// Appends each element whose id is not present yet, in order.
  public mutating func append(contentsOf newElements: some Sequence<Element>) {
    for element in newElements { append(element) }
  }

  /// Inserts `element` at `index` unless its id is present.
  ///
  /// - Returns: Whether it was inserted, and the index of the element with its id.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let elementID = readID(element)
    if let existing = offsets[elementID] { return (false, existing) }
    if index == elements.count {
      offsets[elementID] = index
      elements.append(element)
    } else {
      elements.insert(element, at: index)
      reindex(from: index)
    }
    return (true, index)
  }

  /// Replaces the element at `index` with `element`, which must have the same id (otherwise a runtime issue, and
  /// nothing changes). Returns the element replaced.
  @discardableResult
  public mutating func update(_ element: Element, at index: Int) -> Element {
    let original = elements[index]
    guard readID(element) == readID(original) else {
      reportIssue(
        """
        IdentifiedArray.update(_:at:): the element's id \(readID(element)) differs from the id \(readID(original)) \
        at index \(index); nothing changed.
        """)
      return original
    }
    elements[index] = element
    return original
  }

  /// Replaces the element with the id of `element`, or appends it. Returns the element replaced, if any.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let elementID = readID(element)
    guard let offset = offsets[elementID] else {
      offsets[elementID] = elements.count
      elements.append(element)
      return nil
    }
    defer { elements[offset] = element }
    return elements[offset]
  }

  /// Replaces the element with the id of `element` where it is, or inserts it at `index`.
  @discardableResult
  public mutating func updateOrInsert(_ element: Element, at index: Int) -> (originalMember: Element?, index: Int) {
    let elementID = readID(element)
    if let offset = offsets[elementID] {
      defer { elements[offset] = element }
      return (elements[offset], offset)
    }
    insert(element, at: index)
    return (nil, index)
  }

  /// Removes and returns the element at `index`.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = elements.remove(at: index)
    offsets.removeValue(forKey: readID(element))
    if index < elements.count { reindex(from: index) }
    return element
  }

  /// Removes and returns the first element.
  @discardableResult
  public mutating func removeFirst() -> Element { remove(at: startIndex) }

  /// Removes the first `k` elements.
  public mutating func removeFirst(_ k: Int) { removeSubrange(startIndex..<startIndex + k) }

  /// Removes and returns the last element.
  @discardableResult
  public mutating func removeLast() -> Element { remove(at: endIndex - 1) }

  /// Removes the last `k` elements.
  public mutating func removeLast(_ k: Int) { removeSubrange(endIndex - k..<endIndex) }

  /// Removes the elements in `bounds`.
  public mutating func removeSubrange(_ bounds: Range<Int>) {
    removeElements(in: bounds)
  }

  /// Removes the elements in `bounds`.
  public mutating func removeSubrange(_ bounds: some RangeExpression<Int>) {
    removeElements(in: bounds.relative(to: elements))
  }

  // One implementation for every removal: the standard library's defaults route through `replaceSubrange`.
  mutating func removeElements(in range: Range<Int>) {
    guard !range.isEmpty else { return }
    for element in elements[range] { offsets.removeValue(forKey: readID(element)) }
    elements.removeSubrange(range)
    if range.lowerBound < elements.count { reindex(from: range.lowerBound) }
  }

  /// Removes every element matching `shouldBeRemoved`.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    try elements.removeAll(where: shouldBeRemoved)
    reindex(from: 0)
  }

  /// Removes every element.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    elements.removeAll(keepingCapacity: keepCapacity)
    offsets.removeAll(keepingCapacity: keepCapacity)
  }

  /// Reserves room for `minimumCapacity` elements.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    elements.reserveCapacity(minimumCapacity)
    offsets.reserveCapacity(minimumCapacity)
  }

  /// Removes the elements at `offsets` (as SwiftUI's `onDelete` hands them over). Offsets out of range are ignored.
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard !offsets.isEmpty else { return }
    var kept: [Element] = []
    kept.reserveCapacity(elements.count)
    for (offset, element) in elements.enumerated() where !offsets.contains(offset) { kept.append(element) }
    elements = kept
    reindex(from: 0)
  }

  /// Moves the elements at `source` to `destination`, as SwiftUI's `onMove` hands them over: `destination` is an
  /// offset in the array before the move. Offsets out of range are ignored; a destination past the end moves to it.
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    let destination = Swift.min(Swift.max(destination, 0), elements.count)
    var before: [Element] = []
    var moved: [Element] = []
    var after: [Element] = []
    for (offset, element) in elements.enumerated() {
      if source.contains(offset) {
        moved.append(element)
      } else if offset < destination {
        before.append(element)
      } else {
        after.append(element)
      }
    }
    elements = before + moved + after
    reindex(from: 0)
  }
}

extension IdentifiedArray: RangeReplaceableCollection where Element: Identifiable, Element.ID == ID {
  /// Replaces the elements in `subrange` with `newElements`. Ids stay unique: a new element whose id is already
  /// outside `subrange` (or earlier in `newElements`) is reported as a runtime issue and dropped.
  public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<Element>) {
    removeElements(in: subrange)
    var index = subrange.lowerBound
    for element in newElements {
      if insert(element, at: index).inserted {
        index += 1
      } else {
        reportIssue(
          "IdentifiedArray: an inserted element with the id \(element.id) was dropped: that id is already present.")
      }
    }
  }
}
