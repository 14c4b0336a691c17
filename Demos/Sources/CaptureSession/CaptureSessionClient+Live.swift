import Foundation
import Images
import LocalFiles
import Unidirectional

extension CaptureSessionClient {
  /// A simulated capture session that plays `script` on the injected clock, taking its shots from `shots`.
  ///
  /// The events are produced in the task that iterates the stream, one step per element: nothing runs ahead of
  /// the consumer, and cancelling the consumer ends the session at once (its sleep on the clock throws). Shots
  /// are written (rendered) or copied (folder) into the configuration's images folder as `shot-001.png`, ….
  ///
  /// ```swift
  /// $0.captureSession = .simulator(script: .standard(shotCount: 5), shots: .rendered)
  /// ```
  public static func simulator(
    script: CaptureSessionScript = .standard(),
    shots: CaptureShotSource = .rendered
  ) -> CaptureSessionClient {
    CaptureSessionClient { configuration in
      @Dependency(\.clock) var clock
      let player = ScriptPlayer(script: script, shots: shots, configuration: configuration, clock: clock)
      return AsyncThrowingStream { try await player.next() }
    }
  }
}

/// Plays one simulated session: the next step each time the stream asks for an element.
private final class ScriptPlayer: @unchecked Sendable {
  private let script: CaptureSessionScript
  private let shots: CaptureShotSource
  private let configuration: CaptureSessionConfiguration
  private let clock: any Clock<Duration>
  private let lock = NSLock()
  // Guarded by `lock`; the stream asks for one element at a time, the lock only makes that explicit.
  private var nextStep = 0
  private var shotCount = 0
  private var folderImages: [URL]?

  init(
    script: CaptureSessionScript, shots: CaptureShotSource, configuration: CaptureSessionConfiguration,
    clock: any Clock<Duration>
  ) {
    self.script = script
    self.shots = shots
    self.configuration = configuration
    self.clock = clock
  }

  /// Waits for the next step's delay and reports it; nil after the last step.
  func next() async throws -> CaptureSessionEvent? {
    let index: Int = lock.withLock {
      defer { nextStep += 1 }
      return nextStep
    }
    guard index < script.steps.count else { return nil }
    if index == 0 { try prepare() }
    let step = script.steps[index]
    try await clock.sleep(for: step.delay)
    switch step.event {
    case let .state(state):
      return .stateChanged(state)
    case .shot:
      let number: Int = lock.withLock {
        shotCount += 1
        return shotCount
      }
      return .shotCaptured(try makeShot(number))
    }
  }

  /// Checks the shot folder and creates the images folder before the first step.
  private func prepare() throws {
    if case let .folder(folder) = shots, script.shotCount > 0 {
      let images = try CaptureShotSource.images(in: folder)
      guard images.count >= script.shotCount else {
        throw CaptureSessionError.notEnoughShots(folder: folder.path, available: images.count, needed: script.shotCount)
      }
      lock.withLock { folderImages = images }
    }
    do throws(FolderAccessError) {
      try FolderAccess.create(configuration.imagesDirectory)
    } catch {
      throw CaptureSessionError.cannotWriteShot(path: configuration.imagesDirectory.path, reason: error.reason)
    }
  }

  /// Writes shot `number` into the images folder.
  private func makeShot(_ number: Int) throws -> CaptureShot {
    let name = "shot-" + String(repeating: "0", count: max(0, 3 - String(number).count)) + String(number)
    switch shots {
    case let .rendered(width, height):
      let url = configuration.imagesDirectory.appendingPathComponent(name + ".png")
      do {
        let png = try PreviewImageRenderer.png(prompt: "capture shot", index: number, width: width, height: height)
        try png.write(to: url, options: .atomic)
        return CaptureShot(number: number, fileURL: url, byteCount: Int64(png.count))
      } catch {
        throw CaptureSessionError.cannotWriteShot(path: url.path, reason: FileErrorReason.words(for: error))
      }
    case .folder:
      let source = lock.withLock { folderImages?[number - 1] }
      guard let source else {
        throw CaptureSessionError.failed("shot \(number) has no image in the shot folder")
      }
      let url = configuration.imagesDirectory.appendingPathComponent(name + "." + source.pathExtension.lowercased())
      // Read, then write: a failure names the file it is about (the user's image, or the copy).
      let data: Data
      do {
        try CaptureShotSource.checkImage(source)  // it may have changed since the folder was listed
        data = try RegularFile.read(source)
      } catch let error as CaptureSessionError {
        throw error
      } catch let error as RegularFileError {
        throw CaptureSessionError.unreadableShot(path: source.path, reason: error.reason)
      }
      do {
        try data.write(to: url, options: .atomic)
      } catch {
        throw CaptureSessionError.cannotWriteShot(path: url.path, reason: FileErrorReason.words(for: error))
      }
      return CaptureShot(number: number, fileURL: url, byteCount: Int64(data.count))
    }
  }
}
