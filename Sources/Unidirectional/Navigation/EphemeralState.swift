/// State of a presentation that ends with the first action it sends: an alert or a confirmation dialog, which
/// disappear when any of their buttons is tapped.
///
/// `ifLet` over such state sets the state to nil right after the parent has seen the action, with no `.dismiss`
/// round trip. ``AlertState`` and ``ConfirmationDialogState`` conform, and a destination enum whose current case
/// holds one (`case alert(AlertState<Alert>)`) is dismissed the same way with nothing to write, as in TCA. A
/// destination enum may conform itself to say precisely which of its cases are ephemeral:
///
/// ```swift
/// extension Destination.State: EphemeralState {
///   func isDismissed(by action: Destination.Action) -> Bool {
///     if case .confirmDelete = self, case .confirmDelete = action { true } else { false }
///   }
/// }
/// ```
public protocol EphemeralState<Action> {
  /// The actions the state sends (its buttons').
  associatedtype Action
  /// Whether `action`, sent while this state is presented, ends the presentation. Alerts and dialogs: always.
  func isDismissed(by action: Action) -> Bool
}

extension EphemeralState {
  /// Any action ends the presentation.
  public func isDismissed(by action: Action) -> Bool { true }
}

/// Decides whether a presented `State` is dismissed by an `Action` sent to it.
///
/// A `State` that is an ``EphemeralState`` says so itself. A destination enum that does not conform is ephemeral
/// while its current case holds an ``EphemeralState`` (an `.alert(AlertState)` case), as in TCA: no conformance
/// to write. Whether `State` is an enum at all is learned from the first state seen, so other states pay nothing
/// per action after that.
@usableFromInline
struct EphemeralCheck<State, Action>: @unchecked Sendable {
  /// What is known of `State`, looked up once per reducer (not per action): its conformance, whether it is an enum.
  @usableFromInline let presented: PresentedType

  @inlinable
  init() {
    presented = presentedType(of: State.self)
  }

  /// Whether `State` may be ephemeral at all (no per-action work for the others).
  @inlinable
  var isEphemeral: Bool { presented.ephemeral != nil || presented.isEnum != false }

  /// Whether `action` dismisses `state`.
  @usableFromInline
  func isDismissed(_ state: State, by action: Action) -> Bool {
    if let ephemeral = presented.ephemeral {
      func check<E: EphemeralState>(_: E.Type) -> Bool {
        guard let state = state as? E, let action = action as? E.Action else { return false }
        return state.isDismissed(by: action)
      }
      return check(ephemeral)
    }
    let mirror = Mirror(reflecting: state)
    let isEnum = presented.isEnum ?? learnIsEnum(mirror.displayStyle == .enum)
    guard isEnum, let payload = mirror.children.first?.value else { return false }
    return payload is any EphemeralState
  }

  private func learnIsEnum(_ isEnum: Bool) -> Bool {
    presentedTypes.update(for: State.self) { $0.isEnum = isEnum }
    return isEnum
  }
}

/// What a navigation reducer knows of a presented state type: its `EphemeralState` conformance, and whether it is
/// an enum (unknown until its first value is seen). Kept per type: an `ifLet` is rebuilt with its reducer's `body`
/// on every action, and a cache of its own (a class with a lock) cost an allocation and a `Mirror` of the child
/// state on each of them.
@usableFromInline
struct PresentedType: @unchecked Sendable {
  // A metatype: immutable.
  @usableFromInline let ephemeral: (any EphemeralState.Type)?
  @usableFromInline var isEnum: Bool?
}

/// What is known of `type` as a presented state (looked up once per type).
@usableFromInline
func presentedType(of type: Any.Type) -> PresentedType {
  presentedTypes.value(for: type) { PresentedType(ephemeral: type as? any EphemeralState.Type, isEnum: nil) }
}

private let presentedTypes = TypeCache<PresentedType>()
