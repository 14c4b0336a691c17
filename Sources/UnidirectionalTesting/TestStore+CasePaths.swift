import Unidirectional

/// Sending and receiving by case path, TCA's `send(\.child.binding.title, "x")` and `receive(\.child.response)`,
/// as one expression each: a case path composed from the cases' constructors, or the constructor alone.
///
/// ```swift
/// await store.send(CasePath(Action.destination, Destination.Action.edit).binding(\.title), "Milk") {
///   $0.$destination[case: Destination.State.editCase]?.title = "Milk"
/// }
/// await store.receive(Action.response) { $0.text = "Hi" }                    // any `.response`
/// await store.receive(CasePath(Action.child, Child.Action.response), "Hi")  // `.child(.response("Hi"))`
/// ```
extension TestStore {
  /// Sends the action `actionCase` embeds `value` in, and asserts the state it produces.
  @discardableResult
  nonisolated(nonsending) public func send<Value>(
    _ actionCase: CasePath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      actionCase.embed(value), assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Asserts that effects fed back an action of the case `embed` constructs next, whatever its payload, and the
  /// state it produced: TCA's `receive(\.response)`.
  nonisolated(nonsending) public func receive<Value>(
    _ embed: @escaping @Sendable (Value) -> Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(embed, fileID: fileID, line: line), timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that effects fed back the action `embed` makes of `value` next, and the state it produced (for an
  /// action that is not `Equatable` itself).
  nonisolated(nonsending) public func receive<Value: Equatable>(
    _ embed: @escaping @Sendable (Value) -> Action,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(embed, fileID: fileID, line: line), value, timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
