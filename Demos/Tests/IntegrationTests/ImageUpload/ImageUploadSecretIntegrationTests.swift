import Features
import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

/// A server that echoes the bearer token in its error (the backend's `/test-hooks/echo-authorization/…`, used as
/// the API base URL): the token never reaches an error, the feature's state, the action log or the demo's output.
final class ImageUploadSecretIntegrationTests: BackendStackTestCase {
  /// The echoing API base: JSON `{"message"}` or plain text, the token after `pad` filler characters.
  private func echoingAPI(_ stack: BackendStack, _ kind: String, pad: Int) -> URL {
    stack.apiURL.appendingPathComponent("test-hooks/echo-authorization/\(kind)/\(pad)")
  }

  private func assertNoPartOfTheToken(
    _ text: String, _ stack: BackendStack, _ context: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertFalse(
      UploadIntegrationSupport.containsPart(of: stack.token, in: text), "\(context): \(text)", file: file, line: line)
  }

  func testATokenEchoedInAnErrorIsRedactedByBothClientsWhereverTheServerPutsIt() async throws {
    let stack = try Self.backend.stack()
    let file = folder.appendingPathComponent("a.jpg")
    try UploadIntegrationSupport.writeFile(at: file, header: UploadIntegrationSupport.jpegHeader, size: 4_000, seed: 1)
    let item = UploadItem(fileURL: file, contentType: "image/jpeg", byteCount: 4_000)
    // pad 270/280: the token straddles the 300 characters a message is cut to.
    for (kind, pad) in [("json", 0), ("text", 0), ("json", 270), ("text", 280), ("text", 2_000)] {
      let configuration = UploadIntegrationSupport.configuration(stack, apiBaseURL: echoingAPI(stack, kind, pad: pad))
      var messages: [String] = []
      do {
        _ = try await PresignedUploader(configuration: configuration).upload([item], mediaType: .archive, uuid: .random)
        XCTFail("expected a 400")
      } catch {
        guard case let .http(.httpStatus(400, message))? = error as? ImageUploadError else {
          return XCTFail("\(error)")
        }
        messages += [message, "\(error)", String(reflecting: error)]
      }
      do {
        _ = try await MultipartUploader(configuration: configuration, temporaryDirectory: folder)
          .upload(fileAt: file, filename: "a.jpg", contentType: "image/jpeg")
        XCTFail("expected a 400")
      } catch {
        guard case let .http(.httpStatus(400, message))? = error as? ImageUploadError else {
          return XCTFail("\(error)")
        }
        messages += [message, "\(error)"]
      }
      for message in messages { assertNoPartOfTheToken(message, stack, "\(kind) \(pad)") }
      if pad == 0 {
        XCTAssertTrue(
          messages[0].hasSuffix("rejected the credentials you sent: Bearer <redacted> (try again)"), messages[0])
      }
    }
  }

  func testTheFeaturesStateAndTheActionLogNeverHoldAnEchoedToken() async throws {
    let stack = try Self.backend.stack()
    let file = folder.appendingPathComponent("b.png")
    try UploadIntegrationSupport.writeFile(at: file, header: UploadIntegrationSupport.pngHeader, size: 9_000, seed: 2)
    let log = folder.appendingPathComponent("upload.jsonl")
    let recorder = try ActionRecorder(fileURL: log)
    let store = Store(initialState: ImageUploadFeature.State(mediaType: .archive), recordingTo: recorder) {
      ImageUploadFeature()
    } withDependencies: {
      $0.imageLoader = .live
      $0.imageUploadClient = .presigned(
        UploadIntegrationSupport.configuration(stack, apiBaseURL: echoingAPI(stack, "json", pad: 0)))
      $0.uuid = .incrementing
      $0.clock = TestClock()
    }
    store.send(.itemsPicked([PickedImage(fileURL: file)]))
    let finished = await UploadIntegrationSupport.waitUntil(timeout: 30) { !store.isLoading }
    XCTAssertTrue(finished)
    guard case let .failure(reason) = store.status else { return XCTFail("\(store.status)") }
    XCTAssertTrue(reason.contains("Bearer <redacted>"), reason)
    try await recorder.close()
    let logText = try String(contentsOf: log, encoding: .utf8)
    XCTAssertTrue(logText.contains("uploadFailed"), "the failure is in the log")
    assertNoPartOfTheToken(reason, stack, "state")
    assertNoPartOfTheToken(logText, stack, "action log")
  }

  func testTheDemoHostNeverPrintsOrLogsAnEchoedToken() throws {
    let stack = try Self.backend.stack()
    let log = folder.appendingPathComponent("scan.jsonl")
    let result = try DemoProcess.run(
      [
        "--api", echoingAPI(stack, "text", pad: 0).absoluteString, "--out", folder.appendingPathComponent("o").path,
        "--record", log.path,
      ],
      in: folder, environment: ["UNIDIRECTIONAL_API_TOKEN": stack.token])
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(
      result.output.contains("rejected the credentials you sent: Bearer <redacted>"), result.output + result.errors)
    assertNoPartOfTheToken(result.output + result.errors, stack, "demo output")
    assertNoPartOfTheToken(try String(contentsOf: log, encoding: .utf8), stack, "demo action log")
  }
}
