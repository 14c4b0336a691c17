import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The process's resident memory in bytes (`VmRSS` of `/proc/self/status`); nil off Linux.
func residentMemory() -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)).map { $0 * 1024 }
  }
  return nil
}

/// Gives freed heap memory back to the system where the allocator keeps it (glibc's `malloc_trim`), so a resident
/// size read after releasing objects shows what is still held, not what the allocator cached.
func returnFreedMemory() {
  #if canImport(Glibc)
    // Not in the Glibc module map (it lives in <malloc.h>): found by name in the C library.
    typealias MallocTrim = @convention(c) (Int) -> Int32
    if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") {
      _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
  #endif
}
