import Unidirectional

extension Effect {
  /// Sends `action` every `interval` on `clock` until cancelled: the timer of TCA's navigation tests.
  static func ticking(_ action: Action, every interval: Duration = .seconds(1), on clock: any Clock<Duration>) -> Self {
    .run { send in
      for await _ in clock.timer(interval: interval) { send(action) }
    }
  }
}
