/// A shared value kept by a persistence strategy (a ``SharedReaderKey``): loaded when it is first used, saved after
/// each change when the key is a ``SharedKey``, and updated when the key reports a change made elsewhere.
final class PersistentReference<Key: SharedReaderKey>: RootReference<Key.Value>, @unchecked Sendable {
  typealias Save = @Sendable (Key.Value, SaveContext, SaveContinuation) -> Void

  private struct Status {
    var isLoading = false
    var loadError: (any Error)?
    var saveError: (any Error)?
    /// How to save; nil until a writable key for this value is used (a reader may have made it).
    var save: Save?
  }

  private let key: Key
  private let status = LockIsolated(Status())
  private var subscription: SharedSubscription?
  /// Removes this value from its scope's table when it goes away.
  var onDeinit: (@Sendable () -> Void)?

  init(key: Key, initialValue: Key.Value, save: Save?, loadsInitialValue: Bool) {
    self.key = key
    super.init(value: initialValue)
    status.withLock { $0.save = save }
    let callback: @Sendable (Result<Key.Value?, any Error>) -> Void = { [weak self] result in
      self?.receive(result, initialValue: initialValue)
    }
    if loadsInitialValue {
      status.withLock { $0.isLoading = true }
      key.load(context: .initialValue(initialValue), continuation: LoadContinuation("\(key)", callback: callback))
    }
    subscription = key.subscribe(
      context: loadsInitialValue ? .initialValue(initialValue) : .userInitiated,
      subscriber: SharedSubscriber(callback: callback) { [weak self] isLoading in
        self?.status.withLock { $0.isLoading = isLoading }
      })
  }

  deinit {
    subscription?.cancel()
    onDeinit?()
  }

  /// Lets changes be saved once a writable key for this value is used.
  func enableSaving(_ save: @escaping Save) {
    status.withLock { if $0.save == nil { $0.save = save } }
  }

  private func receive(_ result: Result<Key.Value?, any Error>, initialValue: Key.Value) {
    switch result {
    case let .failure(error):
      status.withLock {
        $0.isLoading = false
        $0.loadError = error
      }
      return
    case let .success(value):
      status.withLock {
        $0.isLoading = false
        $0.loadError = nil
      }
      replaceFromStorage(value ?? initialValue)
    }
  }

  override var isLoading: Bool { status.withLock { $0.isLoading } }
  override var loadError: (any Error)? { status.withLock { $0.loadError } }
  override var saveError: (any Error)? { status.withLock { $0.saveError } }
  override var savesChanges: Bool { status.withLock { $0.save != nil } }

  override func didChange(to value: Key.Value) {
    guard let save = status.withLock({ $0.save }) else { return }
    save(value, .didSet, SaveContinuation("\(key)") { [weak self] result in self?.recordSave(result) })
  }

  override func load() async throws {
    status.withLock { $0.isLoading = true }
    let key = key
    do {
      let value: Key.Value? = try await withUnsafeThrowingContinuation { continuation in
        key.load(
          context: .userInitiated,
          continuation: LoadContinuation("\(key)") { result in continuation.resume(with: result) })
      }
      status.withLock {
        $0.isLoading = false
        $0.loadError = nil
      }
      if let value { replaceFromStorage(value) }
    } catch {
      status.withLock {
        $0.isLoading = false
        $0.loadError = error
      }
      throw error
    }
  }

  override func save() async throws {
    guard let save = status.withLock({ $0.save }) else { return }
    status.withLock { $0.saveError = nil }
    let key = key
    let value = self.value
    do {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        save(value, .userInitiated, SaveContinuation("\(key)") { result in continuation.resume(with: result) })
      }
      recordSave(.success(()))
    } catch {
      recordSave(.failure(error))
      throw error
    }
  }

  /// A stored value is what the storage holds now: it clears a load error too (the file that could not be decoded
  /// was just overwritten), as in swift-sharing.
  private func recordSave(_ result: Result<Void, any Error>) {
    status.withLock { status in
      switch result {
      case .success:
        status.saveError = nil
        status.loadError = nil
      case let .failure(error):
        status.saveError = error
      }
    }
  }

  override var description: String { "\(key)" }
}
