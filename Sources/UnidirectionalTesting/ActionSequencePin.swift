/// A generated action sequence as a string that replays it: which choice and which payload each step took, and the
/// interleaving of effects it failed under, if any — `"2.1 0 3.4"`, `"2.1 0 @ 4:1"`.
///
/// ```swift
/// let pin = try ActionSequencePin("2.1 0 @ 4:1")
/// pin.choices   // [StepChoice(option: 2, payload: 1), StepChoice(option: 0, payload: 0)]
/// pin.schedule  // "4:1"
/// ```
struct ActionSequencePin: Hashable, Sendable, CustomStringConvertible {
  var choices: [StepChoice]
  /// The interleaving (an `exploreInterleavings` schedule) the sequence failed under; nil for a plain run.
  var schedule: String?

  init(choices: [StepChoice], schedule: String? = nil) {
    self.choices = choices
    self.schedule = schedule
  }

  /// Parses a printed pin.
  init(_ text: String) throws(ActionSequencePinError) {
    let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    choices = []
    for step in parts[0].split(separator: " ", omittingEmptySubsequences: true) {
      let numbers = step.split(separator: ".", omittingEmptySubsequences: false)
      guard numbers.count <= 2, let option = Int(numbers[0]), option >= 0 else { throw .malformed(text) }
      let payload = numbers.count == 2 ? Int(numbers[1]) : 0
      guard let payload, payload >= 0 else { throw .malformed(text) }
      choices.append(StepChoice(option: option, payload: payload))
    }
    schedule = parts.count == 2 ? String(parts[1].drop { $0 == " " }) : nil
  }

  /// `option.payload` per step (`option` alone when the payload is the first), then `@ schedule`.
  var description: String {
    let steps = choices.map { $0.payload == 0 ? "\($0.option)" : "\($0.option).\($0.payload)" }
    return ([steps.joined(separator: " ")] + (schedule.map { ["@ \($0)"] } ?? [])).joined(separator: " ")
  }
}

/// Which of a step's ``ActionChoice``s a generated sequence took, and which of its payloads (0 is the simplest).
struct StepChoice: Hashable, Sendable {
  var option: Int
  var payload: Int
}

/// A pin passed to `exploreActions(replaying:)` that is not one it printed.
struct ActionSequencePinError: Error, CustomStringConvertible {
  let text: String

  static func malformed(_ text: String) -> Self { Self(text: text) }

  var description: String {
    "\"\(text)\" is not a generated sequence: expected steps like \"2.1 0 3\" (choice.payload), optionally followed "
      + "by \"@ \" and an interleaving schedule."
  }
}
