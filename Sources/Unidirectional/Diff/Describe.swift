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
  let dump = customDump(value)
  // Lines split at "\n" bytes, as `split(separator: "\n")` splits at the "\n" character, unless a "\r\n" (one
  // character, which that split keeps inside a line) is there.
  let text = dump.utf8.contains(0x0D) ? joinedLines(characters: dump) : joinedLines(utf8: dump)
  return text.utf8.count > 300 && text.count > 300 ? String(text.prefix(300)) + "…" : text
}

/// The dump's lines trimmed and joined (see ``describe(_:)``), working on its UTF-8 bytes.
private func joinedLines(utf8 dump: String) -> String {
  var text: [UInt8] = []
  var bytes = dump.utf8[...]
  while !bytes.isEmpty {
    let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let line = bytes[..<end]
    bytes = end == bytes.endIndex ? bytes[end...] : bytes[bytes.index(after: end)...]
    guard let start = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
      let last = line.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
    else { continue }
    let trimmed = line[start...last]
    if let previous = text.last, previous != UInt8(ascii: "("), previous != UInt8(ascii: "["),
      let next = trimmed.first, next != UInt8(ascii: ")"), next != UInt8(ascii: "]")
    {
      text.append(0x20)
    }
    text.append(contentsOf: trimmed)
  }
  return String(decoding: text, as: UTF8.self)
}

/// The same as ``joinedLines(utf8:)``, splitting at the "\n" character.
private func joinedLines(characters dump: String) -> String {
  var text = ""
  for line in dump.split(separator: "\n") {
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
  return text
}
