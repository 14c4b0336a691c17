import Foundation

extension SharedReaderKey {
  /// A value kept as JSON in the file at `url`: loaded when first used, written atomically after changes (coalesced
  /// over a debounce window on the `clock` dependency), and reloaded when another process changes the file. In
  /// tests and previews the file lives in memory (see ``FileStorage``).
  ///
  /// ```swift
  /// let url = URL.homeDirectory.appending(components: "Documents", "sync-ups.json")
  /// @Shared(.fileStorage(url)) var syncUps: [SyncUp] = []
  /// ```
  ///
  /// (`URL.documentsDirectory`, which Apple platforms have, is not in Linux's Foundation; the home directory's
  /// `Documents` is the same folder on both, and an app's sandbox home on iOS.)
  public static func fileStorage<Value: Codable>(
    _ url: URL, decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = .fileStorage
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: { try decoder.decode(Value.self, from: $0) }, encode: { try encoder.encode($0) })
  }

  /// A value kept in the file at `url` in the format `decode` and `encode` read and write.
  public static func fileStorage<Value>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}

extension JSONEncoder {
  /// The encoder `.fileStorage` writes with: pretty-printed, sorted keys, so files diff well.
  public static var fileStorage: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }
}

/// The key of ``SharedReaderKey/fileStorage(_:decoder:encoder:)``.
public final class FileStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible, @unchecked Sendable {
  private struct Writes {
    /// Encoded changes not written yet: the last one is written when the debounce window ends.
    var pending: Data?
    var continuations: [SaveContinuation] = []
    var isWindowOpen = false
    var cancelWindow: (@Sendable () -> Void)?
    /// What this key last wrote or read: a change notification that finds it in the file is this key's own.
    var lastSeen: Data?
    /// Writes of ours under way: a notification meanwhile may find the file half-way (the old contents, before
    /// the rename), so it is not news; our write replaces whatever is there.
    var writesInProgress = 0
  }

  private let url: URL
  private let storage: FileStorage
  private let clock: (any Clock<Duration>)?
  private let decode: @Sendable (Data) throws -> Value
  private let encode: @Sendable (Value) throws -> Data
  private let writes = LockIsolated(Writes())

  fileprivate init(
    url: URL, decode: @escaping @Sendable (Data) throws -> Value, encode: @escaping @Sendable (Value) throws -> Data
  ) {
    @Dependency(\.defaultFileStorage) var storage
    self.url = url.standardizedFileURL
    self.storage = storage.resolved()
    if self.storage.debounce != nil {
      @Dependency(\.clock) var clock
      self.clock = clock
    } else {
      self.clock = nil
    }
    self.decode = decode
    self.encode = encode
  }

  deinit {
    flush()
  }

  public var id: FileStorageKeyID { FileStorageKeyID(url: url, storage: storage) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    do {
      guard let data = try storage.read(url), !data.isEmpty else {
        continuation.resumeReturningInitialValue()
        return
      }
      writes.withLock { $0.lastSeen = data }
      continuation.resume(with: Result { try decode(data) })
    } catch {
      continuation.resume(throwing: error)
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    storage.watch(url) { [weak self] in self?.fileChanged(subscriber) }
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let data: Data
    do {
      data = try encode(value)
    } catch {
      continuation.resume(throwing: error)
      return
    }
    guard context == .didSet, let debounce = storage.debounce, let clock else {
      cancelWindow()
      let waiting = writes.withLock { writes in
        defer {
          writes.pending = nil
          writes.continuations = []
        }
        return writes.continuations
      }
      let result = write(data)
      for continuation in waiting + [continuation] { continuation.resume(with: result) }
      return
    }
    let opensWindow = writes.withLock { writes in
      writes.pending = data
      writes.continuations.append(continuation)
      if writes.isWindowOpen { return false }
      writes.isWindowOpen = true
      return true
    }
    guard opensWindow else { return }
    let cancel = schedule(on: clock, after: debounce) { [weak self] in self?.flush() }
    writes.withLock { if $0.isWindowOpen { $0.cancelWindow = cancel } }
  }

  /// Writes the coalesced change now, if there is one.
  private func flush() {
    let (data, waiting) = writes.withLock { writes in
      defer {
        writes.pending = nil
        writes.continuations = []
        writes.isWindowOpen = false
        writes.cancelWindow = nil
      }
      return (writes.pending, writes.continuations)
    }
    guard let data else { return }
    let result = write(data)
    for continuation in waiting { continuation.resume(with: result) }
  }

  private func write(_ data: Data) -> Result<Void, any Error> {
    writes.withLock {
      $0.lastSeen = data
      $0.writesInProgress += 1
    }
    defer { writes.withLock { $0.writesInProgress -= 1 } }
    return Result { try storage.write(data, to: url) }
  }

  private func cancelWindow() {
    let cancel = writes.withLock { writes in
      defer {
        writes.isWindowOpen = false
        writes.cancelWindow = nil
      }
      return writes.cancelWindow
    }
    cancel?()
  }

  /// The file may have changed: hands a change made by someone else to the shared value. Someone else's change
  /// wins over one of ours still waiting for its debounce window (as swift-sharing cancels its throttled write when
  /// the file is deleted): the waiting write is dropped, so it does not overwrite what they wrote.
  private func fileChanged(_ subscriber: SharedSubscriber<Value>) {
    guard writes.withLock({ $0.writesInProgress == 0 }) else { return }
    let data: Data?
    do {
      data = try storage.read(url)
    } catch {
      subscriber.yield(throwing: error)
      return
    }
    let (isNew, superseded) = writes.withLock { writes -> (Bool, [SaveContinuation]) in
      // What we wrote last (its notification may arrive late, from the watcher's queue) is not news.
      guard writes.lastSeen != data else { return (false, []) }
      writes.lastSeen = data
      defer {
        writes.pending = nil
        writes.continuations = []
      }
      return (true, writes.continuations)
    }
    guard isNew else { return }
    cancelWindow()
    for continuation in superseded { continuation.resume() }
    if let data, !data.isEmpty {
      subscriber.yield(with: Result { try decode(data) })
    } else {
      subscriber.yieldReturningInitialValue()
    }
  }

  public var description: String { ".fileStorage(\(url.absoluteString))" }
}

/// The identity of a ``FileStorageKey``: its file and its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let url: URL
  let storage: FileStorage
}
