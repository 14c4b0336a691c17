import Foundation
import Synchronization
import Unidirectional

/// The typed half of a recording: buffers what a store reduces and writes it on a dedicated thread.
///
/// Send path: the store's instrument calls ``append(_:origin:state:)`` with the store's lock held, so appends never overlap and
/// arrive in processing order. An append copies the action (and the state, for fingerprints) into the current
/// chunk with the clock's reading: no allocation, no lock of its own, no syscall. Only when a chunk fills
/// (every ``chunkCapacity`` actions) does it take the recording's mutex to hand the chunk over, and when an append
/// starts a fresh one while the writer sleeps, to wake it.
///
/// Writer thread: encodes chunks to canonical JSON lines and writes them with `write(2)`. Once woken it polls:
/// every `flushInterval` it collects the partial chunk under the store's lock (``StoreLock``), until an interval
/// passes in which nothing was collected or handed over; then it sleeps until a send wakes it. So a busy store's
/// sends never wake it (waking it cost the sender a syscall and put the writer on the other core, about 10 ns a
/// send in bursts of 1,000), and an idle store's writer does not wake up. Callers of `flush`/`close` collect the
/// partial chunk the same way, so the last actions are never left behind.
///
/// Bound: at most `maximumPending` actions (64 Ki by default) wait for the writer; beyond that an append waits
/// for it (back-pressure) rather than dropping actions or growing without limit.
final class RecordingSession<State: Encodable, Action: Encodable & Sendable>: AnyRecordingSession, @unchecked Sendable {
  /// The lock of the store whose instrument appends: it guards the producer. Set before ``start()``.
  var storeLock: StoreLock?

  private let producer: UnsafeMutablePointer<Producer>
  private let time: RecordingTimeSource
  /// What the store's reducer and effects read from the non-deterministic built-in dependencies.
  private let tape: DependencyReadTape
  private let copy: Copy
  /// Whether each buffered action keeps the state after it (for fingerprints and written states).
  private let withStates: Bool
  /// The values of the shared references in the kept states, as of each step (a kept state holds them by
  /// reference); nil without kept states.
  let sharedValues: SharedValueHistory?
  let fingerprints: Bool
  let writesStates: Bool
  let file: ActionLogFile
  private let flushInterval: Duration
  private let issueReporter: IssueReporter
  private let maximumPending: Int

  // Guarded by `signal`.
  private let signal = RecordingSignal()
  private var current: Chunk
  private var queue: [Chunk] = []
  private var spare: [Chunk] = []
  private var pendingCount = 0
  /// The writer polls: the producer may hold actions it has not collected.
  private var armed = false
  /// `armed`, for the send path to read without the mutex: set with `signal` held, cleared with `signal` and the
  /// store's lock held (or once the store is gone), so a send that sees it set is collected by the writer's next
  /// poll.
  private let polling = Atomic<Bool>(false)
  /// A chunk was handed to the writer since its last poll.
  private var queuedSincePoll = false
  /// The writer is collecting the partial chunk and may be waiting for the store's lock.
  private var collecting = false
  private var producerGone = false
  private var closeRequested = false
  private var finished = false
  private var written: UInt64 = 0
  private var failure: ActionLogError?
  /// How often an append waited for the writer (for tests).
  private var backPressureWaits = 0
  /// While set, the writer writes nothing (for tests: a sender then certainly meets back-pressure).
  private var writerHeld = false
  private var flushWaiters: [(target: UInt64?, continuation: CheckedContinuation<Void, Never>)] = []

  init(
    file: ActionLogFile, clock: any Clock<Duration>, fingerprints: Bool, states: Bool, flushInterval: Duration,
    issueReporter: IssueReporter, maximumPending: Int, tape: DependencyReadTape, copy: @escaping Copy
  ) {
    self.copy = copy
    self.tape = tape
    self.file = file
    self.maximumPending = maximumPending
    self.issueReporter = issueReporter
    self.time = RecordingTimeSource(clock: clock)
    self.withStates = fingerprints || states
    self.sharedValues = fingerprints || states ? SharedValueHistory() : nil
    self.fingerprints = fingerprints
    self.writesStates = states
    self.flushInterval = flushInterval
    let chunk = Chunk(capacity: Self.chunkCapacity, withStates: withStates)
    current = chunk
    producer = .allocate(capacity: 1)
    producer.initialize(
      to: Producer(
        actions: UnsafeMutableRawPointer(chunk.actions), states: chunk.rawStates,
        times: chunk.times, origins: chunk.origins, reads: chunk.reads))
    tape.arm()
  }

  deinit {
    producer.deinitialize(count: 1)
    producer.deallocate()
  }

  /// Starts the writer thread.
  func start() {
    // Through a non-generic existential: a closure capturing a generic `self` would capture its metatypes.
    let writer: any AnyRecordingSession = self
    let thread = Thread { writer.runWriter() }
    thread.name = "Unidirectional.ActionRecorder"
    thread.start()
  }

  // MARK: Send path

  /// Records one reduced action. Called by the store with its lock held.
  @inline(__always)
  func append(_ action: Action, origin: ActionOrigin, state: ReducedState<State>) {
    let producer = self.producer
    if producer.pointee.count >= producer.pointee.limit {
      guard prepareChunk() else { return }
    }
    let index = producer.pointee.count
    copy(producer.pointee.actions, producer.pointee.states, index, action, state)
    producer.pointee.times[index] = time.now()
    producer.pointee.origins[index] = origin
    producer.pointee.count = index + 1
    sharedValues?.stepDidEnd()
    if tape.hasReads { keepReads(at: index) }
  }

  /// Keeps what was read since the last append with the action at `index` of the current chunk.
  @inline(never)
  private func keepReads(at index: Int) {
    let (reducer, effects) = tape.take()
    producer.pointee.reads.byIndex[index] = StepReads(reducer: reducer, effects: effects)
  }

  /// Hands a full chunk to the writer, or arms the writer for a fresh one if it is not polling. Returns `false` once
  /// closed.
  @inline(never)
  private func prepareChunk() -> Bool {
    if producer.pointee.count == 0, !producer.pointee.isClosed, polling.load(ordering: .relaxed) {
      // A fresh chunk while the writer polls: its next poll collects it.
      producer.pointee.limit = Self.chunkCapacity
      return true
    }
    if producer.pointee.isClosed {
      producer.pointee.dropped += 1
      if producer.pointee.dropped == 1 {
        issueReporter.report(
          RuntimeIssue(
            message: """
              The store reduced an action after its ActionRecorder was closed: it is not in the log \
              \(file.path). Close the recorder after you are done with the store.
              """,
            fileID: "Unidirectional/ActionRecorder", line: 0))
      }
      return false
    }
    signal.lock()
    if producer.pointee.count > 0 {
      queueCurrentChunk()
      while pendingCount >= maximumPending, !collecting, !finished {
        backPressureWaits += 1
        signal.broadcast()
        signal.wait()
      }
    }
    armed = true
    polling.store(true, ordering: .relaxed)
    signal.broadcast()
    signal.unlock()
    producer.pointee.limit = current.capacity
    return true
  }

  /// Moves the producer's chunk to the writer's queue and gives the producer an empty one. Call with the
  /// signal's mutex held and the producer excluded (store lock held, or the store gone).
  private func queueCurrentChunk() {
    let count = producer.pointee.count
    guard count > 0 else { return }
    current.count = count
    current.firstSequence = producer.pointee.nextSequence
    queue.append(current)
    queuedSincePoll = true
    pendingCount += count
    let chunk = spare.popLast() ?? Chunk(capacity: Self.chunkCapacity, withStates: withStates)
    current = chunk
    producer.pointee.nextSequence += UInt64(count)
    producer.pointee.count = 0
    producer.pointee.limit = 0
    producer.pointee.actions = UnsafeMutableRawPointer(chunk.actions)
    producer.pointee.states = chunk.rawStates
    producer.pointee.times = chunk.times
    producer.pointee.origins = chunk.origins
    producer.pointee.reads = chunk.reads
  }

  /// Queues the partial chunk; returns the last sequence number queued. Call with the producer excluded. The
  /// writer's `poll` that finds nothing, after an interval in which nothing was handed over, stops its polling.
  private func collectPartialChunk(closing: Bool, poll: Bool = false) -> UInt64 {
    signal.lock()
    defer { signal.unlock() }
    let found = producer.pointee.count > 0
    if poll {
      if !found, !queuedSincePoll {
        armed = false
        polling.store(false, ordering: .relaxed)
      }
      queuedSincePoll = false
    }
    queueCurrentChunk()
    if closing {
      producer.pointee.isClosed = true
      producer.pointee.limit = 0
      // Nothing more to collect.
      armed = false
      polling.store(false, ordering: .relaxed)
    }
    signal.broadcast()
    return producer.pointee.nextSequence - 1
  }

  /// Called when the store releases its instrument: no append can happen any more.
  func producerDidFinish() {
    signal.lock()
    queueCurrentChunk()
    armed = false
    polling.store(false, ordering: .relaxed)
    producerGone = true
    signal.broadcast()
    signal.unlock()
  }

  // MARK: Flush and close

  var writtenCount: Int {
    signal.lock()
    defer { signal.unlock() }
    return Int(written)
  }

  var backPressureWaitCount: Int {
    signal.lock()
    defer { signal.unlock() }
    return backPressureWaits
  }

  func setWriterHeld(_ held: Bool) {
    signal.lock()
    writerHeld = held
    signal.broadcast()
    signal.unlock()
  }

  func waitForWriter(timeout: Duration, until condition: (RecordingProgress) -> Bool) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    signal.lock()
    defer { signal.unlock() }
    while !condition(RecordingProgress(written: written, polls: armed, backPressureWaits: backPressureWaits)) {
      let now = ContinuousClock.now
      if now >= deadline { return false }
      signal.wait(timeout: now.duration(to: deadline))
    }
    return true
  }

  func flush() async throws(ActionLogError) {
    let target = collectFromCaller(closing: false)
    await waitUntilWritten(target)
    if let error = currentFailure() { throw error }
  }

  func close() async throws(ActionLogError) {
    _ = collectFromCaller(closing: true)
    signal.lock()
    closeRequested = true
    signal.broadcast()
    signal.unlock()
    await waitUntilWritten(nil)
    if let error = currentFailure() { throw error }
  }

  /// Collects the partial chunk under the store's lock; returns the last sequence queued, or `nil` when the
  /// store is going away (its last actions are queued when it is gone).
  private func collectFromCaller(closing: Bool) -> UInt64? {
    storeLock?.withLock { collectPartialChunk(closing: closing) }
  }

  /// Waits until every action up to `target` is written; `nil`: until the writer has finished.
  private func waitUntilWritten(_ target: UInt64?) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      signal.lock()
      if finished || (target.map { written >= $0 } ?? false) {
        signal.unlock()
        continuation.resume()
        return
      }
      flushWaiters.append((target, continuation))
      signal.broadcast()
      signal.unlock()
    }
  }

  private func currentFailure() -> ActionLogError? {
    signal.lock()
    defer { signal.unlock() }
    return failure
  }

  // MARK: Writer thread

  func runWriter() {
    signal.lock()
    while true {
      if writerHeld {
        signal.wait()
        continue
      }
      if !queue.isEmpty {
        let batch = queue
        queue.removeAll(keepingCapacity: true)
        let failed = failure != nil
        signal.unlock()
        let error = failed ? nil : write(batch)
        signal.lock()
        if let error, failure == nil { failure = error }
        for chunk in batch {
          pendingCount -= chunk.count
          written = chunk.firstSequence + UInt64(chunk.count) - 1
          chunk.clear()
          if spare.count < 8 { spare.append(chunk) }
        }
        sharedValues?.forget(throughStep: written)
        resumeFlushWaiters()
        signal.broadcast()
        continue
      }
      if armed, producerGone {
        queueCurrentChunk()
        armed = false
        continue
      }
      var timeout: Duration?
      if armed {
        let now = ContinuousClock.now
        let deadline = collectDeadline ?? now.advanced(by: flushInterval)
        if closeRequested || !flushWaiters.isEmpty || now >= deadline {
          collectDeadline = nil
          collectFromWriter()
          continue
        }
        collectDeadline = deadline
        timeout = now.duration(to: deadline)
      } else {
        collectDeadline = nil
      }
      if closeRequested || producerGone {
        finish()
        signal.unlock()
        return
      }
      if let timeout {
        signal.wait(timeout: timeout)
      } else {
        signal.wait()
      }
    }
  }

  /// When the writer collects the partial chunk if no chunk fills first: `flushInterval` after it saw the
  /// producer start one.
  private var collectDeadline: ContinuousClock.Instant?

  /// Collects the partial chunk from the writer thread. Called with the signal's mutex held; releases it while
  /// waiting for the store's lock (lock order: store, then signal — the same as the send path).
  private func collectFromWriter() {
    collecting = true
    signal.unlock()
    let collected = storeLock?.withLock { _ = collectPartialChunk(closing: false, poll: true) } != nil
    signal.lock()
    collecting = false
    // The store is being released: its instrument goes next, and `producerDidFinish` queues the last actions.
    if !collected, !producerGone { signal.wait() }
  }

  /// Resumes the flushes whose actions are all written.
  private func resumeFlushWaiters() {
    let isWritten = { [written] (target: UInt64?) in target.map { written >= $0 } ?? false }
    let done = flushWaiters.filter { isWritten($0.target) }
    flushWaiters.removeAll { isWritten($0.target) }
    for waiter in done { waiter.continuation.resume() }
  }

  /// Closes the file and releases every waiter. Called with the signal's mutex held.
  private func finish() {
    sharedValues?.end()
    if let error = file.close(), failure == nil { failure = error }
    finished = true
    for waiter in flushWaiters { waiter.continuation.resume() }
    flushWaiters = []
    signal.broadcast()
  }
}
