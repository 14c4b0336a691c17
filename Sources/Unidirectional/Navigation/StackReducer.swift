extension Reducer {
  /// Runs `destination` on the elements of a navigation stack: each ``StackAction/element(id:action:)`` on its
  /// element (before this reducer), ``StackAction/push(id:state:)`` pushes (before this reducer), and
  /// ``StackAction/popFrom(id:)`` pops (after this reducer, which sees the elements one last time).
  ///
  /// - An element's effects are cancelled when it leaves the stack: popped, removed by any reducer (noticed at the
  ///   next action this reducer sees), or dismissed from inside with `@Dependency(\.dismiss)`, which pops it and
  ///   every element above it.
  /// - An action for an id that is not on the stack, a pop of such an id, or a push of an id already on it is a
  ///   runtime issue and changes nothing. In a test, a push must use the store's next id (0, 1, 2, …).
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case let .itemTapped(item):
  ///     state.path.append(.detail(Detail.State(item: item)))
  ///     return .none
  ///   case .path:
  ///     return .none
  ///   }
  /// }
  /// .forEach(\.path, action: Action.pathCase) { Path() }
  /// ```
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: CasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    StackReducer(
      base: self, destination: destination(), toStackState: toStackState, toStackAction: toStackAction,
      fileID: fileID, line: line)
  }
}

/// The reducer made by `forEach(\.path, action:destination:)` over a ``StackState``.
public struct StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let destination: Destination
  let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>> & Sendable
  let toStackAction: CasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  let fileID: StaticString
  let line: UInt

  @Dependency(\.stackElementID) private var stackElementID

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let mounted = state[keyPath: toStackState].mounted
    var destinationEffect = Effect<Base.Action>.none
    let baseEffect: Effect<Base.Action>

    switch toStackAction.extract(action) {
    case let .element(id, elementAction)?:
      if state[keyPath: toStackState][id: id] != nil {
        destinationEffect = reduceElement(&state, id: id, action: elementAction)
      } else {
        reportIssue(
          """
          A "forEach" at \(fileID):\(line) received an action for a missing element \(id): \
          \(describe(action)).

          A parent reducer removed the element before this reducer ran (this reducer must run first), an effect \
          of the element kept running after it was popped (cancel it), or the action was sent for an element \
          that is not on the stack.
          """, fileID: fileID, line: line)
      }
      baseEffect = base.reduce(into: &state, action: action)

    case let .popFrom(id)?:
      let canPop = state[keyPath: toStackState].ids.contains(id)
      baseEffect = base.reduce(into: &state, action: action)
      if canPop {
        state[keyPath: toStackState].pop(from: id)
      } else {
        reportIssue(
          """
          A "forEach" at \(fileID):\(line) received a "popFrom" action for a missing element \(id). Stack ids: \
          \(state[keyPath: toStackState].ids).
          """, fileID: fileID, line: line)
      }

    case let .push(id, element)?:
      if state[keyPath: toStackState].ids.contains(id) {
        reportIssue(
          """
          A "forEach" at \(fileID):\(line) received a "push" action for an element it already contains: \(id). \
          Stack ids: \(state[keyPath: toStackState].ids).
          """, fileID: fileID, line: line)
        baseEffect = base.reduce(into: &state, action: action)
        break
      }
      let expected = stackElementID.peek()
      if id.generation == expected.generation {
        _ = stackElementID.next()
      } else if id > expected, DependencyValues.current.context == .test {
        reportIssue(
          """
          A "forEach" at \(fileID):\(line) received a "push" action with an unexpected id: \(id), where the \
          store's next stack id is \(expected). Push with @Dependency(\\.stackElementID)'s next id.
          """, fileID: fileID, line: line)
      }
      state[keyPath: toStackState][id: id] = element
      baseEffect = base.reduce(into: &state, action: action)

    case nil:
      baseEffect = base.reduce(into: &state, action: action)
    }

    let ids = state[keyPath: toStackState].ids
    guard ids != mounted else { return destinationEffect.merge(with: baseEffect) }
    state[keyPath: toStackState].mounted = ids
    let remaining = Set(ids)
    let cancellations = mounted.filter { !remaining.contains($0) }.map {
      Effect<Base.Action>.cancelScope(namespace($0))
    }
    return .merge([destinationEffect, baseEffect] + cancellations)
  }

  private func namespace(_ id: StackElementID) -> NavigationNamespace {
    NavigationNamespace(location: toStackState as AnyKeyPath, identity: PresentationIdentity(id: id))
  }

  /// Runs the destination reducer on element `id`, in place, presented: `dismiss` pops it and everything above.
  private func reduceElement(
    _ state: inout Base.State, id: StackElementID, action: Destination.Action
  ) -> Effect<Base.Action> {
    let embed = toStackAction.embed
    let effect = state[keyPath: toStackState].modify(id: id) {
      PresentedReducer(base: destination).reduce(into: &$0, action: action)
    }
    return (effect ?? .none)
      .map { embed(.element(id: id, action: $0)) }
      .dismissible { send in send(embed(.popFrom(id: id))) }
      .scoped(by: namespace(id))
  }
}
