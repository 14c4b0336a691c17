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
  public func printChanges(to printer: ChangePrinter? = .standardOutput) -> PrintChangesReducer<Self> {
    PrintChangesReducer(base: self, printer: printer)
  }
}

/// A reducer that prints each action and the state change it made. Made by ``Reducer/printChanges(to:)``.
public struct PrintChangesReducer<Base: Reducer>: Reducer where Base.State: Sendable {
  let base: Base
  let printer: ChangePrinter?

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return base.reduce(into: &state, action: action) }
    let before = state
    let effect = base.reduce(into: &state, action: action)
    printer.enqueue(action, from: before, to: state)
    return effect
  }
}
