/// The content of a confirmation dialog (an action sheet), as data: a title, a message and the choices.
///
/// Like ``AlertState``, it is an ``EphemeralState`` — the first action it sends dismisses it — and each dialog made
/// is a new presentation; its `id` takes no part in `==`, hashing, coding or dumps.
///
/// ```swift
/// state.destination = .confirmDelete(
///   ConfirmationDialogState(
///     title: "Delete “kite.png”?",
///     buttons: [
///       ButtonState(role: .destructive, action: .confirm, label: "Delete"),
///       ButtonState(role: .cancel, label: "Keep"),
///     ]))
/// ```
public struct ConfirmationDialogState<Action>: Identifiable, EphemeralState {
  /// Identifies this presentation of the dialog (unique in the process).
  public let id: PresentationCounter.ID
  /// The title.
  public var title: String
  /// Whether the title is shown (platforms hide it by default).
  public var isTitleVisible: Bool
  /// The message under the title.
  public var message: String?
  /// The choices.
  public var buttons: [ButtonState<Action>]

  /// A dialog with `title`, `message` and `buttons`.
  public init(
    title: String, isTitleVisible: Bool = true, message: String? = nil, buttons: [ButtonState<Action>] = []
  ) {
    self.id = PresentationCounter.next()
    self.title = title
    self.isTitleVisible = isTitleVisible
    self.message = message
    self.buttons = buttons
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.isTitleVisible == rhs.isTitleVisible && lhs.message == rhs.message
      && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(isTitleVisible)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ConfirmationDialogStateCodingKeys.self)
    try container.encode(title, forKey: .title)
    try container.encode(isTitleVisible, forKey: .isTitleVisible)
    try container.encodeIfPresent(message, forKey: .message)
    try container.encode(buttons, forKey: .buttons)
  }
}

extension ConfirmationDialogState: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ConfirmationDialogStateCodingKeys.self)
    self.init(
      title: try container.decode(String.self, forKey: .title),
      isTitleVisible: try container.decode(Bool.self, forKey: .isTitleVisible),
      message: try container.decodeIfPresent(String.self, forKey: .message),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons))
  }
}

extension ConfirmationDialogState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["title": title, "isTitleVisible": isTitleVisible, "message": message as Any, "buttons": buttons],
      displayStyle: .struct)
  }
}

private enum ConfirmationDialogStateCodingKeys: String, CodingKey { case title, isTitleVisible, message, buttons }
