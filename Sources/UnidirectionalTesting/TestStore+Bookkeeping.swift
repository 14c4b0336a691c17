import Unidirectional

extension TestStore {
  /// What the store under test holds for its running effects: all zero once every effect has finished.
  package var bookkeeping: StoreBookkeeping { store.bookkeeping }
}
