import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) into a call of `handler` instead of killing the process, so the host can cancel its
/// effects, say so and exit with 130 itself.
///
/// ```swift
/// let interrupt = InterruptHandler { store.send(.onDisappear) }
/// defer { interrupt.cancel() }
/// ```
final class InterruptHandler {
  private let source: any DispatchSourceSignal

  /// Handles SIGINT with `handler`, on a background queue, until ``cancel()``.
  init(handler: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)  // the dispatch source sees the signal only if the default action is off
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "demo.sigint"))
    source.setEventHandler(handler: handler)
    source.resume()
  }

  /// Stops handling SIGINT: the default action (terminate) applies again.
  func cancel() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}
