/// A persistence strategy a shared value can be read from: where it is loaded from and how changes made elsewhere
/// reach it. ``SharedKey`` adds saving. `.inMemory`, `.fileStorage` and `.appStorage` are such keys; write your
/// own for another store (a database row, a server setting).
///
/// ```swift
/// struct RemoteConfigKey: SharedReaderKey {
///   let name: String
///   var id: String { name }
///   func load(context: LoadContext<Bool>, continuation: LoadContinuation<Bool>) {
///     Task { continuation.resume(with: Result { try await RemoteConfig.fetch(name) }) }
///   }
///   func subscribe(context: LoadContext<Bool>, subscriber: SharedSubscriber<Bool>) -> SharedSubscription {
///     let task = Task { for await value in RemoteConfig.updates(name) { subscriber.yield(value) } }
///     return SharedSubscription { task.cancel() }
///   }
/// }
/// ```
///
/// Every shared value made with keys of the same type and ``id`` (in one process; in one test, in a test process)
/// is the same value.
public protocol SharedReaderKey<Value>: Sendable {
  /// The type of the value.
  associatedtype Value: Sendable
  /// What identifies the stored value: two keys with equal ids share one value.
  associatedtype ID: Hashable = Self

  /// The identity of the stored value.
  var id: ID { get }

  /// Loads the value: resume `continuation` with it, with `nil` (``LoadContinuation/resumeReturningInitialValue()``)
  /// to keep the initial value, or with an error.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Starts delivering values that change outside this program's own writes (another process wrote the file);
  /// the subscription ends when the returned ``SharedSubscription`` is cancelled or released.
  func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription
}

extension SharedReaderKey where ID == Self {
  public var id: ID { self }
}

/// Why a key is asked to load: for the initial value of a new shared value, or because the user asked
/// (`try await $value.load()`).
public enum LoadContext<Value> {
  /// The shared value is being created with this initial value.
  case initialValue(Value)
  /// The program asked to load again.
  case userInitiated

  /// The initial value, when loading for one.
  public var initialValue: Value? {
    guard case let .initialValue(value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}
extension LoadContext: Equatable where Value: Equatable {}

/// A persistence strategy a shared value can also be saved to.
///
/// ```swift
/// extension RemoteConfigKey: SharedKey {
///   func save(_ value: Bool, context: SaveContext, continuation: SaveContinuation) {
///     Task { continuation.resume(with: Result { try await RemoteConfig.store(value, name) }) }
///   }
/// }
/// ```
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves `value`: after each change (`.didSet`), or when the program asks (`.userInitiated`,
  /// `try await $value.save()`). Resume `continuation` once the value is stored, or with the error.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

/// Why a key is asked to save.
public enum SaveContext: Hashable, Sendable {
  /// The value changed.
  case didSet
  /// The program asked to save now.
  case userInitiated
}
