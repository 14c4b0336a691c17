import Foundation
import Testing

@testable import Unidirectional

// The example of `SharedReaderKey.fileStorage(_:decoder:encoder:)`'s documentation, compiled on every platform
// (it named `URL.documentsDirectory`, which Linux's Foundation does not have), with the file in memory as in tests.

private struct SyncUp: Codable, Equatable, Sendable { var title = "" }

@Suite struct FileStorageDocExampleTests {
  @Test func theDocumentedKeyCompilesAndKeepsItsFileInDocuments() {
    let files = InMemoryFileSystem()
    withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      let url = URL.homeDirectory.appending(components: "Documents", "sync-ups.json")
      @Shared(.fileStorage(url)) var syncUps: [SyncUp] = []
      $syncUps.withLock { $0.append(SyncUp(title: "Design")) }
      #expect(files[url] != nil)
      #expect(url.deletingLastPathComponent().lastPathComponent == "Documents")
    }
  }
}
