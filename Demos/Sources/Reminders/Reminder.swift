import Foundation
import Unidirectional

/// One reminder of the list.
///
/// ```swift
/// let milk = Reminder(id: UUID(0), title: "Milk", dueDate: Date(timeIntervalSince1970: 0))
/// ```
public struct Reminder: Codable, Equatable, Identifiable, Sendable {
  public let id: UUID
  public var title: String
  public var notes: String
  public var dueDate: Date?
  public var isFlagged: Bool
  public var isCompleted: Bool

  public init(
    id: UUID, title: String = "", notes: String = "", dueDate: Date? = nil, isFlagged: Bool = false,
    isCompleted: Bool = false
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.dueDate = dueDate
    self.isFlagged = isFlagged
    self.isCompleted = isCompleted
  }

  /// Whether this reminder is shown before `other`: open before completed, flagged before not, earlier due dates
  /// before later ones and before none, then by title.
  public func isOrdered(before other: Reminder) -> Bool {
    if isCompleted != other.isCompleted { return !isCompleted }
    if isFlagged != other.isFlagged { return isFlagged }
    switch (dueDate, other.dueDate) {
    case let (mine?, theirs?) where mine != theirs: return mine < theirs
    case (.some, nil): return true
    case (nil, .some): return false
    default: return title.localizedStandardCompare(other.title) == .orderedAscending
    }
  }
}

extension IdentifiedArray where Element == Reminder, ID == UUID {
  /// Puts the reminders in the order the list shows them (see ``Reminder/isOrdered(before:)``).
  public mutating func sortForDisplay() {
    sort { $0.isOrdered(before: $1) }
  }
}
