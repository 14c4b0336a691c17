/// Optional state of a presented child — a sheet, an alert, a destination enum — that remembers which child is
/// presented, so `ifLet` can tell a dismissal or a replacement by a *different* child from a change of the child.
///
/// Use it as a property wrapper and hand its projected value to `ifLet(\.$destination, action:)`:
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var destination: Destination.State?
/// }
/// // in the body:
/// Reduce { state, action in … }
///   .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
/// ```
///
/// Only the wrapped value takes part in `==`, hashing, coding and dumps.
@propertyWrapper
public struct PresentationState<State> {
  /// Boxed, as in TCA: a feature can present itself recursively, and copies of a parent's state stay cheap.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline var value: State?
    @inlinable init(_ value: State?) { self.value = value }
  }

  // Inlinable accessors: a navigation reducer reads and changes the child on every action, specialized.
  @usableFromInline var storage: Storage
  /// The identity of the child as of the last time an `ifLet` over this state ran (nil: nothing presented then).
  @usableFromInline var presentedID: PresentationIdentity?
  /// Counts changes made outside the child's own reducer: how `ifLet` tells that the parent took over the
  /// presentation (replaced an alert by another) while handling an action of it.
  @usableFromInline var writes: UInt = 0

  /// The presented child, or nil. Changed in place (copy-on-write).
  public var wrappedValue: State? {
    @inlinable get { storage.value }
    @inlinable set {
      if isKnownUniquelyReferenced(&storage) {
        storage.value = newValue
      } else {
        storage = Storage(newValue)
      }
      writes &+= 1
    }
    @inlinable _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
      writes &+= 1
      yield &storage.value
    }
  }

  /// Presents `wrappedValue` (nil: nothing presented).
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The state itself, for `ifLet(\.$destination, …)`.
  public var projectedValue: Self {
    @inlinable get { self }
    @inlinable set { self = newValue }
  }

  /// The presented child's value in the enum case `casePath`; setting it changes the child in place, setting nil
  /// dismisses it. Changing a child that is in another case is a runtime issue and changes nothing.
  ///
  /// ```swift
  /// state.$destination[case: Destination.State.editCase]?.title = "Kite"
  /// ```
  public subscript<Case>(
    case casePath: CasePath<State, Case>, fileID fileID: StaticString = #fileID, line line: UInt = #line
  ) -> Case? {
    get { wrappedValue.flatMap(casePath.extract) }
    set {
      guard let current = wrappedValue else { return }
      guard casePath.extract(current) != nil else {
        reportIssue("Can't modify unrelated case \(caseName(of: current)).", fileID: fileID, line: line)
        return
      }
      wrappedValue = newValue.map(casePath.embed)
    }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(State?.self))
  }
}

extension PresentationState: CustomDumpRepresentable, WrappedPropertyDumping {
  public var customDumpValue: Any { wrappedValue as Any }
}
