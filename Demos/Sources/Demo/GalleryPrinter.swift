import Features
import Unidirectional

/// Prints what changed in the gallery's navigation between two states: the list, each pushed or popped screen,
/// each presented or dismissed dialog and sheet, and what those screens show.
struct GalleryPrinter {
  let console: Console
  private var previous: GalleryFeature.State?

  init(console: Console) {
    self.console = console
  }

  mutating func show(_ state: GalleryFeature.State) {
    defer { previous = state }
    guard let previous else {
      console.line("list: \(listText(state))")
      return
    }
    if previous.destination != state.destination { showDestination(from: previous.destination, to: state.destination) }
    let before = Dictionary(uniqueKeysWithValues: zip(previous.path.ids, previous.path))
    for (id, screen) in zip(previous.path.ids, previous.path) where state.path[id: id] == nil {
      console.line("pop \(id): detail of \(screen.item.name)")
    }
    for (id, screen) in zip(state.path.ids, state.path) {
      guard case let .detail(detail) = screen else { continue }
      if before[id] == nil { console.line("push \(id): detail of \(screen.item.name)") }
      if case let .detail(old)? = before[id], old.info == detail.info { continue }
      if detail.info != .loading { console.line("detail \(id): \(detail.info.text)") }
    }
    if previous.items != state.items { console.line("list: \(listText(state))") }
  }

  private func showDestination(from old: GalleryFeature.Destination.State?, to new: GalleryFeature.Destination.State?) {
    switch (old, new) {
    case let (.upload(before)?, .upload(after)?):
      if before.statusText != after.statusText, !after.statusText.isEmpty { console.line("sheet: \(after.statusText)") }
    case let (old?, new):
      console.line("\(kind(of: old)) dismissed")
      if let new { showPresented(new) }
    case let (nil, new?):
      showPresented(new)
    case (nil, nil):
      break
    }
  }

  private func showPresented(_ destination: GalleryFeature.Destination.State) {
    switch destination {
    case let .confirmDelete(dialog):
      console.line("dialog: \(dialog.title) [\(dialog.buttons.map(\.label).joined(separator: " | "))]")
    case let .upload(upload):
      console.line("sheet: upload (up to \(upload.maxCount) images)")
    }
  }

  private func kind(of destination: GalleryFeature.Destination.State) -> String {
    switch destination {
    case .confirmDelete: "dialog"
    case .upload: "sheet"
    }
  }

  private func listText(_ state: GalleryFeature.State) -> String {
    state.items.isEmpty
      ? "empty"
      : state.items.map { "\($0.name) (\($0.id.rawValue.prefix(16))…)" }.joined(separator: ", ")
  }
}
