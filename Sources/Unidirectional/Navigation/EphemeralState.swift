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
struct EphemeralCheck<State, Action>: @unchecked Sendable {
  // The closure captures nothing but a metatype.
  private let check: ((State, Action) -> Bool)?

  init() {
    if let ephemeral = State.self as? any EphemeralState.Type {
      check = Self.checker(for: ephemeral)
    } else {
      check = nil
    }
  }

  /// Whether `State` may be ephemeral at all (no per-action work for the others).
  var isEphemeral: Bool { check != nil || enumStates.cachedValue(for: State.self) != false }

  /// Whether `action` dismisses `state`.
  func isDismissed(_ state: State, by action: Action) -> Bool {
    if let check { return check(state, action) }
    let mirror = Mirror(reflecting: state)
    let isEnum = enumStates.value(for: State.self) { mirror.displayStyle == .enum }
    guard isEnum, let payload = mirror.children.first?.value else { return false }
    return payload is any EphemeralState
  }

  private static func checker<E: EphemeralState>(for _: E.Type) -> (State, Action) -> Bool {
    { state, action in
      guard let state = state as? E, let action = action as? E.Action else { return false }
      return state.isDismissed(by: action)
    }
  }
}

/// Whether a presented state type is an enum, by type: unknown until its first value is seen. Kept per type, not
/// per `EphemeralCheck`: an `ifLet` is rebuilt with its reducer's `body` on every action, and a cache of its own
/// (a class with a lock) cost an allocation and a `Mirror` of the child state on each of them.
private let enumStates = TypeCache<Bool>()
