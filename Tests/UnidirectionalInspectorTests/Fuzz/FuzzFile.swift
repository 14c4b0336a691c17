import Foundation

/// A fuzz input written to a file of its own in the temporary folder, for the readers that take a file (the log
/// index, the log model, the trace): each input gets a new name, so tests running at once never share one.
///
/// ```swift
/// let file = FuzzFile(data, name: "inspector-log")
/// defer { file.remove() }
/// let index = try InspectorLogIndex(url: file.url)
/// ```
struct FuzzFile {
  let url: URL

  init(_ data: Data, name: String) {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-fuzz-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: url.path, contents: data) else {
      fuzzFailure("cannot write the fuzz input to \(url.path)")
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
