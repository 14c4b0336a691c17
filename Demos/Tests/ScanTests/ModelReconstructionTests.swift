import CaptureSession
import FeatureTestSupport
import Foundation
import ModelReconstruction
import Scan
import Unidirectional
import UnidirectionalTesting
import XCTest

/// The simulated reconstruction writes a real USDZ package: checked by reading it back (names, sizes, checksums,
/// the 64-byte alignment USDZ requires), with its errors and cancellation.
final class ModelReconstructionTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("reconstruction-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes shots of `sizes` bytes (distinct contents) and returns them.
  private func makeShots(_ sizes: [Int], extension fileExtension: String = "png") throws -> [CaptureShot] {
    try sizes.enumerated().map { index, size in
      let url = folder.appendingPathComponent("shot-\(index + 1).\(fileExtension)")
      try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }).write(to: url)
      return CaptureShot(number: index + 1, fileURL: url, byteCount: Int64(size))
    }
  }

  private func reconstruct(
    _ request: ModelReconstructionRequest, client: ModelReconstructionClient = .simulator(),
    clock: ImmediateClock = ImmediateClock()
  ) async throws -> (ReconstructedModel, [ModelReconstructionProgress]) {
    let progress = Recorder<ModelReconstructionProgress>()
    let model = try await withDependencies {
      $0.clock = clock
    } operation: {
      try await client.reconstruct(request) { progress.append($0) }
    }
    return (model, progress.values)
  }

  func testCRC32MatchesTheStandardCheckValue() {
    XCTAssertEqual(CRC32.checksum(Data("123456789".utf8)), 0xCBF4_3926)
    XCTAssertEqual(CRC32.checksum(Data()), 0)
    var pieces = CRC32()
    pieces.update(Data("1234".utf8))
    pieces.update(Data("56789".utf8))
    XCTAssertEqual(pieces.value, 0xCBF4_3926)
  }

  func testTheSimulatorWritesAUSDZPackageOfTheShots() async throws {
    let shots = try makeShots([1_000, 70_000, 3])
    let output = folder.appendingPathComponent("models/model-1.usdz")
    let (model, progress) = try await reconstruct(ModelReconstructionRequest(shots: shots, outputURL: output))

    XCTAssertEqual(progress.map(\.completedSteps), [1, 2, 3, 4, 5])
    XCTAssertEqual(Set(progress.map(\.totalSteps)), [5])
    XCTAssertEqual(model.fileURL, output)
    XCTAssertEqual(model.contentType, "model/vnd.usdz+zip")
    XCTAssertEqual(model.shotCount, 3)
    XCTAssertEqual(model.entryCount, 4)
    let data = try Data(contentsOf: output)
    XCTAssertEqual(model.byteCount, Int64(data.count))
    XCTAssertEqual(model.sha256, SHA256.hash(data).hex)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path),
      [
        "model-1.usdz"
      ])

    let archive = try USDZArchive(contentsOf: output, verifyingChecksums: true)
    XCTAssertEqual(
      archive.entries.map(\.name),
      ["scene.usda", "textures/shot-001.png", "textures/shot-002.png", "textures/shot-003.png"])
    for entry in archive.entries {
      XCTAssertEqual(entry.dataOffset % 64, 0, "\(entry.name) is 64-byte aligned")
    }
    for (entry, shot) in zip(archive.entries.dropFirst(), shots) {
      let bytes = data[Int(entry.dataOffset)..<Int(entry.dataOffset + entry.byteCount)]
      XCTAssertEqual(Data(bytes), try Data(contentsOf: shot.fileURL), entry.name)
    }
    let scene = archive.entries[0]
    let layer = String(decoding: data[Int(scene.dataOffset)..<Int(scene.dataOffset + scene.byteCount)], as: UTF8.self)
    XCTAssertTrue(layer.hasPrefix("#usda 1.0\n"), layer)
    XCTAssertTrue(
      layer.contains(#"string[] shots = ["textures/shot-001.png", "textures/shot-002.png", "textures/shot-003.png"]"#),
      layer)
    XCTAssertTrue(layer.contains(#"doc = "Simulated reconstruction from 3 shots""#), layer)
  }

  func testTheSameShotsGiveTheSameBytes() async throws {
    let shots = try makeShots([10, 20])
    let (first, _) = try await reconstruct(
      ModelReconstructionRequest(shots: shots, outputURL: folder.appendingPathComponent("a.usdz")))
    let (second, _) = try await reconstruct(
      ModelReconstructionRequest(shots: shots, outputURL: folder.appendingPathComponent("b.usdz")))
    XCTAssertEqual(first.sha256, second.sha256)
  }

  func testSimulatedWorkWaitsOnTheInjectedClock() async throws {
    let clock = ImmediateClock()
    let shots = try makeShots([5, 5, 5])
    _ = try await reconstruct(
      ModelReconstructionRequest(shots: shots, outputURL: folder.appendingPathComponent("m.usdz")),
      client: .simulator(stepDuration: .milliseconds(60)), clock: clock)
    XCTAssertEqual(clock.now.offset, .milliseconds(5 * 60))
  }

  func testShotExtensionsAreKeptOnlyWhenSafe() async throws {
    var shots = try makeShots([4, 4])
    let odd = folder.appendingPathComponent("weird.ＰＮＧ")
    try Data([1, 2, 3]).write(to: odd)
    shots.append(CaptureShot(number: 7, fileURL: odd, byteCount: 3))
    let (model, _) = try await reconstruct(
      ModelReconstructionRequest(shots: shots, outputURL: folder.appendingPathComponent("m.usdz")))
    XCTAssertEqual(
      try USDZArchive(contentsOf: model.fileURL).entries.map(\.name),
      ["scene.usda", "textures/shot-001.png", "textures/shot-002.png", "textures/shot-003.img"])
  }

  func testNoShotsIsRefused() async throws {
    do {
      _ = try await reconstruct(
        ModelReconstructionRequest(shots: [], outputURL: folder.appendingPathComponent("m.usdz")))
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(error as? ModelReconstructionError, .noShots)
      XCTAssertEqual("\(error)", "The capture has no shots to build a model from.")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  func testAMissingOrEmptyShotFailsAndLeavesNoFile() async throws {
    let shots = try makeShots([10])
    let missing = CaptureShot(number: 2, fileURL: folder.appendingPathComponent("gone.png"), byteCount: 10)
    let output = folder.appendingPathComponent("out/m.usdz")
    do {
      _ = try await reconstruct(ModelReconstructionRequest(shots: shots + [missing], outputURL: output))
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(
        error as? ModelReconstructionError,
        .unreadableShot(path: missing.fileURL.path, reason: "no such file or directory"))
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path), [])

    let empty = folder.appendingPathComponent("empty.png")
    try Data().write(to: empty)
    do {
      _ = try await reconstruct(
        ModelReconstructionRequest(shots: [CaptureShot(number: 1, fileURL: empty, byteCount: 0)], outputURL: output))
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual("\(error)", "Cannot read the shot empty.png: the file is empty.")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path), [])
  }

  func testAnUnwritableDestinationIsAClearError() async throws {
    let shots = try makeShots([10])
    let blocker = folder.appendingPathComponent("blocker")
    try Data([1]).write(to: blocker)
    let output = blocker.appendingPathComponent("m.usdz")
    do {
      _ = try await reconstruct(ModelReconstructionRequest(shots: shots, outputURL: output))
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(
        error as? ModelReconstructionError,
        .cannotWrite(path: output.path, reason: "\(blocker.path) is a file, not a folder"))
    }
  }

  func testCancellationRemovesTheUnfinishedFile() async throws {
    let clock = TestClock()
    let shots = try makeShots([10, 10, 10])
    let work = folder.appendingPathComponent("scan", isDirectory: true)
    var initial = ScanFeature.State(workingDirectory: work)
    initial.capture?.session = .completed
    initial.capture?.shots = shots
    let store = TestStore(initialState: initial) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.modelReconstruction = .simulator(stepDuration: .seconds(1))
    }
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = shots
      $0.model = .reconstructing(.starting)
    }
    await clock.advance(by: .seconds(2))  // the scene and the first shot are written
    for step in 1...2 {
      let progress = ModelReconstructionProgress(completedSteps: step, totalSteps: 5)
      await store.receive(.reconstructionProgressed(progress)) { $0.model = .reconstructing(progress) }
    }
    let partial = try FileManager.default.contentsOfDirectory(atPath: work.path)
    XCTAssertEqual(partial, [".model-00000000-0000-0000-0000-000000000000.usdz.partial"])
    await store.send(.cancelReconstructionTapped) { $0.model = .failed("Model creation was cancelled.") }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), [])
    await store.finish()
  }
}
