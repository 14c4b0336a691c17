extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  /// The element at `position`.
  ///
  /// Setting an element with a new id replaces the one at `position`; setting one whose id another element has
  /// moves that element here, as swift-identified-collections does. Mutating an element in place so that its id
  /// changes re-indexes it (a runtime issue if another element has that id).
  public subscript(position: Int) -> Element {
    @inlinable
    get { elements[position] }
    set {
      let newID = readID(newValue)
      let oldID = readID(elements[position])
      if newID == oldID {
        elements[position] = newValue
      } else if let existing = offsets[newID] {
        elements.swapAt(existing, position)
        offsets[oldID] = existing
        offsets[newID] = position
        elements[position] = newValue
      } else {
        offsets.removeValue(forKey: oldID)
        offsets[newID] = position
        elements[position] = newValue
      }
    }
    @inlinable
    _modify {
      let previousID = readID(elements[position])
      var element: Element? = takeElement(at: position)
      defer { putBack(element, at: position, previousID: previousID) }
      // A non-optional view of the element: the caller cannot remove it through a position.
      yield &element!
    }
  }

  /// Sorts the elements in place with `areInIncreasingOrder`; ids stay with their elements.
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try storedElements.sort(by: areInIncreasingOrder)
    reindex(from: 0)
  }

  /// Swaps the elements at `i` and `j`.
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    elements.swapAt(i, j)
    offsets[readID(elements[i])] = i
    offsets[readID(elements[j])] = j
  }

  /// Reverses the order of the elements.
  @inlinable
  public mutating func reverse() {
    storedElements.reverse()
    reindex(from: 0)
  }

  /// Shuffles the elements with the system's random number generator.
  public mutating func shuffle() {
    var generator = SystemRandomNumberGenerator()
    shuffle(using: &generator)
  }

  /// Shuffles the elements with `generator`.
  public mutating func shuffle<T: RandomNumberGenerator>(using generator: inout T) {
    elements.shuffle(using: &generator)
    reindex(from: 0)
  }

  /// Reorders the elements so that those matching `belongsInSecondPartition` come last; returns the index of the
  /// first of them.
  public mutating func partition(by belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
    let pivot = try elements.partition(by: belongsInSecondPartition)
    reindex(from: 0)
    return pivot
  }

  /// The elements matching `isIncluded`, in order, as an identified array.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var result = Self(id: id, readID: readID, elements: [], offsets: [:])
    for element in elements where try isIncluded(element) {
      result.offsets[readID(element)] = result.elements.count
      result.elements.append(element)
    }
    return result
  }
}

extension IdentifiedArray where Element: Comparable {
  /// Sorts the elements in ascending order.
  @inlinable public mutating func sort() { sort(by: <) }
}
