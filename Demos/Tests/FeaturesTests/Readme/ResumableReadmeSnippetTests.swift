// swift-format-ignore-file
import Features
import Foundation
import Testing

/// The "Transfers" article's resumable-upload snippet (Sources/HTTPClient/HTTPClient.docc/Transfers.md),
/// verbatim (Scripts/tests/test_doc_snippets.py checks it): against a server that is not there it fails with a typed
/// error instead of hanging or trapping.
@Suite struct ResumableReadmeSnippet {
  @Test func theSnippetCompilesAndFailsCleanlyWithoutAServer() async throws {
    let api = URL(string: "http://127.0.0.1:9")!  // the discard port: nothing listens there
    let token = BearerToken("token")
    let scan = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).usdz")
    try Data("scan".utf8).write(to: scan)
    defer { try? FileManager.default.removeItem(at: scan) }

    await #expect(throws: ResumableUploadError.http(.cannotConnect(host: "127.0.0.1:9"))) {
      let uploader = ResumableUploader(
        configuration: ResumableUploadConfiguration(endpoint: api.appendingPathComponent("resumable-uploads"), token: token))
      let receipt = try await uploader.upload(ResumableUploadFile(url: scan, filename: "scan.usdz")) { event in
        print(event)   // .created(resource), .progress(…), .resuming(offset:attempt:), or .plainUpload
      }
      // Pausing is cancelling the task; resuming is `uploader.upload(file, resuming: resource)`;
      // `uploader.cancel(resource)` deletes the upload on the server.
      print(receipt)
    }
  }
}
