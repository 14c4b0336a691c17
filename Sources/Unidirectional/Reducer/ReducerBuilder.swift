/// Builds a reducer from a list of reducers, run one after another on the same state; their effects merge.
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }

  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> ReducerSequence<R0, R1> {
    ReducerSequence(accumulated, next)
  }

  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> OptionalReducer<R> {
    OptionalReducer(wrapped)
  }

  @inlinable
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    first: First
  ) -> EitherReducer<First, Second> {
    .first(first)
  }

  @inlinable
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    second: Second
  ) -> EitherReducer<First, Second> {
    .second(second)
  }

  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> ReducerArray<R> {
    ReducerArray(reducers)
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }
}

/// Two reducers run in order on the same state; their effects merge. Built by ``ReducerBuilder``.
public struct ReducerSequence<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline let r0: R0
  @usableFromInline let r1: R1

  @inlinable init(_ r0: R0, _ r1: R1) {
    self.r0 = r0
    self.r1 = r1
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let first = r0.reduce(into: &state, action: action)
    return first.merge(with: r1.reduce(into: &state, action: action))
  }
}

/// A reducer that runs only when present. Built by `if` in a ``ReducerBuilder``.
public struct OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?

  @inlinable init(_ wrapped: Wrapped?) { self.wrapped = wrapped }

  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// One of two reducers. Built by `if`/`else` and `switch` in a ``ReducerBuilder``.
public enum EitherReducer<First: Reducer, Second: Reducer<First.State, First.Action>>: Reducer {
  case first(First)
  case second(Second)

  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case let .first(reducer): reducer.reduce(into: &state, action: action)
    case let .second(reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// Reducers run in order. Built by `for` in a ``ReducerBuilder``.
public struct ReducerArray<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable init(_ reducers: [Element]) { self.reducers = reducers }

  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<Element.Action> {
    var effects: [Effect<Element.Action>] = []
    for reducer in reducers { effects.append(reducer.reduce(into: &state, action: action)) }
    return .merge(effects)
  }
}
