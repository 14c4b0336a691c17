import Foundation

/// The memory a root store changes, laid out in one allocation: its flags, its mutex, the slot of its current
/// dependencies, its bookkeeping and its state, each at its own aligned offset.
///
/// One allocation instead of one per part: a server holding a store per session pays a few hundred bytes per idle
/// store, not a kilobyte. The parts are reached through typed pointers (no exclusivity checks); the flags come
/// first, so their pointer is the block's.
///
/// ```swift
/// let storage = RootStorage<State, Bookkeeping>()
/// storage.state.initialize(to: initialState)
/// // … in deinit: deinitialize the parts, then UnsafeMutableRawPointer(storage.flags).deallocate()
/// ```
struct RootStorage<State, Bookkeeping> {
  let flags: UnsafeMutablePointer<StoreFlags>
  let mutex: UnsafeMutablePointer<pthread_mutex_t>
  let dependencies: UnsafeMutablePointer<Unmanaged<ReducerDependencies>>
  let bookkeeping: UnsafeMutablePointer<Bookkeeping>
  let state: UnsafeMutablePointer<State>

  /// Allocates the block, parts uninitialized.
  init() {
    var size = 0
    var alignment = 1
    func place<T>(_: T.Type) -> Int {
      let offset = (size + MemoryLayout<T>.alignment - 1) / MemoryLayout<T>.alignment * MemoryLayout<T>.alignment
      size = offset + MemoryLayout<T>.size
      alignment = max(alignment, MemoryLayout<T>.alignment)
      return offset
    }
    let flagsOffset = place(StoreFlags.self)
    let mutexOffset = place(pthread_mutex_t.self)
    let dependenciesOffset = place(Unmanaged<ReducerDependencies>.self)
    let bookkeepingOffset = place(Bookkeeping.self)
    let stateOffset = place(State.self)
    precondition(
      flagsOffset == 0 && mutexOffset == RootStorageLayout.mutexOffset
        && dependenciesOffset == RootStorageLayout.dependenciesOffset
        && bookkeepingOffset == RootStorageLayout.bookkeepingOffset,
      "the store's bookkeeping is aligned to more than a word")
    let block = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: alignment)
    flags = (block + flagsOffset).bindMemory(to: StoreFlags.self, capacity: 1)
    mutex = (block + mutexOffset).bindMemory(to: pthread_mutex_t.self, capacity: 1)
    dependencies = (block + dependenciesOffset).bindMemory(to: Unmanaged<ReducerDependencies>.self, capacity: 1)
    bookkeeping = (block + bookkeepingOffset).bindMemory(to: Bookkeeping.self, capacity: 1)
    state = (block + stateOffset).bindMemory(to: State.self, capacity: 1)
  }
}

/// Where the parts of fixed layout sit in a ``RootStorage``, from the start of its block (its flags): computed once,
/// outside any generic context, so a root core keeps only the block's and the state's pointers.
enum RootStorageLayout {
  static let mutexOffset = aligned(MemoryLayout<StoreFlags>.size, to: MemoryLayout<pthread_mutex_t>.alignment)
  static let dependenciesOffset = aligned(
    mutexOffset + MemoryLayout<pthread_mutex_t>.size, to: MemoryLayout<Unmanaged<ReducerDependencies>>.alignment)
  /// The bookkeeping's offset, for bookkeeping aligned to a word at most (its fields are references and integers).
  static let bookkeepingOffset = aligned(
    dependenciesOffset + MemoryLayout<Unmanaged<ReducerDependencies>>.size, to: MemoryLayout<Int>.alignment)

  @inline(__always)
  static func mutex(in flags: UnsafeMutablePointer<StoreFlags>) -> UnsafeMutablePointer<pthread_mutex_t> {
    (UnsafeMutableRawPointer(flags) + mutexOffset).assumingMemoryBound(to: pthread_mutex_t.self)
  }

  @inline(__always)
  static func dependencies(
    in flags: UnsafeMutablePointer<StoreFlags>
  ) -> UnsafeMutablePointer<Unmanaged<ReducerDependencies>> {
    (UnsafeMutableRawPointer(flags) + dependenciesOffset).assumingMemoryBound(to: Unmanaged<ReducerDependencies>.self)
  }

  @inline(__always)
  static func bookkeeping<Bookkeeping>(in flags: UnsafeMutablePointer<StoreFlags>) -> UnsafeMutablePointer<Bookkeeping>
  {
    (UnsafeMutableRawPointer(flags) + bookkeepingOffset).assumingMemoryBound(to: Bookkeeping.self)
  }

  static func aligned(_ offset: Int, to alignment: Int) -> Int {
    (offset + alignment - 1) / alignment * alignment
  }
}

/// A mutex that lives in memory someone else owns (a ``RootStorage``): lock and unlock through a pointer.
struct StoreMutex: @unchecked Sendable {
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Initializes the mutex at `mutex`.
  init(initializing mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    self.mutex = mutex
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  /// The mutex already initialized at `mutex`.
  @inline(__always) init(existing mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    self.mutex = mutex
  }

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

  @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Destroys the mutex; its memory is its owner's to free.
  func destroy() { pthread_mutex_destroy(mutex) }
}
