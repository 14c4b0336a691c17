/// Identifies cancellable effects. Any hashable, sendable value can be an id; ids are namespaced by the reducer
/// that scoped them (an `ifLet` child, a `forEach` element), so two elements using the same id never collide.
@usableFromInline
struct CancelID: Hashable, @unchecked Sendable {
  // `AnyHashable` is not `Sendable`, but only `Sendable` values are ever stored in it (see the public API).
  let id: AnyHashable
  /// The id's type, hashed too: values of different types are never equal, and two empty-struct ids would
  /// otherwise land in the same hash bucket.
  let type: ObjectIdentifier
  var namespace: [AnyHashable]

  init<ID: Hashable & Sendable>(_ id: ID, namespace: [AnyHashable] = []) {
    self.id = AnyHashable(id)
    self.type = ObjectIdentifier(ID.self)
    self.namespace = namespace
  }

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && lhs.id == rhs.id && lhs.namespace == rhs.namespace
  }

  @usableFromInline func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(id)
    hasher.combine(namespace)
  }

  func namespaced(by scope: AnyHashable) -> CancelID {
    var copy = self
    copy.namespace.insert(scope, at: 0)
    return copy
  }

  /// The keys an effect cancellable by this id is registered under: the id in its own namespace and in every
  /// enclosing one, so a parent's `.cancel(id:)` also reaches the effects its presented children started with
  /// that id (as in TCA), while a child's never reaches its parent's or a sibling's. The id of a whole scope is
  /// registered as itself only.
  var registrationKeys: [CancelID] {
    if namespace.isEmpty || type == ObjectIdentifier(CancellationNamespace.self) { return [self] }
    var keys = [self]
    var enclosing = self
    while !enclosing.namespace.isEmpty {
      enclosing.namespace.removeLast()
      keys.append(enclosing)
    }
    return keys
  }
}

extension Effect {
  /// Makes this effect cancellable by `id`.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; ``cancel(id:)`` with an equal value cancels this effect.
  ///   - cancelInFlight: Cancel effects already running under `id` before starting this one.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(.cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// Cancels every running effect marked cancellable by `id`. A cancelled effect feeds back nothing more.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(CancelID(id)))
  }

  /// Namespaces every cancellation id in this effect, then makes the whole effect cancellable by the namespace.
  ///
  /// The namespace is made only for an effect that does something: navigation reducers namespace every child effect,
  /// and a namespace (a key path and an id, boxed as `AnyHashable`) cost a child action ~4,700 instructions.
  @usableFromInline
  func namespaced(by namespace: @autoclosure () -> AnyHashable) -> Self {
    if isNone { return self }
    let namespace = namespace()
    let inner = namespacingIDs(by: namespace)
    if inner.isNone { return inner }
    return Self(.cancellable(id: CancelID(CancellationNamespace(namespace)), cancelInFlight: false, inner))
  }

  /// An effect that cancels everything started inside `namespaced(by: namespace)`.
  @usableFromInline
  static func cancelNamespace(_ namespace: AnyHashable) -> Self {
    Self(.cancel(CancelID(CancellationNamespace(namespace))))
  }

  private func namespacingIDs(by namespace: AnyHashable) -> Self {
    rebuilt(
      send: { $0 },
      run: { run in
        var scoped = run.namespace
        scoped.scopes.insert(namespace, at: 0)
        return Run(
          priority: run.priority, operation: run.operation, handler: run.handler, dependencies: run.dependencies,
          namespace: scoped)
      },
      id: { $0.namespaced(by: namespace) })
  }
}

/// The cancellation id of everything a scoping reducer (`ifLet`, `forEach`) started for one child.
struct CancellationNamespace: Hashable, @unchecked Sendable {
  let value: AnyHashable
  init(_ value: AnyHashable) { self.value = value }
}

/// The `ifLet`/`forEach` scopes an effect was created in, outermost first (see `CancelID.namespace`).
@usableFromInline
struct CancelNamespace: @unchecked Sendable {
  // Only `Sendable` scope values (key paths, element ids) are stored.
  var scopes: [AnyHashable] = []
}
