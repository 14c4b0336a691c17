import Foundation

/// The change printers alive in this process, flushed when it exits normally — returns from `main` or calls
/// `exit` — so a short-lived program prints every change it made without knowing to call
/// ``ChangePrinter/flush()``.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter().printChanges() }
/// store.send(.incrementTapped)
/// // main returns: the change is printed before the process ends.
/// ```
///
/// The hook is installed with `atexit` when the first printer is made; it runs before the C library flushes
/// standard output, so what `ChangePrinter.standardOutput` prints is written too. A process ended by a signal or
/// `_exit` skips it.
enum PrintersAtExit {
  private static let printers: LockIsolated<[WeakPrinter]> = {
    atexit { PrintersAtExit.flushAll() }
    return LockIsolated([])
  }()

  /// Flushes `printer` at exit while it lives.
  static func register(_ printer: ChangePrinter) {
    let entry = WeakPrinter(printer)
    printers.withLock { printers in
      printers.removeAll { $0.printer == nil }
      printers.append(entry)
    }
  }

  /// Writes everything queued on every live printer (the `atexit` hook).
  static func flushAll() {
    for printer in printers.withLock({ $0.compactMap(\.printer) }) { printer.flushAtExit() }
  }

  private final class WeakPrinter: @unchecked Sendable {
    weak var printer: ChangePrinter?
    init(_ printer: ChangePrinter) { self.printer = printer }
  }
}
