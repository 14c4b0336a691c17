/// Decides, at each point where a test runtime has more than one thing it could do next, which one it does: the
/// hook an interleaving explorer drives. Without one, a runtime runs its jobs first in, first out.
///
/// Option 0 is always first in, first out: the oldest ready job; with none ready, leaving the racing calls waiting
/// where the test does not need them (after a `send`, around a clock's advance), else the oldest of them. A choice
/// other than 0 is a *deviation*.
///
/// ```swift
/// final class AlwaysNewest: ScheduleChooser {
///   func choose(_ point: ChoicePoint) -> Int { point.options.count - 1 }
/// }
/// ```
package protocol ScheduleChooser: AnyObject, Sendable {
  /// The option to take at `point`: an index into `point.options`.
  func choose(_ point: ChoicePoint) -> Int
}

/// One moment with more than one thing ready, as a ``ScheduleChooser`` sees it.
package struct ChoicePoint: Sendable {
  /// What can happen next, first in, first out.
  package var options: [ScheduleOption]
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
