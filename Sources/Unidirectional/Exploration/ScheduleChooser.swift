/// Decides, at each point where a test runtime has more than one thing it could do next, which one it does: the
/// hook an interleaving explorer drives. Without one, a runtime runs its jobs first in, first out.
///
/// Option 0 is always first in, first out: the oldest ready job; with none ready, leaving the racing calls waiting
/// where the test does not need them (after a `send`, around a clock's advance, once a `receive` has its action),
/// else the oldest of them. A choice other than 0 is a *deviation*.
///
/// ```swift
/// final class AlwaysNewest: ScheduleChooser {
///   func choose(_ point: ChoicePoint) -> Int { point.options.count - 1 }
/// }
/// ```
package protocol ScheduleChooser: AnyObject, Sendable {
  /// Whether the runtime puts its choice points into words (``ChoicePoint/labels``, ``ChoicePoint/step``, the
  /// racing calls completed without a choice): for a run that is printed; a search's other runs skip the cost.
  var describesChoices: Bool { get }
  /// The option to take at `point`: an index into `point.options`.
  func choose(_ point: ChoicePoint) -> Int
  /// A racing call completed without a choice — the only thing to do, where the test needs it — for a printed
  /// schedule to say where each answer landed. `point` has that one option.
  func didComplete(_ point: ChoicePoint)
}

extension ScheduleChooser {
  package var describesChoices: Bool { false }
  package func didComplete(_ point: ChoicePoint) {}
}

/// One moment with more than one thing ready, as a ``ScheduleChooser`` sees it.
package struct ChoicePoint: Sendable {
  /// What can happen next, first in, first out.
  package var options: [ScheduleOption]
  /// Each option in words, for a printed schedule (made only when printed).
  package var labels: [ScheduleLabel]
  /// The test's step the point came up in, if a test store said (`send(.tapped) at Feature.swift:12`).
  package var step: ScheduleLabel?

  package init(options: [ScheduleOption], labels: [ScheduleLabel] = [], step: ScheduleLabel? = nil) {
    self.options = options
    self.labels = labels
    self.step = step
  }
}

/// One thing a test runtime can do next.
package enum ScheduleOption: Hashable, Sendable {
  /// Run the next job of a task (the same value every time that task is ready).
  case job(task: UInt)
  /// Complete a racing call (its number in the order calls were made).
  case completion(call: UInt64)
  /// Leave the racing calls waiting: the test goes on and they may complete later.
  case deferCompletions
}

/// Words for something a schedule did — an option of a choice point, the test's step — made only when a schedule
/// is printed, so that a run that is never printed describes nothing.
///
/// ```swift
/// let label = ScheduleLabel { "effect 2 of \(describe(action))" }
/// label.text   // "effect 2 of .queryChanged(\"ab\")"
/// ```
package struct ScheduleLabel: Sendable {
  private let make: @Sendable () -> String

  package init(_ make: @escaping @Sendable () -> String) { self.make = make }

  package var text: String { make() }
}

extension ScheduleLabel {
  /// An action in words, as a printed schedule shows it: short, without its type's path (`.queryChanged("ab")`).
  package static func brief(_ action: some Sendable) -> String {
    brief(description: describe(action))
  }

  /// An action's description (`describe(action)`) made short as ``brief(_:)`` makes it.
  package static func brief(description: String) -> String {
    TraceFormat.shortName(description)
  }

  /// `file:line` of a `#fileID` and `#line`, without the module: `SearchTests.swift:38`.
  package static func place(_ fileID: StaticString, _ line: UInt) -> String {
    let path = "\(fileID)"
    return "\(path.split(separator: "/").last.map(String.init) ?? path):\(line)"
  }
}
