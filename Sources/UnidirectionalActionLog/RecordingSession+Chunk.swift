import Foundation
import Unidirectional

// The buffers behind ``RecordingSession``: what the send path writes into, and what the writer thread reads.
extension RecordingSession {
  /// Actions per chunk.
  static var chunkCapacity: Int { 1024 }
  /// Actions that may wait for the writer before appends wait, by default.
  static var defaultMaximumPending: Int { 64 * 1024 }

  /// A chunk of recorded actions, in separate arrays so the send path touches no generic struct.
  final class Chunk {
    let actions: UnsafeMutablePointer<Action>
    let states: UnsafeMutablePointer<State>?
    let times: UnsafeMutablePointer<Int64>
    let origins: UnsafeMutablePointer<ActionOrigin>
    /// What the steps read from non-deterministic dependencies, for the few that read any.
    let reads = ChunkReads()
    let capacity: Int
    /// Entries filled; set when the chunk is handed to the writer.
    var count = 0
    var firstSequence: UInt64 = 0

    var rawStates: UnsafeMutableRawPointer? {
      guard let states else { return nil }
      return UnsafeMutableRawPointer(states)
    }

    init(capacity: Int, withStates: Bool) {
      self.capacity = capacity
      actions = .allocate(capacity: capacity)
      states = withStates ? .allocate(capacity: capacity) : nil
      times = .allocate(capacity: capacity)
      origins = .allocate(capacity: capacity)
    }

    /// Releases the recorded values, keeping the storage for reuse.
    func clear() {
      actions.deinitialize(count: count)
      states?.deinitialize(count: count)
      reads.byIndex.removeAll(keepingCapacity: true)
      count = 0
    }

    deinit {
      clear()
      actions.deallocate()
      states?.deallocate()
      times.deallocate()
      origins.deallocate()
    }
  }

  /// Copies an action (and, when states are kept, the state) into slot `index` of the producer's arrays: made by
  /// ``ActionRecorder/instrument(for:)`` where the types are concrete.
  typealias Copy = (
    _ actions: UnsafeMutableRawPointer, _ states: UnsafeMutableRawPointer?, _ index: Int, _ action: Action,
    _ state: ReducedState<State>
  ) -> Void

  /// The send path's view of the current chunk. Non-generic, behind a pointer: no metadata lookups, no
  /// exclusivity checks. Touched only while the store holds its lock (or once the store is gone).
  struct Producer {
    var count = 0
    /// `count` reaching it sends an append down the slow path: 0 for a fresh chunk (to arm the writer) and
    /// after `close`, the chunk's capacity otherwise.
    var limit = 0
    var actions: UnsafeMutableRawPointer
    var states: UnsafeMutableRawPointer?
    var times: UnsafeMutablePointer<Int64>
    var origins: UnsafeMutablePointer<ActionOrigin>
    var reads: ChunkReads
    /// The sequence number of the current chunk's first action.
    var nextSequence: UInt64 = 1
    var isClosed = false
    var dropped = 0
  }
}

/// What the steps of a chunk read from non-deterministic dependencies, by index in the chunk.
final class ChunkReads {
  var byIndex: [Int: StepReads] = [:]
}

/// What one step read: its reducer, and the store's effects since the step before.
struct StepReads {
  let reducer: DependencyReads
  let effects: DependencyReads
}
