/// The steps a store reduces — each action and the state it left — copied by the store itself, on its send path, into
/// preallocated storage that another thread takes in batches: the cheapest way to watch a busy store from outside.
///
/// Give one to a store through its instrument's ``StoreInstrument/stepBuffer``. A store whose only instrument has one copies
/// each step straight into it and does not call ``StoreInstrument/didReduce(_:_:state:)`` (no instrument call, no
/// ``Reduction`` built); with several instruments the store calls `didReduce`, which should forward to
/// ``append(_:reduction:state:)``. The buffer has two halves: the store fills one while ``take(whileLocked:_:)``
/// reads the other. When the half being filled is full the store drops steps and counts them until the next take:
/// it never waits for the reader. Steps carry no reducer timing. One buffer serves one store.
///
/// ```swift
/// final class StepWatcher: StoreInstrument, @unchecked Sendable {
///   let stepBuffer: StepBuffer<Counter.State, Counter.Action>? = StepBuffer(capacity: 4_096)
///   func didReduce(_ action: Counter.Action, _ reduction: Reduction, state: ReducedState<Counter.State>) {
///     stepBuffer?.append(action, reduction: reduction, state: state)
///   }
/// }
/// // On another thread, every few milliseconds:
/// watcher.stepBuffer?.take { steps in
///   for step in steps { print(step.sequence, describe(step.action)) }
/// }
/// ```
public final class StepBuffer<State, Action: Sendable>: @unchecked Sendable {
  /// One half: parallel arrays of actions, states and origins. Not generic (raw pointers, bound on use): the send
  /// path reads its fields at fixed offsets, without looking up a generic type's metadata. Sequences are implicit:
  /// the store numbers its steps one by one, and a half drops only once it is full, so step `i` is `first + i`.
  @usableFromInline
  struct Half {
    @usableFromInline let actions: UnsafeMutableRawPointer
    @usableFromInline let states: UnsafeMutableRawPointer
    let origins: UnsafeMutablePointer<ActionOrigin>
    var first: UInt64 = 0
    var count = 0
    var dropped = 0
  }

  /// Copies an action and a state into slot `index` of a half. Made where the buffer is created, by the
  /// inlinable ``init(capacity:)``: there the types are concrete and the copy is a few plain moves, where the
  /// store's own generic code would go through the types' value witnesses and a temporary (measured: ~70
  /// instructions a step).
  @usableFromInline typealias Copy = (
    _ half: UnsafeMutablePointer<Half>, _ index: Int, _ action: Action, _ state: UnsafePointer<State>
  ) -> Void

  /// How many steps each half holds.
  public let capacity: Int
  private let copy: Copy
  /// The half the store fills, behind a pointer: the send path pays no exclusivity check.
  private let current: UnsafeMutablePointer<UnsafeMutablePointer<Half>>
  private let halves: (UnsafeMutablePointer<Half>, UnsafeMutablePointer<Half>)
  /// The last step of the halves taken so far (written with the store's lock held, as the halves are swapped).
  private let lastTaken: UnsafeMutablePointer<UInt64>
  /// Serializes takes, and guards `storeLock`.
  private let takeLock = Lock()
  private var storeLock: StoreLock?

  /// A buffer whose halves hold `capacity` steps each (at least 1).
  @inlinable
  public convenience init(capacity: Int) {
    self.init(capacity: capacity) { half, index, action, state in
      half.pointee.actions.assumingMemoryBound(to: Action.self).advanced(by: index).initialize(to: action)
      half.pointee.states.assumingMemoryBound(to: State.self).advanced(by: index).initialize(to: state.pointee)
    }
  }

  @usableFromInline
  init(capacity: Int, copy: @escaping Copy) {
    self.copy = copy
    self.capacity = max(1, capacity)
    halves = (Self.allocateHalf(self.capacity), Self.allocateHalf(self.capacity))
    current = .allocate(capacity: 1)
    current.initialize(to: halves.0)
    lastTaken = .allocate(capacity: 1)
    lastTaken.initialize(to: 0)
  }

  deinit {
    for half in [halves.0, halves.1] {
      Self.clear(half)
      half.pointee.actions.deallocate()
      half.pointee.states.deallocate()
      half.pointee.origins.deallocate()
      half.deinitialize(count: 1)
      half.deallocate()
    }
    current.deallocate()
    lastTaken.deallocate()
  }

  private static func allocateHalf(_ capacity: Int) -> UnsafeMutablePointer<Half> {
    let half = UnsafeMutablePointer<Half>.allocate(capacity: 1)
    half.initialize(
      to: Half(
        actions: UnsafeMutableRawPointer(UnsafeMutablePointer<Action>.allocate(capacity: capacity)),
        states: UnsafeMutableRawPointer(UnsafeMutablePointer<State>.allocate(capacity: capacity)),
        origins: .allocate(capacity: capacity)))
    return half
  }

  private static func clear(_ half: UnsafeMutablePointer<Half>) {
    half.pointee.actions.assumingMemoryBound(to: Action.self).deinitialize(count: half.pointee.count)
    half.pointee.states.assumingMemoryBound(to: State.self).deinitialize(count: half.pointee.count)
    half.pointee.count = 0
    half.pointee.dropped = 0
  }

  // MARK: Filling (with the store's lock held)

  /// Copies a step into the half being filled, or counts it as dropped when that half is full. The store calls
  /// this with its lock held; an instrument's ``StoreInstrument/didReduce(_:_:state:)`` may too.
  @inline(__always)
  public func append(_ action: Action, reduction: Reduction, state: ReducedState<State>) {
    append(action, sequence: reduction.sequence, origin: reduction.origin, state: state.pointer)
  }

  @inline(__always)
  func append(_ action: Action, sequence: UInt64, origin: ActionOrigin, state: UnsafePointer<State>) {
    let half = current.pointee
    let index = half.pointee.count
    guard index < capacity else {
      half.pointee.dropped += 1
      return
    }
    if index == 0 { half.pointee.first = sequence }
    copy(half, index, action, state)
    half.pointee.origins[index] = origin
    half.pointee.count = index + 1
  }

  /// The sequence number of the last step appended or dropped so far (0 before the first). Read it with the store's
  /// lock held, e.g. from ``StoreInstrument/effectDidChange(_:)``.
  public var lastSequence: UInt64 {
    let half = current.pointee
    let count = half.pointee.count
    guard count > 0 else { return lastTaken.pointee }
    return half.pointee.first &+ UInt64(count - 1 + half.pointee.dropped)
  }

  // MARK: Taking (on any thread)

  /// The store whose lock guards the halves; set by the store before it reduces anything.
  func attach(_ lock: StoreLock) {
    takeLock.withLock { storeLock = lock }
  }

  /// Takes every step copied since the last take: swaps halves with the store's lock held (running `whileLocked`
  /// at that moment, to take anything else in step with the steps), then hands the taken steps to `body` outside the
  /// lock and empties them. Takes run one at a time.
  public func take<R>(whileLocked: () -> Void = {}, _ body: (Steps) throws -> R) rethrows -> R {
    takeLock.lock()
    defer { takeLock.unlock() }
    func swap() -> UnsafeMutablePointer<Half> {
      let taken = current.pointee
      lastTaken.pointee = lastSequence
      current.pointee = taken == halves.0 ? halves.1 : halves.0
      whileLocked()
      return taken
    }
    // Once the store is gone nothing appends: swap without its lock.
    let taken = storeLock.flatMap { $0.withLock(swap) } ?? swap()
    defer { Self.clear(taken) }
    return try body(Steps(half: taken.pointee))
  }

  /// The steps one ``StepBuffer/take(whileLocked:_:)`` took, in the order the store reduced them: valid only
  /// inside the closure that receives them (copy what you keep).
  public struct Steps: Sequence {
    private let half: Half

    init(half: Half) {
      self.half = half
    }

    /// How many steps were copied.
    public var count: Int { half.count }
    /// How many steps the store reduced after the last one here and could not copy, the half being full.
    public var dropped: Int { half.dropped }
    public var underestimatedCount: Int { half.count }

    public func makeIterator() -> Iterator {
      Iterator(half: half)
    }

    /// Goes through the steps in order.
    public struct Iterator: IteratorProtocol {
      private let half: Half
      private var index = 0

      init(half: Half) {
        self.half = half
      }

      public mutating func next() -> Step? {
        guard index < half.count else { return nil }
        defer { index += 1 }
        return Step(
          action: half.actions.assumingMemoryBound(to: Action.self)[index],
          state: half.states.assumingMemoryBound(to: State.self)[index],
          sequence: half.first &+ UInt64(index), origin: half.origins[index])
      }
    }
  }

  /// One step: an action, the state it left, its place in the store's sequence and where it came from.
  public struct Step {
    /// The action reduced.
    public let action: Action
    /// The state the reducer left.
    public let state: State
    /// Its place among every action the store reduced: 1 for the first.
    public let sequence: UInt64
    /// Sent by the host, or fed back by an effect.
    public let origin: ActionOrigin
  }
}
