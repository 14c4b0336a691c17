import Features
import Foundation
import Unidirectional

/// `demo gallery`: drives ``GalleryFeature`` headlessly through every kind of navigation — a sheet, a push, a
/// dialog, a pop from inside the pushed screen, a sheet dismissed mid-upload — printing each navigation change.
///
/// The host plays the user; the upload is simulated (preview client, about a second on the real clock) and the
/// images are two small PNG files it writes, or the first two images of `--images DIR`.
struct GalleryCommand: DemoCommand {
  static let name = "gallery"
  static let summary = "upload, open, delete and close items of the gallery, printing each navigation change"
  static let synopsis = "demo gallery [OPTIONS]"
  static let usage = """
    --images DIR    upload the first two images of DIR (name order) instead of two drawn ones
    --out DIR       where the drawn images go (default: a new folder in the temporary directory)
    """

  typealias GalleryStore = Store<GalleryFeature.State, GalleryFeature.Action>

  static func run(arguments: [String]) async -> Int32 {
    let images: [PickedImage]
    let folder: URL
    do {
      let options = try OptionParser(arguments, valueOptions: ["--images", "--out"])
      guard options.positional.isEmpty else { throw UsageError("unexpected argument \(options.positional[0])") }
      folder =
        options.values["--out"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent(
          "unidirectional-gallery-\(UUID().uuidString.lowercased())", isDirectory: true)
      if let imageFolder = options.values["--images"] {
        images = try imagesIn(URL(fileURLWithPath: imageFolder, isDirectory: true))
      } else {
        images = try drawImages(in: folder)
      }
    } catch let error as UsageError {
      return usageFailure(error)
    } catch {
      FileHandle.standardError.write(Data("demo gallery: \(error)\n".utf8))
      return 1
    }

    let store = Store(initialState: GalleryFeature.State()) {
      GalleryFeature()
    } withDependencies: {
      $0.context = .preview
    }
    let console = Console(isTerminal: false)
    console.line("gallery: \(images.map(\.fileURL.lastPathComponent).joined(separator: ", ")), simulated upload")
    let driver = GalleryDriver(store: store, console: console)
    let succeeded = await driver.play(images: images)
    let left = await waitForEffectsToEnd(store)
    guard succeeded else {
      console.line("failed: the flow stopped early")
      return 1
    }
    console.line(
      left == 0
        ? "done: \(store.items.count) item\(store.items.count == 1 ? "" : "s") left; every effect finished or cancelled"
        : "done: \(left) effect\(left == 1 ? "" : "s") still running")
    return left == 0 ? 0 : 1
  }

  /// Two small PNG files, kite.png and cat.png, written to `folder`.
  static func drawImages(in folder: URL) throws -> [PickedImage] {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let colors: [(String, [UInt8])] = [("kite.png", [230, 80, 40]), ("cat.png", [60, 60, 70])]
    return try colors.map { name, rgb in
      let pixels = (0..<(16 * 16)).flatMap { _ in rgb }
      let url = folder.appendingPathComponent(name)
      try PNGEncoder.encode(width: 16, height: 16, rgb: pixels).write(to: url)
      return PickedImage(fileURL: url)
    }
  }

  /// The first two image files of `folder`, in name order.
  static func imagesIn(_ folder: URL) throws -> [PickedImage] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let extensions: Set = ["png", "jpg", "jpeg", "heic", "gif", "webp"]
    let images = names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.prefix(2)
    guard images.count == 2 else { throw UsageError("--images needs a folder with at least two images") }
    return images.map { PickedImage(fileURL: folder.appendingPathComponent($0)) }
  }

  /// Waits (up to 5 s) for the store's effects to end; returns how many are still running.
  static func waitForEffectsToEnd(_ store: GalleryStore) async -> Int {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while store.runningEffectCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return store.runningEffectCount
  }

}

/// Plays the user of the gallery: each step sends an action, then follows the states it produces (printing
/// every navigation change) until the step's outcome shows.
struct GalleryDriver {
  let store: GalleryCommand.GalleryStore
  let console: Console

  func play(images: [PickedImage]) async -> Bool {
    var states = store.states.makeAsyncIterator()
    var printer = GalleryPrinter(console: console)
    guard let initial = await states.next() else { return false }
    printer.show(initial)

    func step(
      _ title: String, _ action: GalleryFeature.Action, until isDone: (GalleryFeature.State) -> Bool
    ) async -> GalleryFeature.State? {
      console.line("→ \(title)")
      store.send(action)
      let deadline = ContinuousClock.now.advanced(by: .seconds(10))
      while let state = await states.next() {
        printer.show(state)
        if isDone(state) { return state }
        if ContinuousClock.now > deadline { break }
      }
      return nil
    }

    // The upload sheet: pick, upload, and the sheet goes away by itself.
    guard await step("Upload", .uploadTapped, until: { $0.destination?.upload != nil }) != nil,
      let uploaded = await step(
        "pick \(images.map(\.fileURL.lastPathComponent).joined(separator: ", "))",
        .destination(.presented(.upload(.itemsPicked(images)))),
        until: { $0.destination == nil || $0.destination?.upload?.status.isFailure == true }),
      uploaded.destination == nil, uploaded.rows.count == images.count
    else { return false }
    let first = uploaded.items[0]
    let second = uploaded.items[1]

    // A detail pushed on the stack; "Delete" presents the dialog; confirming pops the screen.
    guard await step("open \(first.name)", .row(id: first.id, action: .tapped), until: { !$0.path.isEmpty }) != nil,
      let opened = await step(
        "detail appears", .path(.element(id: 0, action: .detail(.onAppear))),
        until: { $0.path[id: 0, case: GalleryFeature.Path.State.detailCase]?.info != .loading }),
      opened.path.count == 1,
      await step(
        "Delete", .path(.element(id: 0, action: .detail(.deleteTapped))), until: { $0.destination != nil }) != nil,
      await step(
        "confirm Delete", .destination(.presented(.confirmDelete(.confirm(first.id)))),
        until: { $0.destination == nil && $0.path.isEmpty }) != nil
    else { return false }

    // A detail that closes itself (@Dependency(\.dismiss) pops it).
    guard await step("open \(second.name)", .row(id: second.id, action: .tapped), until: { !$0.path.isEmpty }) != nil,
      let secondID = store.path.ids.first,
      await step(
        "Close (the detail dismisses itself)", .path(.element(id: secondID, action: .detail(.closeTapped))),
        until: { $0.path.isEmpty }) != nil
    else { return false }

    // The sheet dismissed mid-upload: the upload is cancelled with it.
    guard await step("Upload", .uploadTapped, until: { $0.destination?.upload != nil }) != nil,
      await step(
        "pick \(images[0].fileURL.lastPathComponent)", .destination(.presented(.upload(.itemsPicked([images[0]])))),
        until: { ($0.destination?.upload?.progressPercent ?? 0) > 0 }) != nil,
      await step("swipe the sheet away", .destination(.dismiss), until: { $0.destination == nil }) != nil
    else { return false }
    let running = store.runningEffectCount
    console.line("the upload went with the sheet: \(running) effect\(running == 1 ? "" : "s") left running")
    return running == 0
  }
}

extension ImageUploadFeature.Status {
  var isFailure: Bool {
    if case .failure = self { return true }
    return false
  }
}

extension ImageUploadFeature.State {
  /// How far the upload is, in percent; nil when it is not uploading.
  var progressPercent: Int? {
    if case let .uploading(progress) = status, progress.totalBytes > 0 { return progress.percent }
    return nil
  }
}
