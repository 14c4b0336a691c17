import Foundation
import Synchronization

/// The set of dependencies a store, its reducers and their effects read through ``Dependency``.
///
/// Extend it with a computed property per ``DependencyKey``, then override values per store, per reducer subtree
/// (``Reducer/dependency(_:_:)``) or per scope (``withDependencies(_:operation:)-swift.func``).
///
/// ```swift
/// let store = Store(initialState: Feature.State()) {
///   Feature()
/// } withDependencies: {
///   $0.uuid = .incrementing
/// }
/// ```
public struct DependencyValues: Sendable {
  private var overrides: [ObjectIdentifier: any Sendable] = [:]
  private var defaults: DefaultValueCache

  /// Which default values keys resolve to: live, preview or test.
  public var context: DependencyContext {
    didSet { if context != oldValue { defaults = DefaultValueCache() } }
  }

  /// Empty values in `context`: every key resolves to its default for that context.
  public init(context: DependencyContext = .detected) {
    self.context = context
    self.defaults = DefaultValueCache()
  }

  /// The dependency stored for `key`, or its default for the current context.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)], let typed = value as? Key.Value { return typed }
      return defaults.value(for: key, context: context)
    }
    set { overrides[ObjectIdentifier(key)] = newValue }
  }

  /// The dependency keyed by the type `Key` itself: what `@Dependency(APIClient.self)` reads, as a key path.
  public subscript<Key: TestDependencyKey>(type key: DependencyTypeKey<Key>) -> Key.Value {
    get { self[Key.self] }
    set { self[Key.self] = newValue }
  }

  /// A copy whose defaults are resolved afresh: stateful defaults (an incrementing UUID generator) are not shared
  /// with any other store.
  package func isolated() -> DependencyValues {
    var copy = self
    copy.defaults = DefaultValueCache()
    return copy
  }

  /// The values in effect here: the reducer being run by a store, else the innermost `withDependencies` scope or
  /// effect, else the process-wide defaults.
  public static var current: DependencyValues {
    if let scope = ReducerDependencies.active { return scope.values }
    return taskValues ?? root
  }

  @TaskLocal static var taskValues: DependencyValues?

  /// Runs `body`, which writes overrides, without resolving the defaults it reads on the way as uses.
  ///
  /// Writing through a key path (`$0[keyPath: \.calendar] = calendar`) or into a property of a dependency
  /// (`$0.apiClient.fetch = { … }`) first reads the current value. That read is not a use: a test value that reports
  /// an issue when resolved (a missing override) must stay silent, and the default it computed is not cached, so a
  /// real use later still reports.
  package static func configuring<R>(_ body: () throws -> R) rethrows -> R {
    let context = ThreadContext.current(key: ThreadContext.key)
    context.pointee.configuringDepth += 1
    defer { context.pointee.configuringDepth -= 1 }
    return try body()
  }

  /// Begins a ``configuring(_:)`` section that a `_modify` accessor spans; end it with ``configuringEnded()``.
  package static func configuringBegan() { ThreadContext.current(key: ThreadContext.key).pointee.configuringDepth += 1 }

  /// Ends a section begun with ``configuringBegan()``.
  package static func configuringEnded() { ThreadContext.current(key: ThreadContext.key).pointee.configuringDepth -= 1 }

  /// Whether this thread is inside ``configuring(_:)``.
  static var isConfiguring: Bool { ThreadContext.current(key: ThreadContext.key).pointee.configuringDepth > 0 }

  private static let root = DependencyValues()
}

extension DefaultValueCache {
  /// The live value of `key`, or, for a key without one, its preview value after reporting that.
  fileprivate static func liveValue<Key: TestDependencyKey>(of key: Key.Type) -> Key.Value {
    if let live = key as? any DependencyKey.Type, let value = live.liveValue as? Key.Value { return value }
    reportIssue(
      """
      @Dependency(\(Key.self)) has no live value: its module declares the interface only. Conform it to \
      DependencyKey (with a liveValue) in the module that implements it, or override it where the store is made.
      """)
    return Key.previewValue
  }
}

/// Lazily computed default values, shared by copies of one `DependencyValues`, so a stateful default is created
/// once per store.
private final class DefaultValueCache: Sendable {
  /// In the cache's own allocation: every store makes one.
  private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

  func value<Key: TestDependencyKey>(for key: Key.Type, context: DependencyContext) -> Key.Value {
    let id = ObjectIdentifier(key)
    if let cached = values.withLock({ $0[id] }), let typed = cached as? Key.Value { return typed }
    // Computed outside the lock: a default may itself read dependencies or report an issue.
    let value: Key.Value
    switch context {
    case .live: value = Self.liveValue(of: key)
    case .preview: value = Key.previewValue
    case .test: value = Key.testValue
    }
    // Read only to be overwritten: not kept, so that a real use later resolves (and reports) it afresh.
    if DependencyValues.isConfiguring { return value }
    return values.withLock { values in
      if let cached = values[id], let typed = cached as? Key.Value { return typed }
      values[id] = value
      return value
    }
  }
}

/// Names a ``TestDependencyKey`` type as a hashable value, so `@Dependency(APIClient.self)` can read it through a key
/// path like every other dependency.
public struct DependencyTypeKey<Key: TestDependencyKey>: Hashable, Sendable {
  public init() {}
}
