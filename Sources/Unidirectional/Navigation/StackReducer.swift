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
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
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
///
/// Inlinable, so that it is specialized for the app's types (see ``IfLetReducer``).
public struct StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>
  @usableFromInline let toStackAction: CasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(
    base: Base, destination: Destination,
    toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>,
    toStackAction: CasePath<Base.Action, StackAction<Destination.State, Destination.Action>>, fileID: StaticString,
    line: UInt
  ) {
    self.base = base
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.fileID = fileID
    self.line = line
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let mounted = state[keyPath: toStackState].mounted
    var destinationEffect = Effect<Base.Action>.none
    let baseEffect: Effect<Base.Action>

    switch toStackAction.extract(action) {
    case let .element(id, elementAction)?:
      // One access for the lookup and the change: each key path access costs ~600-1,300 instructions.
      if let effect = reduceElement(&state, id: id, action: elementAction) {
        destinationEffect = effect
      } else {
        reportMissingElement(id, action: action)
      }
      baseEffect = base.reduce(into: &state, action: action)

    case let .popFrom(id)?:
      baseEffect = pop(&state, from: id, action: action)

    case let .push(id, element)?:
      baseEffect = push(&state, id: id, element: element, action: action)

    case nil:
      baseEffect = base.reduce(into: &state, action: action)
    }

    let ids = state[keyPath: toStackState].ids
    guard ids != mounted else { return destinationEffect.merge(with: baseEffect) }
    return unmount(&state, mounted: mounted, now: ids, effects: destinationEffect, baseEffect)
  }

  @usableFromInline
  func reportMissingElement(_ id: StackElementID, action: Base.Action) {
    reportIssue(
      """
      A "forEach" at \(fileID):\(line) received an action for a missing element \(id): \
      \(describe(action)).

      A parent reducer removed the element before this reducer ran (this reducer must run first), an effect \
      of the element kept running after it was popped (cancel it), or the action was sent for an element \
      that is not on the stack.
      """, fileID: fileID, line: line)
  }

  /// Lets the base see `.popFrom(id)`, then pops.
  @usableFromInline
  func pop(_ state: inout Base.State, from id: StackElementID, action: Base.Action) -> Effect<Base.Action> {
    let canPop = state[keyPath: toStackState].ids.contains(id)
    let baseEffect = base.reduce(into: &state, action: action)
    if canPop {
      state[keyPath: toStackState].pop(from: id)
    } else {
      reportIssue(
        """
        A "forEach" at \(fileID):\(line) received a "popFrom" action for a missing element \(id). Stack ids: \
        \(state[keyPath: toStackState].ids).
        """, fileID: fileID, line: line)
    }
    return baseEffect
  }

  /// Pushes `element` with `id` (the store's next stack id), then lets the base see the push.
  @usableFromInline
  func push(
    _ state: inout Base.State, id: StackElementID, element: Destination.State, action: Base.Action
  ) -> Effect<Base.Action> {
    if state[keyPath: toStackState].ids.contains(id) {
      reportIssue(
        """
        A "forEach" at \(fileID):\(line) received a "push" action for an element it already contains: \(id). \
        Stack ids: \(state[keyPath: toStackState].ids).
        """, fileID: fileID, line: line)
      return base.reduce(into: &state, action: action)
    }
    @Dependency(\.stackElementID) var stackElementID
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
    return base.reduce(into: &state, action: action)
  }

  /// The elements that left the stack since it was last seen are gone, with their effects.
  @usableFromInline
  func unmount(
    _ state: inout Base.State, mounted: [StackElementID], now ids: [StackElementID],
    effects destinationEffect: Effect<Base.Action>, _ baseEffect: Effect<Base.Action>
  ) -> Effect<Base.Action> {
    state[keyPath: toStackState].mounted = ids
    let remaining = Set(ids)
    let cancellations = mounted.filter { !remaining.contains($0) }.map {
      Effect<Base.Action>.cancelNamespace(namespace($0))
    }
    return .merge([destinationEffect, baseEffect] + cancellations)
  }

  @usableFromInline
  func namespace(_ id: StackElementID) -> AnyHashable {
    NavigationNamespace(location: toStackState as AnyKeyPath, identity: PresentationIdentity(id: id))
  }

  /// Runs the destination reducer on element `id`, in place, presented: `dismiss` pops it and everything above.
  /// Nil when the stack has no such element.
  @inlinable
  func reduceElement(
    _ state: inout Base.State, id: StackElementID, action: Destination.Action
  ) -> Effect<Base.Action>? {
    let embed = toStackAction.embed
    let effect = state[keyPath: toStackState].modify(id: id) {
      PresentedReducer(base: destination).reduce(into: &$0, action: action)
    }
    guard let effect else { return nil }
    return effect.map { embed(.element(id: id, action: $0)) }
      .dismissible { send in send(embed(.popFrom(id: id))) }
      .namespaced(by: namespace(id))
  }
}
