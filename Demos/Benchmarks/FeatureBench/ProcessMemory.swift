import Foundation

/// A `/proc/self/status` value in bytes (`VmRSS`: resident now, `VmHWM`: the peak since the last reset); nil off Linux.
func memory(_ field: String) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.dropFirst(field.count + 1).filter(\.isNumber)).map { $0 * 1024 }
  }
  return nil
}

/// Resets `VmHWM` to the current resident size (Linux `clear_refs` 5).
func resetPeakMemory() -> Bool {
  guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
  defer { try? handle.close() }
  return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}
