import Features
import Foundation
import Unidirectional

/// `demo generate`: drives an `ImageGenerationFeature` store headlessly — set the inputs, generate, save — and
/// prints each state change. The preview backend (default) needs no key and writes real PNG files.
struct GenerateCommand: DemoCommand {
  static let name = "generate"
  static let summary = "generate images from a prompt and save them (preview backend by default, or Karlo/OpenAI)"
  static let synopsis = "demo generate --prompt TEXT [OPTIONS]"
  static let usage = """
    --prompt TEXT          what to draw (required)
    --negative TEXT        what to leave out
    --tags A,B             keyword tags appended to the prompt (at most 10)
    --size WxH             each side one of 512, 640, 768, 1024 (default 512x512)
    --samples N            how many images, 1 to 8 (default 1)
    --out DIR              where to save them (default ./generated); checked before anything is generated
    --backend NAME         preview (default), karlo or openai; karlo/openai read KARLO_API_KEY / OPENAI_API_KEY
                           from the environment, else ./.unidirectional.local.json, else
                           ~/.config/unidirectional/keys.json
    --base-url URL         the service's address for karlo/openai (default its public API)
    --delivery KIND        base64 (default) or url: how the service hands back images
    --timeout SECONDS      how long to wait for the service (default 120)
    """ + "\n" + HostInstruments.usage(column: 23)

  /// The options after parsing and validation.
  struct Options {
    var prompt: String
    var negativePrompt = ""
    var tags = PromptTags()
    var width = 512
    var height = 512
    var samples = 1
    var out = URL(fileURLWithPath: "generated")
    var backend: ImageGenerationConfiguration.Backend?
    var baseURL: URL?
    var delivery = ImageGenerationConfiguration.ImageDelivery.base64
    var timeout = Duration.seconds(120)
    var printChanges = false
    var tracePath: String?
    var inspect = false
  }

  static func run(arguments: [String]) async -> Int32 {
    let options: Options
    do {
      options = try parse(arguments)
    } catch {
      return usageFailure(error)
    }

    let client: ImageGenerationClient
    var backendName = "preview"
    if let backend = options.backend {
      do {
        var configuration = try ImageGenerationConfiguration.load(backend: backend, baseURL: options.baseURL)
        configuration.timeout = options.timeout
        configuration.delivery = options.delivery
        client = .live(configuration)
        backendName = "\(backend.rawValue) at \(configuration.baseURL.absoluteString)"
      } catch {
        FileHandle.standardError.write(Data("demo generate: \(error)\n".utf8))
        return 1
      }
    } else {
      client = .preview
    }

    let instruments: HostInstruments
    do {
      instruments = try HostInstruments(
        printChanges: options.printChanges, tracePath: options.tracePath, inspect: options.inspect, command: name)
    } catch {
      FileHandle.standardError.write(Data("demo generate: \(error)\n".utf8))
      return 1
    }
    defer { instruments.finish() }
    let store = Store(
      initialState: ImageGenerationFeature.State(saveFolder: options.out),
      instruments: instruments.instruments(for: ImageGenerationFeature.self)
    ) {
      ImageGenerationFeature().printChanges(to: instruments.printer)
    } withDependencies: {
      $0.imageGeneration = client
      $0.generatedImageStorage = .live
    }
    print("backend: \(backendName)")
    var printer = StatePrinter()

    // Ctrl-C leaves the screen: the request in flight is cancelled.
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
    interrupt.setEventHandler { store.send(.leave) }
    interrupt.resume()
    defer { interrupt.cancel() }

    store.send(.promptChanged(options.prompt))
    store.send(.negativePromptChanged(options.negativePrompt))
    for tag in options.tags.values { store.send(.tagAdded(tag)) }
    store.send(.widthSelected(options.width))
    store.send(.heightSelected(options.height))
    store.send(.sampleCountChanged(options.samples))
    printer.print(store.state)

    let generation = store.send(.generateTapped)
    printer.print(store.state)
    await generation.finish()
    printer.print(store.state)
    switch store.status {
    case .generated:
      break
    case .failed:
      return 1
    case .idle, .generating:
      print("cancelled")
      return 130
    }

    let save = store.send(.saveTapped)
    printer.print(store.state)
    await save.finish()
    printer.print(store.state)
    if store.saveErrorMessage != nil { return 1 }
    print("done: \(store.savedFiles.count) file\(store.savedFiles.count == 1 ? "" : "s") in \(options.out.path)")
    return 0
  }

  /// Parses and validates `arguments` with the feature's own rules, so the store never refuses an option.
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    let parser = try OptionParser(
      arguments,
      valueOptions: HostInstruments.valueOptions.union([
        "--prompt", "--negative", "--tags", "--size", "--samples", "--out", "--backend", "--base-url", "--delivery",
        "--timeout",
      ]),
      flagOptions: HostInstruments.flagOptions)
    guard parser.positional.isEmpty else { throw UsageError("unexpected argument \(parser.positional[0])") }
    let values = parser.values
    guard let prompt = values["--prompt"], !prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw UsageError("--prompt is required and can't be empty")
    }
    var options = Options(prompt: prompt)
    options.negativePrompt = values["--negative"] ?? ""
    if let tags = values["--tags"] {
      for tag in tags.split(separator: ",", omittingEmptySubsequences: false) {
        do {
          try options.tags.add(String(tag))
        } catch {
          throw UsageError("--tags: \(error)")
        }
      }
    }
    if let size = values["--size"] {
      let sides = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
      let allowed = ImageGenerationFeature.dimensionOptions
      guard sides.count == 2, let width = sides[0], let height = sides[1], allowed.contains(width),
        allowed.contains(height)
      else {
        throw UsageError(
          "--size must be WxH with each side one of \(allowed.map(String.init).joined(separator: ", ")), not \(size)")
      }
      (options.width, options.height) = (width, height)
    }
    if let text = values["--samples"] {
      let range = ImageGenerationFeature.sampleCountRange
      guard let samples = Int(text), range.contains(samples) else {
        throw UsageError("--samples must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      options.samples = samples
    }
    if let out = values["--out"] {
      guard !out.isEmpty else { throw UsageError("--out can't be empty") }
      options.out = URL(fileURLWithPath: out)
    }
    // Before any request: a paid generation must not finish only to find it has nowhere to go.
    if let problem = FolderAccess.problem(writingInto: options.out) {
      throw UsageError("--out \(options.out.path): the images could not be saved there: \(problem)")
    }
    switch values["--backend"] ?? "preview" {
    case "preview": options.backend = nil
    case "karlo": options.backend = .karlo
    case "openai": options.backend = .openAI
    case let other: throw UsageError("--backend must be preview, karlo or openai, not \(other)")
    }
    if let text = values["--base-url"] {
      guard options.backend != nil else { throw UsageError("--base-url needs --backend karlo or openai") }
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        url.host != nil
      else {
        throw UsageError("--base-url must be an http or https URL, not \(text)")
      }
      options.baseURL = url
    }
    if let text = values["--delivery"] {
      guard let delivery = ImageGenerationConfiguration.ImageDelivery(rawValue: text) else {
        throw UsageError("--delivery must be base64 or url, not \(text)")
      }
      options.delivery = delivery
    }
    if let seconds = try parser.seconds("--timeout") { options.timeout = .milliseconds(Int(seconds * 1_000)) }
    if let trace = values["--trace"] {
      guard !trace.isEmpty else { throw UsageError("--trace can't be empty") }
      options.tracePath = trace
    }
    options.printChanges = parser.flags.contains("--print-changes")
    options.inspect = parser.flags.contains("--inspect")
    return options
  }
}

extension GenerateCommand {
  /// Prints what changed in the feature's state since the last call, one readable line per change.
  struct StatePrinter {
    private var last: ImageGenerationFeature.State?

    mutating func print(_ state: ImageGenerationFeature.State) {
      defer { last = state }
      let previous = last
      if previous?.fullPrompt != state.fullPrompt { emit("prompt: \"\(state.fullPrompt)\"") }
      if previous?.negativePrompt != state.negativePrompt, !state.negativePrompt.isEmpty {
        emit("negative prompt: \"\(state.negativePrompt)\"")
      }
      if previous?.width != state.width || previous?.height != state.height
        || previous?.sampleCount != state.sampleCount
      {
        emit("size: \(state.width)x\(state.height), samples: \(state.sampleCount)")
      }
      if previous?.validationMessage != state.validationMessage, let message = state.validationMessage {
        emit("refused: \(message)")
      }
      if previous?.status != state.status, previous != nil || state.status != .idle {
        switch state.status {
        case .idle:
          emit("status: idle")
        case .generating:
          emit("status: generating…")
        case let .generated(images):
          emit("status: generated \(images.count) image\(images.count == 1 ? "" : "s")")
          for (index, image) in images.enumerated() {
            let seed = image.seed.map { ", seed \($0)" } ?? ""
            emit("  image \(index + 1): \(image.format.rawValue), \(image.data.count) bytes\(seed)")
          }
        case let .failed(message):
          emit("status: failed: \(message)")
        }
      }
      if previous?.isSaving != state.isSaving, state.isSaving { emit("saving to \(state.saveFolder.path)…") }
      for file in state.savedFiles.dropFirst(previous?.savedFiles.count ?? 0) { emit("saved: \(file.path)") }
      if previous?.saveErrorMessage != state.saveErrorMessage, let message = state.saveErrorMessage {
        // A save writes the images in order and stops at the first failure.
        let failed = state.savedFiles.count - (previous?.savedFiles.count ?? 0) + 1
        let total = state.images.count
        emit("save failed for image \(failed) of \(total): \(message)")
        if failed + 1 == total {
          emit("  image \(total) was not saved either")
        } else if failed < total {
          emit("  images \(failed + 1) to \(total) were not saved either")
        }
      }
    }

    private func emit(_ line: String) {
      Swift.print(line)
    }
  }
}
