/// Hands out the ids of the elements pushed onto a ``StackState``: 0, 1, 2, … per store, live and in tests, so
/// stack ids are deterministic and a test can name them.
///
/// ```swift
/// @Dependency(\.stackElementID) var stackElementID
/// let id = stackElementID()              // the id the next pushed element would get
/// store.send(.path(.push(id: id, state: Detail.State())))
/// ```
public struct StackElementIDGenerator: Sendable {
  private let counter: LockIsolated<Int>

  /// A generator whose first id is `first`.
  public static func incrementing(from first: Int = 0) -> Self {
    Self(counter: LockIsolated(first))
  }

  /// Returns the next id and advances.
  public func callAsFunction() -> StackElementID { next() }

  /// Returns the next id and advances.
  public func next() -> StackElementID {
    counter.withLock { value in
      defer { value += 1 }
      return StackElementID(generation: value)
    }
  }

  /// The id ``next()`` would return, without advancing.
  public func peek() -> StackElementID {
    StackElementID(generation: counter.withLock { $0 })
  }

  /// A generator that continues from where this one is now, without sharing its counter.
  public func copy() -> Self {
    .incrementing(from: peek().generation)
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  // Computed: every store gets its own sequence, starting at 0.
  static var liveValue: StackElementIDGenerator { .incrementing() }
  static var testValue: StackElementIDGenerator { .incrementing() }
}

extension DependencyValues {
  /// The ids of elements pushed onto a ``StackState``: 0, 1, 2, … per store (a fresh sequence for every store).
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}
