/// The content of a navigation stack: an ordered collection of elements, each with a stable ``StackElementID``.
///
/// Pushing (`append`, or a ``StackAction/push(id:state:)`` action) gives the element the next id of the store's
/// ``StackElementIDGenerator`` (`\.stackElementID`): 0, 1, 2, … in a test. A stack built where no store's dependencies
/// are in effect (say, in a test before the store exists) numbers its own elements 0, 1, 2, …, and a store never
/// gives an id that is already on the stack.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
/// state.path.append(.detail(Detail.State(item: item)))   // #0
/// state.path[id: 0, case: Path.State.detailCase]?.isEditing = true
/// state.path.pop(from: 0)                                 // removes #0 and everything above it
/// ```
///
/// Drive it with ``Reducer/forEach(_:action:destination:fileID:line:)-(_,CasePath<Self.Action,StackAction<DestinationState,DestinationAction>>,_,_,_)`` and ``StackAction``.
public struct StackState<Element> {
  @usableFromInline var elementIDs: [StackElementID]
  @usableFromInline var elements: [Element]
  /// The ids as of the last time a `forEach` over this stack ran: how it notices elements removed by other reducers
  /// between actions. Not part of the value (ignored by `==`).
  @usableFromInline var mounted: [StackElementID] = []
  /// The next id of an element appended where no store's dependencies are in effect.
  private var nextLocalGeneration = 0

  /// An empty stack.
  public init() {
    elementIDs = []
    elements = []
  }

  /// The ids of the elements, bottom first.
  @inlinable
  public var ids: [StackElementID] { elementIDs }

  /// The element with `id`. Setting nil pops just that element; setting a value replaces it, or pushes it with
  /// that id when the stack has no such element (how a test writes the expected stack: `$0.path[id: 0] = …`).
  public subscript(id id: StackElementID) -> Element? {
    get { elementIDs.firstIndex(of: id).map { elements[$0] } }
    set {
      switch (elementIDs.firstIndex(of: id), newValue) {
      case let (index?, element?):
        elements[index] = element
      case let (index?, nil):
        elementIDs.remove(at: index)
        elements.remove(at: index)
      case let (nil, element?):
        elementIDs.append(id)
        elements.append(element)
      case (nil, nil):
        break
      }
    }
  }

  /// The value of the element with `id` in the enum case `casePath`; setting it changes the element in place.
  ///
  /// Changing an element that is in another case is a runtime issue and changes nothing.
  ///
  /// ```swift
  /// state.path[id: 0, case: Path.State.detailCase]?.title = "Kite"
  /// ```
  public subscript<Case>(
    id id: StackElementID, case casePath: CasePath<Element, Case>, fileID fileID: StaticString = #fileID,
    line line: UInt = #line
  ) -> Case? {
    get { self[id: id].flatMap(casePath.extract) }
    set {
      guard let index = elementIDs.firstIndex(of: id) else { return }
      guard casePath.extract(elements[index]) != nil else {
        reportIssue("Can't modify unrelated case \(caseName(of: elements[index])).", fileID: fileID, line: line)
        return
      }
      if let newValue {
        elements[index] = casePath.embed(newValue)
      } else {
        elementIDs.remove(at: index)
        elements.remove(at: index)
      }
    }
  }

  /// Pops the element with `id` and every element above it. Does nothing when `id` is not on the stack.
  public mutating func pop(from id: StackElementID) {
    guard let index = elementIDs.firstIndex(of: id) else { return }
    removeSubrange(index...)
  }

  /// Pops every element above the one with `id`. Does nothing when `id` is not on the stack.
  public mutating func pop(to id: StackElementID) {
    guard let index = elementIDs.firstIndex(of: id) else { return }
    removeSubrange((index + 1)...)
  }

  /// Runs `body` on the element with `id` in place; nil when there is no such element.
  @inlinable
  mutating func modify<Result>(id: StackElementID, _ body: (inout Element) -> Result) -> Result? {
    guard let index = elementIDs.firstIndex(of: id) else { return nil }
    return body(&elements[index])
  }

  /// An id for a new element: the store's next one, or this stack's own next one outside any store.
  private mutating func makeID() -> StackElementID {
    var id: StackElementID
    if ReducerDependencies.active != nil || DependencyValues.taskValues != nil {
      let generator = Dependency(\.stackElementID).wrappedValue
      repeat { id = generator.next() } while elementIDs.contains(id)
    } else {
      repeat {
        id = StackElementID(generation: nextLocalGeneration)
        nextLocalGeneration += 1
      } while elementIDs.contains(id)
    }
    return id
  }
}

extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  /// The element at `position` (0 is the bottom of the stack).
  public subscript(position: Int) -> Element { elements[position] }

  public mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C) {
    elementIDs.removeSubrange(subrange)
    elements.removeSubrange(subrange)
    var index = subrange.lowerBound
    for element in newElements {
      let id = makeID()
      elementIDs.insert(id, at: index)
      elements.insert(element, at: index)
      index += 1
    }
  }

  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    elementIDs.removeAll(keepingCapacity: keepCapacity)
    elements.removeAll(keepingCapacity: keepCapacity)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the same elements are on the stack under the same ids.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementIDs == rhs.elementIDs && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elementIDs)
    hasher.combine(elements)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements, bottom first (ids are not encoded: a decoded stack gets fresh ones).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension StackState: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Element].self))
  }
}

extension StackState: CustomReflectable {
  /// Each element labelled with its id (`#0: …`), so dumps and diffs line elements up by id.
  public var customMirror: Mirror {
    Mirror(
      self, children: zip(elementIDs, elements).map { (label: $0.description, value: $1 as Any) },
      displayStyle: .struct)
  }
}

extension StackState: CustomStringConvertible {
  public var description: String { elements.description }
}
