/// The content of an alert, as data: a title, a message and buttons whose actions the presenting feature handles.
///
/// Present it with ``PresentationState`` (`@PresentationState var alert: AlertState<Action.Alert>?`, or as a case
/// of a destination enum). It is an ``EphemeralState``: the first action it sends dismisses it. Each alert made
/// is a new presentation (its `id`), so replacing an alert by another is a dismissal followed by a presentation;
/// the id takes no part in `==`, hashing, coding or dumps.
///
/// ```swift
/// state.alert = AlertState(
///   title: "Delete “kite.png”?",
///   message: "This cannot be undone.",
///   buttons: [
///     ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete"),
///     ButtonState(role: .cancel, label: "Cancel"),
///   ])
/// ```
public struct AlertState<Action>: Identifiable, EphemeralState {
  /// Identifies this presentation of the alert (unique in the process).
  public let id: PresentationCounter.ID
  /// The title.
  public var title: String
  /// The message under the title.
  public var message: String?
  /// The buttons; an alert with none shows a single "OK" that only dismisses.
  public var buttons: [ButtonState<Action>]

  /// An alert with `title`, `message` and `buttons`.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = PresentationCounter.next()
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AlertStateCodingKeys.self)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(message, forKey: .message)
    try container.encode(buttons, forKey: .buttons)
  }
}

extension AlertState: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AlertStateCodingKeys.self)
    self.init(
      title: try container.decode(String.self, forKey: .title),
      message: try container.decodeIfPresent(String.self, forKey: .message),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons))
  }
}

extension AlertState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(self, children: ["title": title, "message": message as Any, "buttons": buttons], displayStyle: .struct)
  }
}

/// Numbers presentations of alerts and dialogs: a new number for each one made, so each is a new presentation.
public enum PresentationCounter {
  /// A presentation number.
  public struct ID: Hashable, Sendable {
    let value: UInt64
  }

  private static let counter = LockIsolated<UInt64>(0)

  static func next() -> ID {
    counter.withLock { value in
      value += 1
      return ID(value: value)
    }
  }
}

private enum AlertStateCodingKeys: String, CodingKey { case title, message, buttons }
