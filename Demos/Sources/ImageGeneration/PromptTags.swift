import Foundation

/// The keyword tags added to a prompt: trimmed, never empty, no duplicates (ignoring case), at most ``maximum``.
///
/// ```swift
/// var tags: PromptTags = ["watercolor"]
/// try tags.add("  Sunset ")     // ["watercolor", "Sunset"]
/// try tags.add("sunset")        // throws .duplicate("sunset")
/// tags.remove("WATERCOLOR")     // ["Sunset"]
/// ```
public struct PromptTags: Sendable, Hashable, ExpressibleByArrayLiteral {
  /// Why a tag was not added.
  ///
  /// ```swift
  /// do { try tags.add(text) } catch { state.validationMessage = error.description }   // "A tag can't be empty."
  /// ```
  public enum Rejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The tag is empty after trimming.
    case empty
    /// An equal tag (ignoring case) is already there.
    case duplicate(String)
    /// The list is full.
    case full(maximum: Int)
    /// The tag is longer than ``PromptTags/maxTagLength`` characters.
    case tooLong(maximum: Int)
    /// The tag contains a comma, which separates tags in the prompt.
    case containsComma

    /// Why the tag was refused, for the user.
    public var description: String {
      switch self {
      case .empty: "A tag can't be empty."
      case let .duplicate(tag): "“\(tag)” is already a tag."
      case let .full(maximum): "At most \(maximum) tags: remove one first."
      case let .tooLong(maximum): "A tag can have at most \(maximum) characters."
      case .containsComma: "A tag can't contain a comma: add each keyword as its own tag."
      }
    }
  }

  /// The longest tag accepted, in characters.
  public static let maxTagLength = 40

  /// The tags, in the order they were added.
  public private(set) var values: [String]
  /// How many tags fit.
  public let maximum: Int

  /// No tags, room for `maximum`.
  public init(maximum: Int = 10) {
    self.values = []
    self.maximum = max(0, maximum)
  }

  /// `elements` added one by one with the rules of ``add(_:)``, ignoring rejected ones; room for 10.
  public init(arrayLiteral elements: String...) {
    self.init(maximum: 10)
    for element in elements { _ = try? add(element) }
  }

  /// Adds `tag`, trimmed.
  ///
  /// - Returns: The tag as stored.
  @discardableResult
  public mutating func add(_ tag: String) throws(Rejection) -> String {
    let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw .empty }
    guard !trimmed.contains(",") else { throw .containsComma }
    guard trimmed.count <= Self.maxTagLength else { throw .tooLong(maximum: Self.maxTagLength) }
    guard !values.contains(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) else {
      throw .duplicate(trimmed)
    }
    guard values.count < maximum else { throw .full(maximum: maximum) }
    values.append(trimmed)
    return trimmed
  }

  /// Removes the tag equal to `tag` (trimmed, ignoring case).
  ///
  /// - Returns: Whether a tag was removed.
  @discardableResult
  public mutating func remove(_ tag: String) -> Bool {
    let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let index = values.firstIndex(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) else {
      return false
    }
    values.remove(at: index)
    return true
  }

  /// Whether there are no tags.
  public var isEmpty: Bool { values.isEmpty }
}
