/// A feature's `State` and `Action` types, and nothing else: what the `…Of` aliases read (``ReducerOf``,
/// ``StoreOf``, ``IdentifiedActionOf``, ``StackActionOf``, and `TestStoreOf` in the testing module).
///
/// Every ``Reducer`` is one; you never conform to it yourself. It exists for Xcode 26 app targets, where a
/// reducer's conformance to ``Reducer`` is main-actor isolated (its `reduce` and `body` are): an alias that required
/// that conformance could not be used where the conformance may not be, such as a case of a `nonisolated` action
/// enum, nor in the type of the reducer's own `body`. A conformance to this protocol has no function to isolate, so
/// it can be used anywhere.
///
/// ```swift
/// struct Todos: Reducer {
///   struct State: Equatable { var rows: IdentifiedArrayOf<Row.State> = [] }
///   nonisolated enum Action: Equatable { case rows(IdentifiedActionOf<Row>) }
///   var body: some ReducerOf<Self> {
///     EmptyReducer().forEach(\.rows, action: Action.rows) { Row() }
///   }
/// }
/// ```
public protocol ReducerDomain<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action: Sendable
}
