/// Describes how a feature's state changes for each action, and which effects it starts.
///
/// Implement either `reduce(into:action:)` for a leaf, or `body` to compose other reducers:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Equatable { case incrementTapped, delayedIncrementTapped }
///   @Dependency(\.clock) var clock
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       switch action {
///       case .incrementTapped:
///         state.count += 1
///         return .none
///       case .delayedIncrementTapped:
///         return .run { send in
///           try await clock.sleep(for: .seconds(1))
///           send(.incrementTapped)
///         }
///       }
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action>: ReducerDomain {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles (`Sendable`, as ``ReducerDomain`` requires).
  associatedtype Action
  /// The type of `body`; `Never` for reducers that implement `reduce(into:action:)` directly.
  associatedtype Body

  /// Changes `state` for `action` and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// Reducers that implement `reduce(into:action:)` have no body.
  public var body: Never {
    fatalError("\(Self.self) has no body: it implements reduce(into:action:).")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs `body`.
  @inlinable @inline(__always)
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer of `R`'s state and actions: `var body: some ReducerOf<Self>`, TCA's spelling. It reads only `R`'s
/// ``ReducerDomain``, so it works in an Xcode 26 app target too, where `R`'s conformance to ``Reducer`` is
/// main-actor isolated.
public typealias ReducerOf<R: ReducerDomain> = Reducer<R.State, R.Action>
