/// An array of identifiable elements with O(1) lookup by id: the state of a `forEach` list.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// todos[id: 1]?.isDone = true
/// todos.remove(id: 1)
/// ```
///
/// Ids are unique: appending an element whose id is already present replaces nothing and returns `false`.
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  private var elements: [Element]
  private var offsets: [ID: Int]
  private let id: KeyPath<Element, ID> & Sendable

  /// An empty array identifying elements by `id`.
  public init(id: KeyPath<Element, ID> & Sendable) {
    self.elements = []
    self.offsets = [:]
    self.id = id
  }

  /// The ids in order.
  public var ids: [ID] { elements.map { $0[keyPath: id] } }

  /// The element with `id`; setting nil removes it, setting a value replaces it (or appends it when absent).
  public subscript(id elementID: ID) -> Element? {
    get { offsets[elementID].map { elements[$0] } }
    set {
      switch (offsets[elementID], newValue) {
      case let (offset?, element?): elements[offset] = element
      case (nil, let element?): append(element)
      case (_?, nil): remove(id: elementID)
      case (nil, nil): break
      }
    }
  }

  /// The position of the element with `id`.
  public func index(id elementID: ID) -> Int? { offsets[elementID] }

  /// Appends `element` unless its id is present. Returns whether it was appended.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    let elementID = element[keyPath: id]
    guard offsets[elementID] == nil else { return false }
    offsets[elementID] = elements.count
    elements.append(element)
    return true
  }

  /// Inserts `element` at `index` unless its id is present. Returns whether it was inserted.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    let elementID = element[keyPath: id]
    guard offsets[elementID] == nil else { return false }
    elements.insert(element, at: index)
    reindex(from: index)
    return true
  }

  /// Removes and returns the element with `id`.
  @discardableResult
  public mutating func remove(id elementID: ID) -> Element? {
    guard let offset = offsets.removeValue(forKey: elementID) else { return nil }
    let element = elements.remove(at: offset)
    reindex(from: offset)
    return element
  }

  /// Removes and returns the element at `index`.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = elements.remove(at: index)
    offsets.removeValue(forKey: element[keyPath: id])
    reindex(from: index)
    return element
  }

  /// Removes every element matching `shouldRemove`.
  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    try elements.removeAll(where: shouldRemove)
    reindex(from: 0)
  }

  /// Removes every element.
  public mutating func removeAll() {
    elements.removeAll()
    offsets.removeAll()
  }

  private mutating func reindex(from start: Int) {
    if start == 0 { offsets.removeAll(keepingCapacity: true) }
    for offset in start..<elements.count { offsets[elements[offset][keyPath: id]] = offset }
  }
}

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  /// An empty array of identifiable elements.
  public init() { self.init(id: \.id) }

  /// The elements of `sequence`, keeping the first of any duplicate ids.
  public init(_ sequence: some Sequence<Element>) {
    self.init()
    for element in sequence { append(element) }
  }
}

/// An ``IdentifiedArray`` of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }

  /// The element at `position`. Setting an element with a different id than the one it replaces is a programmer
  /// error and traps.
  public subscript(position: Int) -> Element {
    get { elements[position] }
    set {
      precondition(
        newValue[keyPath: id] == elements[position][keyPath: id],
        "IdentifiedArray: an element set by position must keep its id")
      elements[position] = newValue
    }
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, Element.ID == ID {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

extension IdentifiedArray: @unchecked Sendable where Element: Sendable {}

extension IdentifiedArray: CustomDumpRepresentable {
  public var customDumpValue: Any { elements }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, Element.ID == ID {
  /// Decodes an array; duplicate ids are a decoding error, not a silent loss.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let elements = try container.decode([Element].self)
    self.init(elements)
    guard count == elements.count else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "IdentifiedArray: \(elements.count - count) duplicate id(s)")
    }
  }
}
