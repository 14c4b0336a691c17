import Unidirectional

// How a generated action sequence steps a test store (see `exploreActions`).
extension TestStore {
  /// Takes the actions effects fed back so far as asserted, with the state they left, and runs nothing more: the
  /// next step comes as a user's would, with the answers of racing calls (`withRacing`) still on their way unless an
  /// interleaving explorer brought them in.
  func takeReceivedActions() {
    runtime.hold()
    defer { runtime.release() }
    let pending = journal.received
    guard let last = pending.last else { return }
    journal.removeReceived(pending.count)
    state = last.state
    sharedChanges.skip(through: last.sharedStep)
  }
}
