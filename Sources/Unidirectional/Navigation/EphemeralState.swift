/// State of a presentation that ends with the first action it sends: an alert or a confirmation dialog, which
/// disappear when any of their buttons is tapped.
///
/// `ifLet` over such state (or over a destination enum conforming to it) sets the state to nil right after the
/// parent has seen the action, with no `.dismiss` round trip. ``AlertState`` and ``ConfirmationDialogState``
/// conform; a destination enum conforms to say which of its cases are ephemeral:
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

/// Decides whether a presented `State` is dismissed by an `Action` sent to it: nil when `State` is not
/// ``EphemeralState`` (looked up once, when the reducer is made).
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

  /// Whether `State` is ephemeral at all (no per-action work for the others).
  var isEphemeral: Bool { check != nil }

  /// Whether `action` dismisses `state`.
  func isDismissed(_ state: State, by action: Action) -> Bool {
    check?(state, action) ?? false
  }

  private static func checker<E: EphemeralState>(for _: E.Type) -> (State, Action) -> Bool {
    { state, action in
      guard let state = state as? E, let action = action as? E.Action else { return false }
      return state.isDismissed(by: action)
    }
  }
}
