/// Where an action reduced by a store came from.
public enum ActionOrigin: String, Sendable, Codable, Hashable {
  /// Sent by the host (a view, a command-line program, a test) through `Store.send`.
  case sent
  /// Fed back by an effect (including `Effect.send`).
  case received
}
