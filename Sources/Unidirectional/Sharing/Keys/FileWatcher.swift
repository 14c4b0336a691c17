import Dispatch
import Foundation

/// Tells when a file on disk may have changed: it was written, replaced by a rename (an atomic write), or removed.
/// It watches the file's directory, so a file that does not exist yet, or is replaced, is still followed.
enum FileWatcher {
  private static let queue = DispatchQueue(label: "unidirectional.file-watcher")

  static func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    let directory = url.deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    #if canImport(Glibc) || canImport(Musl)
      return watchWithInotify(directory: directory.path, name: url.lastPathComponent, onChange: onChange)
    #elseif canImport(Darwin)
      let descriptor = open(directory.path, O_EVTONLY)
      guard descriptor >= 0 else { return SharedSubscription {} }
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: descriptor, eventMask: [.write, .rename, .delete, .extend], queue: queue)
      source.setEventHandler(handler: onChange)
      source.setCancelHandler { close(descriptor) }
      source.resume()
      return SharedSubscription(cancelling: source)
    #else
      return SharedSubscription {}
    #endif
  }

  #if canImport(Glibc) || canImport(Musl)
    private static func watchWithInotify(
      directory: String, name: String, onChange: @escaping @Sendable () -> Void
    ) -> SharedSubscription {
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return SharedSubscription {} }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
      guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
        close(descriptor)
        return SharedSubscription {}
      }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
      source.setEventHandler {
        if readEvents(descriptor).contains(name) { onChange() }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      return SharedSubscription(cancelling: source)
    }

    /// The names of the files the pending inotify events are about.
    private static func readEvents(_ descriptor: Int32) -> Set<String> {
      var names: Set<String> = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return names }
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= count {
          let length = buffer.withUnsafeBytes {
            Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          }
          let nameStart = offset + headerSize
          let nameEnd = min(nameStart + length, count)
          let nameBytes = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
          names.insert(String(decoding: nameBytes, as: UTF8.self))
          offset = nameStart + length
        }
      }
    }
  #endif
}

extension SharedSubscription {
  /// A subscription that cancels `source` when it ends.
  fileprivate init(cancelling source: any DispatchSourceProtocol) {
    let box = SourceBox(source: source)
    self.init { box.source.cancel() }
  }
}

/// Dispatch sources are thread-safe, but not declared `Sendable`.
private final class SourceBox: @unchecked Sendable {
  let source: any DispatchSourceProtocol
  init(source: any DispatchSourceProtocol) { self.source = source }
}
