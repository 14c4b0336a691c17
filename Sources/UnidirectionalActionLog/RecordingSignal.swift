import Foundation
import Unidirectional

/// The mutex and condition variable a recording's producer, writer thread and callers of `flush`/`close` share.
///
/// One condition serves every waiter (the writer waiting for work, a producer waiting for buffer space), so
/// changes are announced with `broadcast`.
final class RecordingSignal: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    #if canImport(Darwin)
      pthread_cond_init(condition, nil)
    #else
      // Timed waits measure a monotonic clock, so changing the wall clock cannot stall the writer.
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(condition, &attributes)
      pthread_condattr_destroy(&attributes)
    #endif
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Wakes every waiter. Call with the mutex held.
  func broadcast() { pthread_cond_broadcast(condition) }

  /// Waits for a broadcast. Call with the mutex held.
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits for a broadcast or until `timeout` has passed. Call with the mutex held.
  func wait(timeout: Duration) {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(attoseconds / 1_000_000_000)
    #if canImport(Darwin)
      var relative = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
      pthread_cond_timedwait_relative_np(condition, mutex, &relative)
    #else
      var deadline = timespec()
      clock_gettime(CLOCK_MONOTONIC, &deadline)
      deadline.tv_sec += Int(seconds)
      deadline.tv_nsec += nanoseconds
      if deadline.tv_nsec >= 1_000_000_000 {
        deadline.tv_sec += 1
        deadline.tv_nsec -= 1_000_000_000
      }
      pthread_cond_timedwait(condition, mutex, &deadline)
    #endif
  }
}
