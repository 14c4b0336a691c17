/// An enum whose cases can be read, tested and changed in place by case path or by case constructor: TCA's
/// `@CasePathable`, as a conformance with nothing to implement.
///
/// ```swift
/// enum State: Equatable, CasePathable {
///   case loggedIn(LoggedIn.State)
///   case loggedOut(LoggedOut.State)
/// }
/// state.modify(State.loggedIn) { $0.count += 1 }  // TCA: state.modify(\.loggedIn) { … }
/// state.is(State.loggedOut)                       // TCA: state.is(\.loggedOut)
/// state[case: State.loggedIn]?.count              // TCA: state[case: \.loggedIn]?.count
/// ```
///
/// In a test: `await store.send(.tap) { $0.destination?.modify(Destination.State.edit) { $0.title = "x" } }`.
public protocol CasePathable {}

extension CasePathable {
  /// Whether this value is of the case `casePath` names.
  public func `is`<Value>(_ casePath: CasePath<Self, Value>) -> Bool {
    casePath.extract(self) != nil
  }

  /// Whether this value is of the case `embed` constructs.
  public func `is`<Value>(
    _ embed: @escaping @Sendable (Value) -> Self, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    self.is(CasePath(embed, fileID: fileID, line: line))
  }

  /// The payload of the case `casePath` names, or nil when this value is of another case. Setting a payload
  /// embeds it (whatever the case was); setting nil changes nothing.
  public subscript<Value>(case casePath: CasePath<Self, Value>) -> Value? {
    get { casePath.extract(self) }
    set {
      guard let newValue else { return }
      self = casePath.embed(newValue)
    }
  }

  /// The payload of the case `embed` constructs, or nil when this value is of another case.
  public subscript<Value>(case embed: @escaping @Sendable (Value) -> Self) -> Value? {
    CasePath(embed).extract(self)
  }

  /// Changes the payload of the case `casePath` names in place; reports a runtime issue and changes nothing
  /// when this value is of another case.
  ///
  /// ```swift
  /// $0.destination?.modify(Destination.State.editCase) { $0.title = "Milk" }
  /// ```
  public mutating func modify<Value>(
    _ casePath: CasePath<Self, Value>,
    yield: (inout Value) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    guard var value = casePath.extract(self) else {
      reportIssue(
        "Can't modify \(describe(self)) via a case path to \(typeName(Value.self)): it is another case.",
        fileID: fileID, line: line)
      return
    }
    yield(&value)
    self = casePath.embed(value)
  }

  /// Changes the payload of the case `embed` constructs in place; reports a runtime issue and changes nothing
  /// when this value is of another case.
  ///
  /// ```swift
  /// $0.modify(State.loggedIn) { $0.count += 1 }
  /// ```
  public mutating func modify<Value>(
    _ embed: @escaping @Sendable (Value) -> Self,
    yield: (inout Value) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    modify(CasePath(embed, fileID: fileID, line: line), yield: yield, fileID: fileID, line: line)
  }
}
