import Foundation
import ImageGeneration
import Unidirectional
import UnidirectionalTesting
import XCTest

final class ImageGenerationFeatureTests: XCTestCase {
  typealias Feature = ImageGenerationFeature

  // MARK: Happy path

  func testGenerateSaveAndShare() async {
    let requests = ImageGenerationTestBox<[ImageGenerationRequest]>([])
    let written = ImageGenerationTestBox<[(Data, URL)]>([])
    let images = [GeneratedImage.fixture("a"), GeneratedImage.fixture("b", format: .jpeg)]
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder)) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.imageGeneration = ImageGenerationClient { request in
        requests.update { $0.append(request) }
        return images
      }
      $0.generatedImageStorage = GeneratedImageStorage { data, url in written.update { $0.append((data, url)) } }
    }

    await store.send(.promptChanged("  a lighthouse at dawn ")) { $0.prompt = "  a lighthouse at dawn " }
    await store.send(.negativePromptChanged("blurry")) { $0.negativePrompt = "blurry" }
    await store.send(.tagAdded(" watercolor ")) { $0.tags = ["watercolor"] }
    await store.send(.tagAdded("soft light")) { $0.tags = ["watercolor", "soft light"] }
    await store.send(.widthSelected(768)) { $0.width = 768 }
    await store.send(.heightSelected(640)) { $0.height = 640 }
    await store.send(.sampleCountChanged(2)) { $0.sampleCount = 2 }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.receive(.generationResponse(.success(images))) { $0.status = .generated(images) }

    XCTAssertEqual(
      requests.current,
      [
        ImageGenerationRequest(
          prompt: "a lighthouse at dawn, watercolor, soft light", negativePrompt: "blurry", width: 768, height: 640,
          samples: 2)
      ])

    let first = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000000.png")
    let second = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000001.jpg")
    await store.send(.saveTapped) { $0.isSaving = true }
    await store.receive(.saveFinished(Feature.SaveOutcome(saved: [first, second]))) {
      $0.isSaving = false
      $0.savedFiles = [first, second]
    }
    XCTAssertEqual(written.current.map(\.1), [first, second])
    XCTAssertEqual(written.current.map(\.0), images.map(\.data))

    await store.send(.shareTapped)
    await store.receive(.delegate(.share(images)))
    await store.finish()
  }

  func testSavingTwiceKeepsEveryFile() async {
    let images = [GeneratedImage.fixture("a")]
    let store = TestStore(
      initialState: {
        var state = Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")
        state.status = .generated(images)
        return state
      }()
    ) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.generatedImageStorage = GeneratedImageStorage { _, _ in }
    }
    let first = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000000.png")
    let second = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000001.png")
    await store.send(.saveTapped) { $0.isSaving = true }
    await store.receive(.saveFinished(Feature.SaveOutcome(saved: [first]))) {
      $0.isSaving = false
      $0.savedFiles = [first]
    }
    await store.send(.saveTapped) { $0.isSaving = true }
    await store.receive(.saveFinished(Feature.SaveOutcome(saved: [second]))) {
      $0.isSaving = false
      $0.savedFiles = [first, second]
    }
  }

  // MARK: Validation

  func testEmptyPromptIsRefusedWithoutARequest() async {
    // The client is the test value: any request would fail this test.
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder)) { Feature() }
    await store.send(.generateTapped) { $0.validationMessage = "Write a prompt first: it can't be empty." }
    await store.send(.promptChanged(" \n\t ")) {
      $0.prompt = " \n\t "
      $0.validationMessage = nil
    }
    await store.send(.tagAdded("watercolor")) { $0.tags = ["watercolor"] }
    await store.send(.generateTapped) { $0.validationMessage = "Write a prompt first: it can't be empty." }
    await store.finish()
  }

  func testSizeAndCountOutsideTheOptionsAreRefused() async {
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder)) { Feature() }
    await store.send(.widthSelected(500)) {
      $0.validationMessage = "The width must be one of 512, 640, 768 or 1024 pixels, not 500."
    }
    await store.send(.heightSelected(2048)) {
      $0.validationMessage = "The height must be one of 512, 640, 768 or 1024 pixels, not 2048."
    }
    await store.send(.sampleCountChanged(0)) { $0.validationMessage = "Generate 1 to 8 images, not 0." }
    await store.send(.sampleCountChanged(9)) { $0.validationMessage = "Generate 1 to 8 images, not 9." }
    await store.send(.widthSelected(1024)) {
      $0.width = 1024
      $0.validationMessage = nil
    }
    await store.send(.sampleCountChanged(8)) { $0.sampleCount = 8 }
    await store.finish()
  }

  func testSaveAndShareWithoutImagesAreRefused() async {
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")) {
      Feature()
    }
    await store.send(.saveTapped) { $0.validationMessage = "Nothing to save yet: generate images first." }
    await store.send(.shareTapped) { $0.validationMessage = "Nothing to share yet: generate images first." }
    await store.finish()
  }

  // MARK: Tags

  func testTagsAreTrimmedUniqueNonEmptyAndLimited() async {
    let store = TestStore(
      initialState: Feature.State(saveFolder: imageGenerationTestFolder, tags: PromptTags(maximum: 3))
    ) {
      Feature()
    }
    await store.send(.tagAdded("  Sunset  ")) { $0.tags = Self.tags(["Sunset"], maximum: 3) }
    await store.send(.tagAdded("sunset")) { $0.validationMessage = "“sunset” is already a tag." }
    await store.send(.tagAdded("   ")) { $0.validationMessage = "A tag can't be empty." }
    await store.send(.tagAdded("red, blue")) {
      $0.validationMessage = "A tag can't contain a comma: add each keyword as its own tag."
    }
    await store.send(.tagAdded(String(repeating: "x", count: 41))) {
      $0.validationMessage = "A tag can have at most 40 characters."
    }
    await store.send(.tagAdded("watercolor")) {
      $0.tags = Self.tags(["Sunset", "watercolor"], maximum: 3)
      $0.validationMessage = nil
    }
    await store.send(.tagAdded("4k")) { $0.tags = Self.tags(["Sunset", "watercolor", "4k"], maximum: 3) }
    await store.send(.tagAdded("one more")) { $0.validationMessage = "At most 3 tags: remove one first." }
    await store.send(.tagRemoved(" SUNSET ")) {
      $0.tags = Self.tags(["watercolor", "4k"], maximum: 3)
      $0.validationMessage = nil
    }
    // Removing a tag that isn't there changes nothing.
    await store.send(.tagRemoved("sunset"))
    await store.send(.tagAdded("one more")) { $0.tags = Self.tags(["watercolor", "4k", "one more"], maximum: 3) }
    XCTAssertEqual(store.state.fullPrompt, "watercolor, 4k, one more")
    await store.finish()
  }

  func testDefaultTagLimitIsTen() {
    var tags = PromptTags()
    for index in 1...10 { XCTAssertNoThrow(try tags.add("tag \(index)")) }
    XCTAssertThrowsError(try tags.add("tag 11")) { error in
      XCTAssertEqual(error as? PromptTags.Rejection, .full(maximum: 10))
    }
    XCTAssertEqual(tags.values.count, 10)
  }

  // MARK: Cancellation

  func testEditingThePromptCancelsTheRequestInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "a kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = Self.slowClient(clock: clock)
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.send(.promptChanged("a red kite")) {
      $0.prompt = "a red kite"
      $0.status = .idle
    }
    // The response would have arrived now; the cancelled request sends nothing.
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  func testEditingAnyOtherInputCancelsTheRequestInFlight() async {
    let edits: [(Feature.Action, (inout Feature.State) -> Void)] = [
      (.negativePromptChanged("blurry"), { $0.negativePrompt = "blurry" }),
      (.tagAdded("watercolor"), { $0.tags = ["sunset", "watercolor"] }),
      (.tagRemoved("sunset"), { $0.tags = [] }),
      (.widthSelected(640), { $0.width = 640 }),
      (.heightSelected(768), { $0.height = 768 }),
      (.sampleCountChanged(3), { $0.sampleCount = 3 }),
    ]
    for (edit, change) in edits {
      let clock = TestClock()
      let store = TestStore(
        initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "a kite", tags: ["sunset"])
      ) {
        Feature()
      } withDependencies: {
        $0.imageGeneration = Self.slowClient(clock: clock)
      }
      await store.send(.generateTapped) { $0.status = .generating }
      await store.send(edit) {
        change(&$0)
        $0.status = .idle
      }
      await clock.advance(by: .seconds(10))
      await store.finish()
    }
  }

  func testLeavingCancelsTheRequestInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "a kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = Self.slowClient(clock: clock)
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.send(.leave) { $0.status = .idle }
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  func testCancelTappedCancelsTheRequestInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "a kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = Self.slowClient(clock: clock)
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.send(.cancelTapped) { $0.status = .idle }
    // Cancelling or leaving with nothing in flight changes nothing.
    await store.send(.cancelTapped)
    await store.send(.leave)
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  func testGeneratingAgainReplacesTheRequestInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "a kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = Self.slowClient(clock: clock)
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await clock.advance(by: .seconds(3))
    await store.send(.generateTapped)
    // Only the second request answers, 5 s after it started.
    await clock.advance(by: .seconds(4))
    await clock.advance(by: .seconds(1))
    await store.receive(.generationResponse(.success([.fixture("a kite")]))) {
      $0.status = .generated([.fixture("a kite")])
    }
    await store.finish()
  }

  func testEditingAfterGenerationKeepsTheImages() async {
    let images = [GeneratedImage.fixture("a")]
    var state = Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")
    state.status = .generated(images)
    let store = TestStore(initialState: state) { Feature() }
    await store.send(.promptChanged("kites")) { $0.prompt = "kites" }
    await store.send(.leave)
    await store.finish()
  }

  // MARK: Failures

  func testEveryClientErrorBecomesAFailureMessage() async {
    let cases: [(ImageGenerationError, String)] = [
      (
        .invalidRequest("The prompt has 300 characters; Karlo accepts at most 256."),
        "The prompt has 300 characters; Karlo accepts at most 256."
      ),
      (
        .missingAPIKey(backend: "Karlo", sources: ["KARLO_API_KEY in the environment"]),
        "No API key for Karlo: set KARLO_API_KEY in the environment."
      ),
      (
        .invalidConfiguration("the base URL must be an http or https URL with a host"),
        "Invalid configuration: the base URL must be an http or https URL with a host"
      ),
      (
        .rejected(message: "prompt contains forbidden words"),
        "The service rejected the request: prompt contains forbidden words"
      ),
      (
        .unauthorized(status: 401, message: nil),
        "The service refused the API key (HTTP 401). Check the key in the environment or the config file."
      ),
      (
        .unauthorized(status: 403, message: "this key may not use the API"),
        """
        The service refused the API key (HTTP 403: this key may not use the API). Check the key in the environment \
        or the config file.
        """
      ),
      (.rateLimited(retryAfterSeconds: 30), "Rate limited by the service: try again in 30 seconds."),
      (.rateLimited(retryAfterSeconds: 1), "Rate limited by the service: try again in 1 second."),
      (.rateLimited(retryAfterSeconds: nil), "Rate limited by the service: try again later."),
      (.serverError(status: 503, message: nil), "The service failed (HTTP 503)."),
      (.serverError(status: 500, message: "internal error"), "The service failed (HTTP 500): internal error"),
      (.unexpectedStatus(418, message: nil), "The service answered with unexpected HTTP status 418."),
      (.timedOut, "The service did not answer in time."),
      (
        .connectionFailed("Could not connect to the server."),
        "Could not reach the service: Could not connect to the server."
      ),
      (
        .malformedResponse("the body is not valid JSON"),
        "The service's response could not be read: the body is not valid JSON"
      ),
      (.invalidImage("image 1 is not valid base64"), "The service sent an unusable image: image 1 is not valid base64"),
      (
        .imageDownloadFailed("HTTP 404 from 127.0.0.1"), "Could not download a generated image: HTTP 404 from 127.0.0.1"
      ),
    ]
    for (error, message) in cases {
      let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")) {
        Feature()
      } withDependencies: {
        $0.imageGeneration = ImageGenerationClient { _ in throw error }
      }
      await store.send(.generateTapped) { $0.status = .generating }
      await store.receive(.generationResponse(.failure(error))) { $0.status = .failed(message) }
      await store.finish()
    }
  }

  func testAnErrorOfAnotherTypeIsDescribed() async {
    struct Unplugged: Error, CustomStringConvertible { var description: String { "the cable is unplugged" } }
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = ImageGenerationClient { _ in throw Unplugged() }
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.receive(.generationResponse(.failure(.other("the cable is unplugged")))) {
      $0.status = .failed("the cable is unplugged")
    }
  }

  func testGeneratingAfterAFailureTriesAgain() async {
    let attempts = ImageGenerationTestBox(0)
    let store = TestStore(initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")) {
      Feature()
    } withDependencies: {
      $0.imageGeneration = ImageGenerationClient { _ in
        let attempt = attempts.update { value -> Int in
          value += 1
          return value
        }
        if attempt == 1 { throw ImageGenerationError.timedOut }
        return [.fixture("b")]
      }
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.receive(.generationResponse(.failure(.timedOut))) {
      $0.status = .failed("The service did not answer in time.")
    }
    await store.send(.generateTapped) { $0.status = .generating }
    await store.receive(.generationResponse(.success([.fixture("b")]))) { $0.status = .generated([.fixture("b")]) }
  }

  func testAFailedSaveKeepsTheFilesWrittenBeforeIt() async {
    let images = [GeneratedImage.fixture("a"), GeneratedImage.fixture("b"), GeneratedImage.fixture("c")]
    var state = Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")
    state.status = .generated(images)
    let first = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000000.png")
    let second = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000001.png")
    let store = TestStore(initialState: state) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.generatedImageStorage = GeneratedImageStorage { _, url in
        if url == second { throw ImageSaveError.writeFailed(path: url.path, reason: "No space left on device") }
      }
    }
    await store.send(.saveTapped) { $0.isSaving = true }
    let failure = ImageSaveError.writeFailed(path: second.path, reason: "No space left on device")
    await store.receive(.saveFinished(Feature.SaveOutcome(saved: [first], failure: failure))) {
      $0.isSaving = false
      $0.savedFiles = [first]
      $0.saveErrorMessage = "Could not write \(second.path): No space left on device"
    }
  }

  func testSavingWhileSavingIsIgnoredAndLeavingLetsTheSaveFinish() async {
    let clock = TestClock()
    let images = [GeneratedImage.fixture("a")]
    var state = Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")
    state.status = .generated(images)
    let store = TestStore(initialState: state) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.generatedImageStorage = GeneratedImageStorage { _, _ in try await clock.sleep(for: .seconds(1)) }
    }
    await store.send(.saveTapped) { $0.isSaving = true }
    await store.send(.saveTapped)
    await store.send(.leave)
    await clock.advance(by: .seconds(1))
    let file = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000000.png")
    await store.receive(.saveFinished(Feature.SaveOutcome(saved: [file]))) {
      $0.isSaving = false
      $0.savedFiles = [file]
    }
    await store.finish()
  }

  func testTheTestClientFailsATestThatGeneratesWithoutOverridingIt() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite"), reducer: { Feature() },
      reporter: failures.reporter)
    await store.send(.generateTapped) { $0.status = .generating }
    await store.receive(.generationResponse(.failure(.other("ImageGenerationClient.generate is unimplemented")))) {
      $0.status = .failed("ImageGenerationClient.generate is unimplemented")
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages.first?.contains("ImageGenerationClient.generate is unimplemented") ?? false,
      "\(failures.messages)")
  }

  func testTheTestStorageFailsATestThatSavesWithoutOverridingIt() async {
    let failures = TestFailures()
    var state = Feature.State(saveFolder: imageGenerationTestFolder, prompt: "kite")
    state.status = .generated([.fixture("a")])
    let store = TestStore(
      initialState: state, reducer: { Feature() }, withDependencies: { $0.uuid = .incrementing },
      reporter: failures.reporter)
    await store.send(.saveTapped) { $0.isSaving = true }
    let file = imageGenerationTestFolder.appendingPathComponent("00000000-0000-0000-0000-000000000000.png")
    await store.receive(
      .saveFinished(
        Feature.SaveOutcome(saved: [], failure: .writeFailed(path: file.path, reason: "unimplemented")))
    ) {
      $0.isSaving = false
      $0.saveErrorMessage = "Could not write \(file.path): unimplemented"
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages.first?.contains("GeneratedImageStorage.save is unimplemented") ?? false,
      "\(failures.messages)")
  }

  // MARK: Helpers

  /// A client that answers `[.fixture(prompt)]` after 5 seconds on `clock`.
  private static func slowClient(clock: TestClock) -> ImageGenerationClient {
    ImageGenerationClient { request in
      try await clock.sleep(for: .seconds(5))
      return [.fixture(request.prompt)]
    }
  }

  private static func tags(_ values: [String], maximum: Int) -> PromptTags {
    var tags = PromptTags(maximum: maximum)
    for value in values { _ = try? tags.add(value) }
    return tags
  }
}
