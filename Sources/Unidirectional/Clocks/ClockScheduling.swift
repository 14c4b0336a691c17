/// Runs `action` once `delay` has passed on `clock`, and returns how to cancel it.
///
/// On a ``TestClock`` the action is registered at once and runs inside the `advance` that reaches its deadline, so
/// a test that advances the clock sees its effect when `advance` returns; on an ``ImmediateClock`` it runs now;
/// on any other clock a task sleeps for it.
func schedule(
  on clock: any Clock<Duration>, after delay: Duration, _ action: @escaping @Sendable () -> Void
) -> @Sendable () -> Void {
  if let clock = unwrapped(clock) as? TestClock { return clock.schedule(after: delay, action) }
  if unwrapped(clock) is ImmediateClock {
    action()
    return {}
  }
  let task = Task {
    do {
      try await clock.sleep(for: delay)
    } catch {
      return
    }
    action()
  }
  return { task.cancel() }
}
