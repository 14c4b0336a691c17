import Foundation

/// A short, single-line rendering of a value for messages, built from ``customDump(_:)``.
///
/// ```swift
/// describe(Feature.Action.loaded(id: 3))   // "Feature.Action.loaded(id: 3)"
/// ```
public func describe(_ value: Any) -> String {
  // One pass over the dump's lines: each trimmed, joined with one space, except right inside brackets (the dump's
  // "Feature.Action.loaded(\n  id: 3\n)" becomes "Feature.Action.loaded(id: 3)"). Text inside a line, a string's
  // included, is kept as it is.
  var text = ""
  for line in customDump(value).split(separator: "\n") {
    let utf8 = line.utf8
    guard let start = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
      let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
    else { continue }
    let trimmed = line[start...last]
    if let previous = text.utf8.last, previous != UInt8(ascii: "("), previous != UInt8(ascii: "["),
      let next = trimmed.utf8.first, next != UInt8(ascii: ")"), next != UInt8(ascii: "]")
    {
      text += " "
    }
    text += trimmed
  }
  return text.count > 300 ? String(text.prefix(300)) + "…" : text
}
