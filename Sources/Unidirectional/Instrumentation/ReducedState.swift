/// The state a reducer has just left, as a ``StoreInstrument`` sees it during ``StoreInstrument/didReduce(_:_:state:)``:
/// read in place, without copying it.
///
/// ```swift
/// func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
///   if state.value.count > 100 { … }       // reads in place
///   snapshots.append(state.value)          // copies, to keep it
/// }
/// ```
///
/// Valid only during that call: keep a copy of ``value``, never the `ReducedState` itself.
@dynamicMemberLookup
public struct ReducedState<State> {
  let pointer: UnsafePointer<State>

  @inline(__always)
  init(_ pointer: UnsafePointer<State>) {
    self.pointer = pointer
  }

  /// The state.
  public var value: State {
    unsafeAddress { pointer }
  }

  /// A value read from the state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    pointer.pointee[keyPath: keyPath]
  }
}
