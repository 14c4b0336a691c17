/// The few RFC 9651 (Structured Field Values) shapes the resumable-upload fields use, parsed leniently: an item's
/// parameters are ignored, anything else malformed gives nil (the draft says to ignore such a field).
enum StructuredField {
  /// `?1` / `?0`.
  static func boolean(_ value: String?) -> Bool? {
    switch bareItem(value) {
    case "?1": return true
    case "?0": return false
    default: return nil
    }
  }

  /// A non-negative integer of at most 15 digits.
  static func integer(_ value: String?) -> Int64? {
    guard let bare = bareItem(value), (1...15).contains(bare.count), bare.allSatisfy(\.isASCIIDigit) else {
      return nil
    }
    return Int64(bare)
  }

  /// A dictionary's members in order, each value as its bare item text (`true` when a key has no value).
  static func dictionary(_ value: String) -> [(key: String, value: String)]? {
    var members: [(key: String, value: String)] = []
    for member in splitOutsideQuotes(value, separator: ",") {
      let text = member.trimmingSpaces()
      guard !text.isEmpty else { return nil }
      let item = splitOutsideQuotes(text, separator: ";")[0]
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = String(parts[0]).trimmingSpaces()
      guard !key.isEmpty, key.allSatisfy({ $0.isLowercaseKeyCharacter }) else { return nil }
      members.append((key, parts.count == 2 ? String(parts[1]).trimmingSpaces() : "?1"))
    }
    return members
  }

  private static func bareItem(_ value: String?) -> String? {
    guard let value else { return nil }
    return splitOutsideQuotes(value, separator: ";")[0].trimmingSpaces()
  }

  private static func splitOutsideQuotes(_ text: String, separator: Character) -> [String] {
    var parts: [String] = []
    var current = ""
    var inQuotes = false
    var escaped = false
    for character in text {
      if inQuotes {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inQuotes = false
        }
        current.append(character)
      } else if character == "\"" {
        inQuotes = true
        current.append(character)
      } else if character == separator {
        parts.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current)
    return parts
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
  fileprivate var isLowercaseKeyCharacter: Bool {
    ("a"..."z").contains(self) || isASCIIDigit || self == "_" || self == "-" || self == "." || self == "*"
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
