/// The shared values of one shared-value space, by key: every `@Shared(key)` with the same key type and id gets the
/// same value while any of them is alive.
final class PersistentReferences: @unchecked Sendable {
  private struct Identity: Hashable, @unchecked Sendable {
    let keyType: ObjectIdentifier
    let id: AnyHashable
  }

  private struct Entry {
    weak var reference: AnyObject?
  }

  private let lock = Lock()
  /// Guarded by `lock`.
  private var entries: [Identity: Entry] = [:]

  /// The live value for `key`, or a new one made from `initialValue` (evaluated only then).
  func reference<Key: SharedReaderKey>(
    for key: Key,
    save: PersistentReference<Key>.Save?,
    default initialValue: () throws -> Key.Value,
    loadsInitialValue: Bool
  ) rethrows -> PersistentReference<Key> {
    let identity = Identity(keyType: ObjectIdentifier(Key.self), id: AnyHashable(key.id))
    let reference =
      try existing(identity, as: Key.self)
      ?? insert(
        PersistentReference(
          key: key, initialValue: try initialValue(), save: save, loadsInitialValue: loadsInitialValue),
        as: identity)
    if let save { reference.enableSaving(save) }
    if let tracker = SharedChangeTracker.inCurrentContext { reference.watch(with: tracker) }
    return reference
  }

  private func existing<Key>(_ identity: Identity, as _: Key.Type) -> PersistentReference<Key>? {
    lock.withLock { entries[identity]?.reference as? PersistentReference<Key> }
  }

  /// Stores `created` unless another thread stored one first (then that one is the value).
  private func insert<Key>(_ created: PersistentReference<Key>, as identity: Identity) -> PersistentReference<Key> {
    lock.withLock {
      if let stored = entries[identity]?.reference as? PersistentReference<Key> { return stored }
      entries[identity] = Entry(reference: created)
      created.onDeinit = { [weak self] in self?.removeIfReleased(identity) }
      return created
    }
  }

  private func removeIfReleased(_ identity: Identity) {
    lock.withLock {
      if entries[identity]?.reference == nil { entries.removeValue(forKey: identity) }
    }
  }
}
