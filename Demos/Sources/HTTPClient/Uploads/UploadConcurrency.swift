/// Runs indexed operations in a task group with a bound on how many are in flight.
package enum UploadConcurrency {
  /// Runs `operation(0..<count)` with at most `limit` at a time and returns the results in index order.
  ///
  /// The first operation to throw fails the whole call: the others are cancelled, awaited, and their results and
  /// errors dropped.
  package static func map<T: Sendable>(
    count: Int,
    limit: Int,
    _ operation: @escaping @Sendable (Int) async throws -> T
  ) async throws -> [T] {
    guard count > 0 else { return [] }
    return try await withThrowingTaskGroup(of: (Int, T).self) { group in
      var results = [T?](repeating: nil, count: count)
      var next = 0
      while next < min(max(1, limit), count) {
        let index = next
        group.addTask { (index, try await operation(index)) }
        next += 1
      }
      while let (index, value) = try await group.next() {
        results[index] = value
        if next < count {
          let index = next
          group.addTask { (index, try await operation(index)) }
          next += 1
        }
      }
      return results.compactMap { $0 }
    }
  }
}
