#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The clock a store reads for instruments that ``StoreInstrument/measuresTime``: monotonic nanoseconds since an
/// arbitrary start, the same in every store of the process. Real time, whatever clock the store's dependencies use.
///
/// ```swift
/// let start = InstrumentationClock.nanoseconds
/// ```
///
/// One reading costs about as much as a whole `send` (~25 ns on this project's Linux VM).
public enum InstrumentationClock {
  /// Now.
  @inline(__always)
  public static var nanoseconds: UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    #endif
  }
}
