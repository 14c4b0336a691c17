import Foundation
import Unidirectional

/// Write a prompt, add keyword tags, pick a size and a count, generate images, then save them to a folder or hand
/// them to the host to share.
///
/// - An empty prompt (after trimming) is refused with a message; no request is made.
/// - Editing the prompt, the negative prompt, the tags, the size or the count while a request is in flight cancels
///   it (its result would no longer match the inputs); so does ``Action/leave`` or ``Action/cancelTapped``.
/// - Saving names each file `<uuid>.<ext>` with the injected `\.uuid` generator and records the files written.
///
/// ```swift
/// let store = Store(initialState: ImageGenerationFeature.State(saveFolder: URL(fileURLWithPath: "generated"))) {
///   ImageGenerationFeature()
/// } withDependencies: {
///   $0.imageGeneration = .preview
/// }
/// store.send(.promptChanged("a lighthouse at dawn"))
/// store.send(.tagAdded("watercolor"))
/// await store.send(.generateTapped).finish()   // status: .generated([…])
/// await store.send(.saveTapped).finish()       // savedFiles: [generated/<uuid>.png]
/// ```
public struct ImageGenerationFeature: Reducer {
  /// The sizes offered for width and height, in pixels (multiples of 8 that Karlo accepts).
  public static let dimensionOptions = [512, 640, 768, 1024]
  /// How many images one generation may ask for.
  public static let sampleCountRange = 1...8

  /// What the user has entered and what has happened.
  ///
  /// ```swift
  /// var state = ImageGenerationFeature.State(saveFolder: folder, prompt: "a kite", tags: ["watercolor"])
  /// state.fullPrompt   // "a kite, watercolor"
  /// ```
  public struct State: Equatable, Sendable {
    /// The description of the image.
    public var prompt: String
    /// What the image should not contain.
    public var negativePrompt: String
    /// Keywords appended to the prompt.
    public var tags: PromptTags
    /// Width in pixels, one of ``ImageGenerationFeature/dimensionOptions``.
    public var width: Int
    /// Height in pixels, one of ``ImageGenerationFeature/dimensionOptions``.
    public var height: Int
    /// How many images to generate, in ``ImageGenerationFeature/sampleCountRange``.
    public var sampleCount: Int
    /// Where the generation stands.
    public var status: Status
    /// Why the last edit or command was refused, if it was.
    public var validationMessage: String?
    /// The folder *save* writes to.
    public var saveFolder: URL
    /// Whether a save is in progress.
    public var isSaving: Bool
    /// Every file saved so far, in order.
    public var savedFiles: [URL]
    /// Why the last save failed, if it did.
    public var saveErrorMessage: String?

    /// A fresh form that saves into `saveFolder`.
    public init(
      saveFolder: URL,
      prompt: String = "",
      negativePrompt: String = "",
      tags: PromptTags = PromptTags(),
      width: Int = 512,
      height: Int = 512,
      sampleCount: Int = 1
    ) {
      self.prompt = prompt
      self.negativePrompt = negativePrompt
      self.tags = tags
      self.width = width
      self.height = height
      self.sampleCount = sampleCount
      self.status = .idle
      self.validationMessage = nil
      self.saveFolder = saveFolder
      self.isSaving = false
      self.savedFiles = []
      self.saveErrorMessage = nil
    }

    /// The prompt sent to the service: the trimmed prompt followed by the tags, separated by commas.
    public var fullPrompt: String {
      ([prompt.trimmingCharacters(in: .whitespacesAndNewlines)] + tags.values)
        .filter { !$0.isEmpty }
        .joined(separator: ", ")
    }

    /// The request *generate* sends.
    public var request: ImageGenerationRequest {
      ImageGenerationRequest(
        prompt: fullPrompt, negativePrompt: negativePrompt.trimmingCharacters(in: .whitespacesAndNewlines),
        width: width, height: height, samples: sampleCount)
    }

    /// The generated images, when there are some.
    public var images: [GeneratedImage] {
      if case let .generated(images) = status { images } else { [] }
    }
  }

  /// Where a generation stands.
  ///
  /// ```swift
  /// if case let .generated(images) = store.status { print("\(images.count) images") }
  /// ```
  public enum Status: Equatable, Sendable {
    /// Nothing requested, or the request was cancelled.
    case idle
    /// A request is in flight.
    case generating
    /// The service returned these images.
    case generated([GeneratedImage])
    /// The request failed; the message says why.
    case failed(String)
  }

  /// What the files of one save came to.
  ///
  /// ```swift
  /// .saveFinished(SaveOutcome(saved: [first], failure: .fileExists(path: second.path)))
  /// ```
  public struct SaveOutcome: Equatable, Sendable {
    /// The files written, in order.
    public var saved: [URL]
    /// Why the save stopped early, if it did.
    public var failure: ImageSaveError?

    /// An outcome with `saved` files and an optional `failure`.
    public init(saved: [URL], failure: ImageSaveError? = nil) {
      self.saved = saved
      self.failure = failure
    }
  }

  /// Everything that can happen.
  ///
  /// ```swift
  /// store.send(.promptChanged("a kite"))
  /// store.send(.tagAdded("watercolor"))
  /// store.send(.generateTapped)
  /// ```
  public enum Action: Equatable, Sendable {
    /// The prompt text changed.
    case promptChanged(String)
    /// The negative prompt text changed.
    case negativePromptChanged(String)
    /// The user added a keyword tag.
    case tagAdded(String)
    /// The user removed a keyword tag.
    case tagRemoved(String)
    /// The user picked a width.
    case widthSelected(Int)
    /// The user picked a height.
    case heightSelected(Int)
    /// The user picked how many images to generate.
    case sampleCountChanged(Int)
    /// Generate images for the current inputs.
    case generateTapped
    /// The service answered.
    case generationResponse(Result<[GeneratedImage], ImageGenerationError>)
    /// Stop the request in flight.
    case cancelTapped
    /// Save the generated images into the save folder.
    case saveTapped
    /// The save finished (completely or not).
    case saveFinished(SaveOutcome)
    /// Share the generated images (the host does it).
    case shareTapped
    /// The user left the screen: the request in flight is cancelled (a save in progress finishes, so every file
    /// written is recorded).
    case leave
    /// Messages for the host.
    case delegate(Delegate)

    /// Messages for the host.
    ///
    /// ```swift
    /// case let .generation(.delegate(.share(images))): return .run { _ in await sharing.share(images) }
    /// ```
    public enum Delegate: Equatable, Sendable {
      /// Share these images.
      case share([GeneratedImage])
    }

    /// Extracts ``delegate(_:)`` for a parent's `Scope`.
    public static let delegateCase = CasePath<Action, Delegate>(Action.delegate) {
      if case let .delegate(delegate) = $0 { delegate } else { nil }
    }
  }

  enum CancelID: Hashable, Sendable {
    case generation
    case save
  }

  @Dependency(\.imageGeneration) var imageGeneration
  @Dependency(\.generatedImageStorage) var storage
  @Dependency(\.uuid) var uuid

  /// The feature.
  public init() {}

  /// Applies `action` to `state` and returns the work to do next.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .promptChanged(prompt):
      state.prompt = prompt
      return inputsChanged(&state)

    case let .negativePromptChanged(negativePrompt):
      state.negativePrompt = negativePrompt
      return inputsChanged(&state)

    case let .tagAdded(tag):
      do {
        try state.tags.add(tag)
      } catch {
        state.validationMessage = error.description
        return .none
      }
      return inputsChanged(&state)

    case let .tagRemoved(tag):
      guard state.tags.remove(tag) else { return .none }
      return inputsChanged(&state)

    case let .widthSelected(width):
      guard Self.dimensionOptions.contains(width) else {
        state.validationMessage = "The width must be one of \(Self.optionsText) pixels, not \(width)."
        return .none
      }
      state.width = width
      return inputsChanged(&state)

    case let .heightSelected(height):
      guard Self.dimensionOptions.contains(height) else {
        state.validationMessage = "The height must be one of \(Self.optionsText) pixels, not \(height)."
        return .none
      }
      state.height = height
      return inputsChanged(&state)

    case let .sampleCountChanged(count):
      guard Self.sampleCountRange.contains(count) else {
        state.validationMessage =
          "Generate \(Self.sampleCountRange.lowerBound) to \(Self.sampleCountRange.upperBound) images, not \(count)."
        return .none
      }
      state.sampleCount = count
      return inputsChanged(&state)

    case .generateTapped:
      guard !state.prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        state.validationMessage = "Write a prompt first: it can't be empty."
        return .none
      }
      state.validationMessage = nil
      state.status = .generating
      let (request, client) = (state.request, imageGeneration)
      return .run { send in
        let images = try await client.generate(request)
        send(.generationResponse(.success(images)))
      } catch: { error, send in
        send(.generationResponse(.failure(ImageGenerationError(error))))
      }
      .cancellable(id: CancelID.generation, cancelInFlight: true)

    case let .generationResponse(result):
      guard state.status == .generating else { return .none }
      switch result {
      case let .success(images):
        state.status = .generated(images)
      case let .failure(error):
        state.status = .failed(error.description)
      }
      return .none

    case .cancelTapped, .leave:
      guard state.status == .generating else { return .none }
      state.status = .idle
      return .cancel(id: CancelID.generation)

    case .saveTapped:
      let images = state.images
      guard !images.isEmpty else {
        state.validationMessage = "Nothing to save yet: generate images first."
        return .none
      }
      guard !state.isSaving else { return .none }
      state.validationMessage = nil
      state.saveErrorMessage = nil
      state.isSaving = true
      let files = images.map { image in
        (
          data: image.data,
          url: state.saveFolder.appendingPathComponent(
            "\(uuid().uuidString.lowercased()).\(image.format.fileExtension)")
        )
      }
      let storage = storage
      return .run { send in
        var saved: [URL] = []
        for file in files {
          do {
            try await storage.save(file.data, file.url)
          } catch {
            let failure = error as? ImageSaveError ?? .writeFailed(path: file.url.path, reason: "\(error)")
            send(.saveFinished(SaveOutcome(saved: saved, failure: failure)))
            return
          }
          saved.append(file.url)
        }
        send(.saveFinished(SaveOutcome(saved: saved)))
      }
      .cancellable(id: CancelID.save)

    case let .saveFinished(outcome):
      state.isSaving = false
      state.savedFiles += outcome.saved
      state.saveErrorMessage = outcome.failure?.description
      return .none

    case .shareTapped:
      let images = state.images
      guard !images.isEmpty else {
        state.validationMessage = "Nothing to share yet: generate images first."
        return .none
      }
      state.validationMessage = nil
      return .send(.delegate(.share(images)))

    case .delegate:
      return .none
    }
  }

  /// After an edit of the inputs: clears the last refusal and cancels a request in flight.
  private func inputsChanged(_ state: inout State) -> Effect<Action> {
    state.validationMessage = nil
    guard state.status == .generating else { return .none }
    state.status = .idle
    return .cancel(id: CancelID.generation)
  }

  private static var optionsText: String {
    let options = dimensionOptions.map(String.init)
    return options.dropLast().joined(separator: ", ") + " or " + (options.last ?? "")
  }
}
