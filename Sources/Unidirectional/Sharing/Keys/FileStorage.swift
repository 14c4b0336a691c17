import Foundation

/// Where `.fileStorage` keys read and write their files: the real disk, or files in memory (the default in tests
/// and previews, so they never touch the disk unless they ask for it).
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.defaultFileStorage = .fileSystem(debounce: .seconds(1))   // this test wants the real disk…
///   $0.clock = clock                                             // …and saves debounced on its TestClock
/// }
/// ```
public struct FileStorage: Hashable, Sendable {
  enum Kind: Hashable {
    case fileSystem(debounce: Duration)
    /// `nil`: the running test's files (the process's, outside tests).
    case inMemory(InMemoryFileSystem?, debounce: Duration)

    static func == (lhs: Kind, rhs: Kind) -> Bool {
      switch (lhs, rhs) {
      case let (.fileSystem(lhs), .fileSystem(rhs)): return lhs == rhs
      case let (.inMemory(lhs, lhsDebounce), .inMemory(rhs, rhsDebounce)):
        return lhs === rhs && lhsDebounce == rhsDebounce
      default: return false
      }
    }

    func hash(into hasher: inout Hasher) {
      switch self {
      case let .fileSystem(debounce): hasher.combine(debounce)
      case let .inMemory(files, debounce):
        hasher.combine(files.map(ObjectIdentifier.init))
        hasher.combine(debounce)
      }
    }
  }

  let kind: Kind

  /// The real disk. Changes are written as JSON, atomically, once per second at most: every change within one
  /// second of the first is coalesced into one write at the end of that second, on the `clock` dependency.
  public static let fileSystem = FileStorage(kind: .fileSystem(debounce: .seconds(1)))

  /// The real disk, with changes coalesced over `debounce` (`.zero`: each change written at once).
  public static func fileSystem(debounce: Duration) -> FileStorage {
    FileStorage(kind: .fileSystem(debounce: debounce))
  }

  /// A new, empty file system in memory, each time this is evaluated (as swift-sharing's `.inMemory`): two stores
  /// given `.inMemory` never see each other's files. Written at once. (The default in tests and previews is the
  /// running test's own files: every store of one test shares them, and no other test sees them.)
  public static var inMemory: FileStorage { .inMemory(InMemoryFileSystem()) }

  /// The running test's own files in memory (the process's, outside tests): the default in tests and previews.
  static let scoped = FileStorage(kind: .inMemory(nil, debounce: .zero))

  /// The files of `fileSystem`, each change written at once, or coalesced over `debounce` on the `clock`
  /// dependency as on disk.
  public static func inMemory(_ fileSystem: InMemoryFileSystem, debounce: Duration = .zero) -> FileStorage {
    FileStorage(kind: .inMemory(fileSystem, debounce: debounce))
  }

  /// This storage, with ``scoped`` resolved to the files it stands for now.
  func resolved() -> FileStorage {
    if case let .inMemory(nil, debounce) = kind {
      return .inMemory(SharedValueSpace.current.fileSystem, debounce: debounce)
    }
    return self
  }

  /// How long changes are coalesced before a write, if at all.
  var debounce: Duration? {
    switch kind {
    case let .fileSystem(debounce), let .inMemory(_, debounce): return debounce > .zero ? debounce : nil
    }
  }

  /// The file's data, or nil if there is no file.
  func read(_ url: URL) throws -> Data? {
    switch kind {
    case .fileSystem:
      do {
        return try Data(contentsOf: url)
      } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
        return nil
      }
    case let .inMemory(files, _):
      return (files ?? SharedValueSpace.current.fileSystem)[url]
    }
  }

  /// Writes `data` atomically (a reader sees the old file or the new one, never part of it).
  func write(_ data: Data, to url: URL) throws {
    switch kind {
    case .fileSystem:
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    case let .inMemory(files, _):
      (files ?? SharedValueSpace.current.fileSystem).write(data, to: url)
    }
  }

  /// Calls `onChange` whenever the file may have changed (written, replaced, removed) until the subscription ends.
  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    switch kind {
    case .fileSystem:
      return FileWatcher.watch(url, onChange: onChange)
    case let .inMemory(files, _):
      return (files ?? SharedValueSpace.current.fileSystem).watch(url, onChange: onChange)
    }
  }
}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static let previewValue = FileStorage.scoped
  static let testValue = FileStorage.scoped
}

extension DependencyValues {
  /// Where `.fileStorage` keys made here keep their files: the disk live, memory in tests and previews.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}
