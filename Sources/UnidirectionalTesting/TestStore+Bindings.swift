import Unidirectional

/// Sending and receiving binding actions by field, in TCA's spelling: `\.binding.title` names the binding writes
/// of `title` (see ``BindableActionCases``).
///
/// ```swift
/// await store.send(\.binding.title, "Milk") { $0.title = "Milk" }   // .binding(.set(\.title, "Milk"))
/// await store.receive(\.binding.isValid) { $0.isValid = true }     // any write of isValid
/// await store.receive(\.binding.isValid, true) { $0.isValid = true }
/// ```
///
/// The other spellings need nothing of their own: `send(.binding(.set(\.title, "x")))` or `send(.set(\.title, "x"))`
/// with an action, `receive(.binding(\.title))` and `receive(.binding(\.title), "x")` with a case path (also for a
/// nested view action: `receive(Action.viewCase.binding(\.title))`).
extension TestStore where Action: BindableAction {
  /// Sends the binding action that writes `value` at the field `binding` names, and asserts the state it produces.
  @discardableResult
  nonisolated(nonsending) public func send<Value: Equatable & Sendable>(
    _ binding: KeyPath<BindableActionCases<Action>, CasePath<Action, Value>>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      BindableActionCases.casePath(binding).embed(value), assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that effects fed back a binding action that writes the field `binding` names next, whatever its
  /// value, and the state it produced.
  nonisolated(nonsending) public func receive<Value>(
    _ binding: KeyPath<BindableActionCases<Action>, CasePath<Action, Value>>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let field = BindableActionCases.casePath(binding)
    await receive(
      { field.extract($0) != nil }, timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that effects fed back the binding action that writes `value` at the field `binding` names next, and
  /// the state it produced.
  nonisolated(nonsending) public func receive<Value: Equatable>(
    _ binding: KeyPath<BindableActionCases<Action>, CasePath<Action, Value>>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      BindableActionCases.casePath(binding), value, timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
