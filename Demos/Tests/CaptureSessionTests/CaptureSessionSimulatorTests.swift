import CaptureSession
import Foundation
import Images
import Unidirectional
import UnidirectionalTesting
import XCTest

/// The live (simulated) capture session: its events, its timing on the injected clock, the files it writes.
final class CaptureSessionSimulatorTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("capture-simulator-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private var configuration: CaptureSessionConfiguration {
    CaptureSessionConfiguration(imagesDirectory: folder.appendingPathComponent("images", isDirectory: true))
  }

  /// Runs `client`'s session to its end on an immediate clock; returns the events and the time they took.
  private func collect(_ client: CaptureSessionClient) async throws -> ([CaptureSessionEvent], Duration) {
    let clock = ImmediateClock()
    let stream = withDependencies {
      $0.clock = clock
    } operation: {
      client.start(configuration)
    }
    var events: [CaptureSessionEvent] = []
    for try await event in stream { events.append(event) }
    return (events, clock.now.offset)
  }

  func testRenderedShotsAreRealPNGFilesInTheImagesFolder() async throws {
    let (events, elapsed) = try await collect(
      .simulator(script: .standard(shotCount: 3, stepDelay: .milliseconds(200), shotInterval: .milliseconds(100))))
    XCTAssertEqual(elapsed, .milliseconds(5 * 200 + 3 * 100))
    let states = events.compactMap { event -> CaptureSessionState? in
      if case let .stateChanged(state) = event { return state } else { return nil }
    }
    XCTAssertEqual(states, [.ready, .detecting, .capturing, .finishing, .completed])
    let shots = events.compactMap { event -> CaptureShot? in
      if case let .shotCaptured(shot) = event { return shot } else { return nil }
    }
    XCTAssertEqual(shots.map(\.number), [1, 2, 3])
    XCTAssertEqual(shots.map(\.fileURL.lastPathComponent), ["shot-001.png", "shot-002.png", "shot-003.png"])
    for shot in shots {
      XCTAssertEqual(shot.fileURL.deletingLastPathComponent().path, configuration.imagesDirectory.path)
      let data = try Data(contentsOf: shot.fileURL)
      XCTAssertEqual(Int64(data.count), shot.byteCount)
      XCTAssertEqual(Array(data.prefix(8)), PNGEncoder.signature)
      XCTAssertEqual(
        data, try PreviewImageRenderer.png(prompt: "capture shot", index: shot.number, width: 96, height: 72))
    }
    XCTAssertEqual(Set(shots.map(\.fileURL)).count, 3, "every shot is its own file")
  }

  func testAFolderOfImagesBecomesTheShotsInNameOrder() async throws {
    let source = folder.appendingPathComponent("photos", isDirectory: true)
    try FileManager.default.createDirectory(
      at: source.appendingPathComponent("nested.jpg"), withIntermediateDirectories: true)
    let contents: [String: Data] = [
      "a.png": Data(PNGEncoder.signature + [2, 2]), "b.JPG": Data([0xFF, 0xD8, 0xFF, 3]),
      "c.heic": Data([0, 0, 0, 24] + Array("ftypheic".utf8) + [4]), ".hidden.png": Data([1]), "notes.txt": Data([5]),
    ]
    for (name, data) in contents { try data.write(to: source.appendingPathComponent(name)) }
    let images = try CaptureShotSource.images(in: source)
    XCTAssertEqual(images.map(\.lastPathComponent), ["a.png", "b.JPG", "c.heic"])

    let (events, _) = try await collect(
      .simulator(
        script: .standard(shotCount: images.count, stepDelay: .zero, shotInterval: .zero), shots: .folder(source)))
    let shots = events.compactMap { event -> CaptureShot? in
      if case let .shotCaptured(shot) = event { return shot } else { return nil }
    }
    XCTAssertEqual(shots.map(\.fileURL.lastPathComponent), ["shot-001.png", "shot-002.jpg", "shot-003.heic"])
    let expected = ["a.png", "b.JPG", "c.heic"].compactMap { contents[$0] }
    XCTAssertEqual(shots.map(\.byteCount), expected.map { Int64($0.count) })
    XCTAssertEqual(try shots.map { try Data(contentsOf: $0.fileURL) }, expected)
  }

  func testAFolderWithTooFewImagesFailsBeforeAnyEvent() async throws {
    let source = folder.appendingPathComponent("photos", isDirectory: true)
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Data([0xFF, 0xD8, 0xFF, 1]).write(to: source.appendingPathComponent("only.jpg"))
    do {
      let (events, _) = try await collect(.simulator(script: .standard(shotCount: 2), shots: .folder(source)))
      XCTFail("expected an error, got \(events)")
    } catch {
      XCTAssertEqual(error as? CaptureSessionError, .notEnoughShots(folder: source.path, available: 1, needed: 2))
      XCTAssertEqual("\(error)", "The shot folder photos has 1 image; the session needs 2.")
    }
  }

  func testBadShotFoldersAreClearErrors() throws {
    let missing = folder.appendingPathComponent("missing")
    XCTAssertThrowsError(try CaptureShotSource.images(in: missing)) { error in
      XCTAssertEqual(
        error as? CaptureSessionError, .unreadableShotFolder(path: missing.path, reason: "it does not exist"))
    }
    let file = folder.appendingPathComponent("file.jpg")
    try Data([1]).write(to: file)
    XCTAssertThrowsError(try CaptureShotSource.images(in: file)) { error in
      XCTAssertEqual(
        error as? CaptureSessionError, .unreadableShotFolder(path: file.path, reason: "it is not a folder"))
    }
    let empty = folder.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    try Data("text".utf8).write(to: empty.appendingPathComponent("readme.txt"))
    XCTAssertThrowsError(try CaptureShotSource.images(in: empty)) { error in
      XCTAssertEqual(error as? CaptureSessionError, .noImagesInShotFolder(path: empty.path))
      XCTAssertEqual(
        "\(error)", "The shot folder empty has no images (JPEG, PNG, HEIC, TIFF, WebP, GIF or BMP).")
    }
  }

  /// A shot folder's files are checked before any shot: a named pipe would block the session forever, a text file
  /// named `.jpg` is no image, a file that cannot be read is named in the message.
  func testShotsThatAreNoImagesOrNoFilesAreRefusedByName() throws {
    let source = folder.appendingPathComponent("photos", isDirectory: true)
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    let good = source.appendingPathComponent("1.png")
    try Data(PNGEncoder.signature + [1]).write(to: good)

    let pipe = source.appendingPathComponent("2.png")
    XCTAssertEqual(mkfifo(pipe.path, 0o644), 0)
    XCTAssertThrowsError(try CaptureShotSource.images(in: source)) { error in
      XCTAssertEqual(
        error as? CaptureSessionError,
        .unreadableShot(path: pipe.path, reason: "it is a named pipe (FIFO), not a regular file"))
      XCTAssertEqual(
        "\(error)", "Cannot read the shot image \(pipe.path): it is a named pipe (FIFO), not a regular file.")
    }
    try FileManager.default.removeItem(at: pipe)

    let text = source.appendingPathComponent("3.jpg")
    try Data("hello, I am text".utf8).write(to: text)
    XCTAssertThrowsError(try CaptureShotSource.images(in: source)) { error in
      XCTAssertEqual(error as? CaptureSessionError, .notAnImage(path: text.path, expected: "a JPEG", found: nil))
      XCTAssertEqual(
        "\(error)", "The shot image \(text.path) is not a JPEG image: its first bytes match no image format.")
    }
    try Data(PNGEncoder.signature + [3]).write(to: text)
    XCTAssertThrowsError(try CaptureShotSource.images(in: source)) { error in
      XCTAssertEqual("\(error)", "The shot image \(text.path) is not a JPEG image: its bytes are those of a PNG image.")
    }
    try FileManager.default.removeItem(at: text)

    #if os(Linux)
      // Readable by name, unreadable in content, even for root: reading /proc/self/mem at 0 fails with EIO.
      let unreadable = source.appendingPathComponent("4.png")
      try FileManager.default.createSymbolicLink(atPath: unreadable.path, withDestinationPath: "/proc/self/mem")
      XCTAssertThrowsError(try CaptureShotSource.images(in: source)) { error in
        XCTAssertEqual(
          error as? CaptureSessionError, .unreadableShot(path: unreadable.path, reason: "input/output error"))
      }
      try FileManager.default.removeItem(at: unreadable)
    #endif
    XCTAssertEqual(try CaptureShotSource.images(in: source), [good])
  }

  func testAnImagesFolderThatCannotBeCreatedFailsTheSession() async throws {
    let blocker = folder.appendingPathComponent("images")
    try Data([1]).write(to: blocker)  // a file where the images folder should be
    do {
      _ = try await collect(.simulator(script: .standard(shotCount: 1)))
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(
        error as? CaptureSessionError,
        .cannotWriteShot(
          path: configuration.imagesDirectory.path, reason: "\(blocker.path) is a file, not a folder"))
    }
  }

  /// The simulator waits on the injected clock: driven by a `TestClock` through the feature, each event arrives
  /// exactly when its delay has passed, and releasing the feature stops the session mid-script.
  func testTheSimulatorRunsOnTheInjectedClock() async throws {
    let clock = TestClock()
    let script = try CaptureSessionScript(
      parsing: """
        200ms ready
        300ms detecting
        100ms capturing
        50ms shot
        50ms shot
        """)
    let store = TestStore(initialState: CaptureSessionFeature.State(configuration: configuration)) {
      CaptureSessionFeature()
    } withDependencies: {
      $0.clock = clock
      $0.captureSession = .simulator(script: script)
    }
    await store.send(.start) { $0.hasStarted = true }
    await clock.advance(by: .milliseconds(199))
    XCTAssertEqual(store.state.session, .initializing)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.sessionEvent(.stateChanged(.detecting))) { $0.session = .detecting }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sessionEvent(.stateChanged(.capturing))) { $0.session = .capturing }
    await clock.advance(by: .milliseconds(50))
    let first = CaptureShot(
      number: 1, fileURL: configuration.imagesDirectory.appendingPathComponent("shot-001.png"),
      byteCount: Int64(try PreviewImageRenderer.png(prompt: "capture shot", index: 1, width: 96, height: 72).count))
    await store.receive(.sessionEvent(.shotCaptured(first))) { $0.shots = [first] }
    XCTAssertEqual(clock.sleeperCount, 1, "waiting for the second shot")

    await store.send(.released) { $0.isReleased = true }
    XCTAssertEqual(clock.sleeperCount, 0, "releasing the feature ends the session's wait")
    await clock.advance(by: .seconds(1))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: configuration.imagesDirectory.appendingPathComponent("shot-002.png").path))
    await store.finish()
  }

  func testAScriptThatEndsBeforeCompletingFailsTheSession() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: CaptureSessionFeature.State(configuration: configuration)) {
      CaptureSessionFeature()
    } withDependencies: {
      $0.clock = clock
      $0.captureSession = .simulator(
        script: CaptureSessionScript(steps: [.init(delay: .milliseconds(10), event: .state(.ready))]))
    }
    await store.send(.start) { $0.hasStarted = true }
    await clock.advance(by: .milliseconds(10))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    await store.receive(.sessionEventsEnded) {
      $0.session = .failed(reason: "The capture session ended before it completed.")
    }
    await store.finish()
  }
}
