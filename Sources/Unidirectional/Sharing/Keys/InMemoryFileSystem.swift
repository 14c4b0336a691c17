import Foundation

/// Files kept in memory: what `.fileStorage` reads and writes in tests and previews, so they never touch the disk.
/// A test can look at what was saved, or change a file as another process would.
///
/// ```swift
/// let files = InMemoryFileSystem()
/// let store = TestStore(initialState: Settings.State()) { Settings() } withDependencies: {
///   $0.defaultFileStorage = .inMemory(files)
/// }
/// …
/// let saved = try JSONDecoder().decode(Settings.Values.self, from: files[settingsURL] ?? Data())
/// files.write(Data(#"{"theme":"dark"}"#.utf8), to: settingsURL)   // "another process" changed it
/// ```
public final class InMemoryFileSystem: Sendable {
  private struct Contents {
    var files: [URL: Data] = [:]
    var watchers: [URL: [UInt64: @Sendable () -> Void]] = [:]
    var nextWatcher: UInt64 = 0
    var writes = 0
  }

  private let contents = LockIsolated(Contents())

  /// An empty file system.
  public init() {}

  /// The data of the file at `url`, or nil if there is none.
  public subscript(url: URL) -> Data? {
    contents.withLock { $0.files[url.standardizedFileURL] }
  }

  /// How many times a file was written.
  package var writeCount: Int { contents.withLock { $0.writes } }

  /// Writes `data` to `url`, telling whoever watches the file.
  public func write(_ data: Data, to url: URL) {
    let url = url.standardizedFileURL
    let watchers = contents.withLock { contents in
      contents.files[url] = data
      contents.writes += 1
      return Array(contents.watchers[url, default: [:]].values)
    }
    for watcher in watchers { watcher() }
  }

  /// Removes the file at `url`, telling whoever watches it.
  public func removeFile(at url: URL) {
    let url = url.standardizedFileURL
    let watchers = contents.withLock { contents in
      contents.files[url] = nil
      return Array(contents.watchers[url, default: [:]].values)
    }
    for watcher in watchers { watcher() }
  }

  /// Calls `onChange` after every write or removal of `url` until the subscription ends.
  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    let url = url.standardizedFileURL
    let token = contents.withLock { contents in
      defer { contents.nextWatcher += 1 }
      contents.watchers[url, default: [:]][contents.nextWatcher] = onChange
      return contents.nextWatcher
    }
    return SharedSubscription { [weak self] in
      _ = self?.contents.withLock { $0.watchers[url]?.removeValue(forKey: token) }
    }
  }
}
