import Foundation

/// Where ``Reducer/printChanges(to:)`` prints, formatted on a background queue so the store is not slowed by the
/// terminal.
///
/// ```swift
/// Counter().printChanges()                                   // standard output
/// Counter().printChanges(to: ChangePrinter(fileDescriptor: 2)) // standard error
/// let lines = LockIsolated<[String]>([])
/// Counter().printChanges(to: ChangePrinter { text in lines.withLock { $0.append(text) } })
/// ```
///
/// Each action is printed as `action: …` and the diff of the state it changed (``diff(_:_:)``, unchanged runs
/// collapsed), or `(no state change)`. Secrets print as `<redacted>` wherever `customDump` hides them (`Redacted`,
/// types that are ``CustomDumpStringConvertible``). At most `limit` (10,000) actions of each `printChanges()` reducer
/// wait to be printed; past that the printer skips its actions and says how many. Changes are printed in batches, the
/// first change of a batch waiting 10 ms for the others (a burst of actions is formatted after it rather than while
/// it runs). What is queued when the process exits normally is printed before it ends (see ``flush()`` to wait for
/// it earlier).
public final class ChangePrinter: Sendable {
  /// Prints with `print`, in order with the host's own `print` output.
  public static let standardOutput = ChangePrinter { text in print(text, terminator: "") }

  private let changes: DrainQueue<@Sendable () -> String>
  /// How many actions may wait to be printed, per `printChanges()` reducer.
  @usableFromInline let limit: Int

  /// A printer handing each formatted change (one or more lines, each ending with a newline) to `write`, on its
  /// background queue.
  public init(limit: Int = 10_000, write: @escaping @Sendable (String) -> Void) {
    self.limit = max(1, limit)
    // Batches are never dropped (one waits per reducer at most): each reducer's changes drop and count their own.
    changes = DrainQueue(label: "Unidirectional.ChangePrinter", limit: limit) { renderers, _ in
      var text = ""
      for render in renderers { text += render() }
      write(text)
    }
    PrintersAtExit.register(changes)
  }

  /// A printer writing to an open file descriptor (1 for standard output, 2 for standard error, a file, a pipe),
  /// which it does not close.
  public convenience init(fileDescriptor: Int32) {
    let handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false)
    self.init { text in try? handle.write(contentsOf: Data(text.utf8)) }
  }

  /// Returns once every change handed to the printer before the call has been written.
  public func flush() {
    changes.flush()
  }

  /// Queues the formatting of a batch of changes (see ``PendingChanges``), in order with other batches.
  func enqueue(_ render: @escaping @Sendable () -> String) {
    changes.append(render, evenIfFull: true)
  }

  /// `action: …` and the state's diff (`change`), or `(no state change)`.
  static func format<Action>(_ action: Action, change: String?) -> String {
    guard let change else { return "action: \(describe(action)) (no state change)\n" }
    return "action: \(describe(action))\n\(change)\n"
  }
}
