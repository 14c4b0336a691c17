import Foundation

/// A short, single-line rendering of a value for messages, built from ``customDump(_:)``.
///
/// ```swift
/// describe(Feature.Action.loaded(id: 3))   // "Feature.Action.loaded(id: 3)"
/// ```
public func describe(_ value: Any) -> String {
  let lines = customDump(value).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  var text = lines.joined(separator: " ")
  for (from, to) in [("( ", "("), (" )", ")"), ("[ ", "["), (" ]", "]")] {
    text = text.replacingOccurrences(of: from, with: to)
  }
  return text.count > 300 ? String(text.prefix(300)) + "…" : text
}
