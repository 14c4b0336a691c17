extension Reducer where State: Sendable {
  /// Prints every action this reducer runs and what it changed in the state: only the changed parts (the diff
  /// the `TestStore` shows), with secrets redacted. Formatting and writing happen on the printer's background
  /// queue; the reducer only copies the state before and after.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State()) {
  ///   Counter().printChanges()
  /// }
  /// store.send(.incrementTapped)
  /// // action: Counter.Action.incrementTapped
  /// //   Counter.State(
  /// // -   count: 0,
  /// // +   count: 1,
  /// //     fact: nil
  /// //   )
  /// ```
  ///
  /// Pass `nil` to turn printing off without changing the reducer's type (e.g. behind a command-line flag).
  @inlinable
  public func printChanges(to printer: ChangePrinter? = .standardOutput) -> PrintChangesReducer<Self> {
    PrintChangesReducer(base: self, printer: printer)
  }
}

/// A reducer that prints each action and the state change it made. Made by ``Reducer/printChanges(to:)``.
public struct PrintChangesReducer<Base: Reducer>: Reducer where Base.State: Sendable {
  @usableFromInline let base: Base
  /// The printing reduction, built where ``Reducer/printChanges(to:)`` is called: there the feature's types are
  /// known, so copying the state, running `base` and queueing the change are specialized code, while a store calls
  /// this reducer through its generic witness.
  @usableFromInline let printing: ((inout Base.State, Base.Action) -> Effect<Base.Action>)?

  @inlinable
  init(base: Base, printer: ChangePrinter?) {
    self.base = base
    printing = printer.map { printer in
      let pending = PendingChanges<Base.State, Base.Action>(printer: printer)
      return { state, action in
        let before = state
        let effect = base.reduce(into: &state, action: action)
        pending.append(action, from: before, to: state)
        return effect
      }
    }
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printing else { return base.reduce(into: &state, action: action) }
    return printing(&state, action)
  }
}

/// The changes one ``PrintChangesReducer`` has made and its printer has not yet formatted. The sender appends to a
/// typed array under a lock (no allocation once the array has grown: the printer swaps it with a spare); the first
/// change of a batch hands the printer one closure that formats the whole batch on its queue. Before, each change
/// was a closure of its own: an allocation freed on the printer's thread, which kept glibc's `malloc` on its slow
/// path (~280 instructions of the ~640 a printed `send` added).
@usableFromInline
final class PendingChanges<State: Sendable, Action: Sendable>: @unchecked Sendable {
  @usableFromInline
  struct Change {
    @usableFromInline let action: Action
    @usableFromInline let before: State
    @usableFromInline let after: State

    @inlinable
    init(action: Action, before: State, after: State) {
      self.action = action
      self.before = before
      self.after = after
    }
  }

  @usableFromInline
  struct Storage {
    @usableFromInline var changes: [Change] = []
    @usableFromInline var spare: [Change] = []
    @usableFromInline var isScheduled = false
    @usableFromInline var dropped = 0
  }

  @usableFromInline let printer: ChangePrinter
  @usableFromInline let lock = Lock()
  /// Behind a pointer: a class's stored `var` would cost a dynamic exclusivity check per append.
  @usableFromInline let storage: UnsafeMutablePointer<Storage>
  /// The last state dumped, so the next change's state before is not dumped again; touched only on the printer's
  /// queue.
  private var dumps = ConsecutiveStateDumps<State>()

  @usableFromInline
  init(printer: ChangePrinter) {
    self.printer = printer
    storage = .allocate(capacity: 1)
    storage.initialize(to: Storage())
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// Queues a change; at most the printer's limit wait, past that they are dropped and counted.
  @inlinable
  func append(_ action: Action, from before: State, to after: State) {
    lock.lock()
    guard storage.pointee.changes.count < printer.limit else {
      storage.pointee.dropped += 1
      lock.unlock()
      return
    }
    storage.pointee.changes.append(Change(action: action, before: before, after: after))
    let schedules = !storage.pointee.isScheduled
    storage.pointee.isScheduled = true
    lock.unlock()
    if schedules { schedule() }
  }

  @usableFromInline
  func schedule() {
    printer.enqueue { [self] in render() }
  }

  /// Formats every change waiting (on the printer's queue), and how many were dropped.
  private func render() -> String {
    lock.lock()
    swap(&storage.pointee.changes, &storage.pointee.spare)
    let dropped = storage.pointee.dropped
    storage.pointee.dropped = 0
    storage.pointee.isScheduled = false
    lock.unlock()
    var text = ""
    for change in storage.pointee.spare {
      let stateChange = dumps.diff(from: change.before, to: change.after)
      text += ChangePrinter.format(change.action, change: stateChange)
    }
    // Only this queue touches `spare` until the next render, which runs after this one on the same queue.
    storage.pointee.spare.removeAll(keepingCapacity: true)
    if dropped > 0 {
      text += "… \(dropped) action\(dropped == 1 ? "" : "s") not printed: the printer fell behind\n"
    }
    return text
  }
}
