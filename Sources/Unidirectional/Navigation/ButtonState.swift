/// A button of an ``AlertState`` or a ``ConfirmationDialogState``: its label, its role, and the action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete")
/// ButtonState(role: .cancel, label: "Cancel")   // sends nothing: only dismisses
/// ```
public struct ButtonState<Action> {
  /// How a button is presented.
  public enum Role: String, Sendable, Hashable, Codable {
    /// Cancels: shown apart, never destructive.
    case cancel
    /// Destroys data: shown in red.
    case destructive
  }

  /// The button's role, if any.
  public var role: Role?
  /// What tapping it sends (nil: it only dismisses).
  public var action: Action?
  /// The text on the button.
  public var label: String

  /// A button labelled `label` that sends `action`.
  public init(role: Role? = nil, action: Action? = nil, label: String) {
    self.role = role
    self.action = action
    self.label = label
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
extension ButtonState: Encodable where Action: Encodable {}
extension ButtonState: Decodable where Action: Decodable {}
