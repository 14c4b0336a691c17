import Foundation

extension TestRuntime {
  /// What an explored runtime keeps besides its jobs — the racing calls waiting for the explorer, words for its
  /// tasks and the test's step, the problems a test store reports — guarded by the runtime's lock.
  struct Exploration {
    /// A racing call waiting for the chooser to complete it.
    struct Waiting {
      let call: UInt64
      let site: RacingSite
      /// The task that made the call, in words.
      let caller: ScheduleLabel?
      /// Resumes the caller: `true` when the chooser completed the call, `false` when it was cancelled.
      let resume: @Sendable (Bool) -> Void
    }

    /// At most this many racing calls complete between two steps of the test: past it, a double answers without end
    /// (a socket that always has a frame), and the calls wait instead, so that a `receive` fails and says so.
    static let completionLimit = 10_000

    /// Racing calls waiting, in the order they were made.
    var waiting: [Waiting] = []
    var nextCall: UInt64 = 0
    /// Calls cancelled before they were parked.
    var cancelledEarly: Set<UInt64> = []
    /// The call being completed, until its caller has its answer.
    var answering: UInt64?
    /// The task whose job runs now.
    var running: UInt?
    /// Each task's words (an effect and the action that started it), by its identity.
    var taskLabels: [UInt: ScheduleLabel] = [:]
    /// The words for the next task started on `thread` (told by a test store as the effect starts).
    var nextTaskLabel: (thread: pthread_t, label: ScheduleLabel)?
    /// The test's step now (`send(.tapped) at Feature.swift:12`), or the one just done (`after …`).
    var step: ScheduleLabel?
    /// Racing calls completed since the test's last step began, in all and by site.
    var completions = 0
    var completionsBySite: [RacingSite.Place: (site: RacingSite, count: Int)] = [:]
    /// What a test store should report: calls that did not answer when completed, calls that answered without end.
    var problems: [String] = []

    var isSpinning: Bool { completions >= Self.completionLimit }

    /// Names a job just enqueued: the task an effect just started, or a task started by the running one.
    mutating func label(enqueued task: UInt) {
      if let next = nextTaskLabel, pthread_equal(next.thread, pthread_self()) != 0 {
        taskLabels[task] = next.label
        nextTaskLabel = nil
      } else if taskLabels[task] == nil, let running, running != task, let parent = taskLabels[running] {
        taskLabels[task] = ScheduleLabel { "a task of \(parent.text)" }
      }
    }

    /// The running task has ended: its identity may be reused.
    mutating func forgetRunningTask() {
      if let running { taskLabels[running] = nil }
    }

    /// Each option of a choice point in words.
    func labels(of options: [ScheduleOption]) -> [ScheduleLabel] {
      var calls = waiting.makeIterator()
      return options.map { option in
        switch option {
        case let .job(task):
          let label = taskLabels[task]
          return ScheduleLabel { "ran \(label?.text ?? "a task the store did not start")" }
        case .completion:
          guard let call = calls.next() else { return ScheduleLabel { "answered a racing call" } }
          return ScheduleLabel { "answered \(call.site.text)\(call.caller.map { " in \($0.text)" } ?? "")" }
        case .deferCompletions:
          let sites = waiting.map(\.site)
          return ScheduleLabel { "left waiting: \(Set(sites.map(\.text)).sorted().joined(separator: ", "))" }
        }
      }
    }

    /// Takes the waiting call at `index` to complete it, counting it.
    mutating func take(at index: Int) -> Waiting {
      let call = waiting.remove(at: index)
      completions += 1
      completionsBySite[call.site.place, default: (call.site, 0)].count += 1
      if completions == Self.completionLimit {
        let sites = completionsBySite.values.sorted { $0.count > $1.count }.prefix(3)
        problems.append(
          """
          Racing calls answered \(completions) times\(step.map { " since \($0.text)" } ?? "") without end: \
          \(sites.map { "\($0.site.text) (\($0.count) times)" }.joined(separator: ", ")). A double that always has an \
          answer (a socket that always has a frame) keeps the store busy forever; the calls wait from now on. \
          Give the double an end (finish its RacingStream), or cancel the effect that calls it.
          """)
      }
      return call
    }

    /// A completed call whose caller did not get its answer before nothing it made ready was left.
    mutating func reportUnanswered(_ call: Waiting) {
      problems.append(
        """
        The racing call \(call.site.text)\(call.caller.map { " (in \($0.text))" } ?? "") did not answer when the \
        explorer completed it: its operation waits for something the explorer does not order (a stream the test \
        feeds, a TestClock, the main actor, real I/O), so its answer lands where that wait ends, the same in every \
        schedule, and the schedules explored say nothing about when it arrives. Decide the answer inside withRacing \
        without waiting, or deliver a service's events with a RacingStream.
        """)
    }
  }

  // MARK: The test's steps

  /// A test store's operation begins (explored runtimes only): choice points from now on say they came up in it,
  /// and racing calls may complete another ``Exploration/completionLimit`` times.
  package func beginStep(_ label: ScheduleLabel?) {
    lock.withLock {
      exploration.step = label
      exploration.completions = 0
      exploration.completionsBySite = [:]
    }
  }

  /// The test store's operation has returned: choice points until the next say they came after it. Returns what
  /// went wrong with racing calls since the last ``takeProblems()``, for the store to report.
  package func endStep() -> [String] {
    lock.withLock {
      if let step = exploration.step { exploration.step = ScheduleLabel { "after \(step.text)" } }
      defer { exploration.problems = [] }
      return exploration.problems
    }
  }

  /// Whether racing calls answered ``Exploration/completionLimit`` times since the test's step began, and now wait.
  package var isSpinning: Bool { lock.withLock { exploration.isSpinning } }

  /// What went wrong with racing calls since the last call, for a test store to report.
  package func takeProblems() -> [String] {
    lock.withLock {
      defer { exploration.problems = [] }
      return exploration.problems
    }
  }

  /// Names the next task started from this thread: a test store's instrument, told that an effect starts.
  package func labelNextTask(_ label: ScheduleLabel) {
    lock.withLock { exploration.nextTaskLabel = (pthread_self(), label) }
  }

  /// The words for the task running now (an effect and the action that started it), if known.
  package var runningTaskLabel: ScheduleLabel? {
    guard describesChoices else { return nil }
    return lock.withLock { exploration.running.flatMap { exploration.taskLabels[$0] } }
  }

  // MARK: Racing calls

  /// A new racing call's number: the order calls were made in.
  package func makeRacingCall() -> UInt64 {
    lock.withLock {
      defer { exploration.nextCall += 1 }
      return exploration.nextCall
    }
  }

  /// Parks racing call `call` until the chooser completes it (`resume(true)`) or it is cancelled
  /// (`resume(false)`, at once if it already was).
  package func park(
    _ call: UInt64, at site: RacingSite, caller: ScheduleLabel?, resume: @escaping @Sendable (Bool) -> Void
  ) {
    let cancelled = lock.withLock {
      if exploration.cancelledEarly.remove(call) != nil { return true }
      exploration.waiting.append(Exploration.Waiting(call: call, site: site, caller: caller, resume: resume))
      return false
    }
    if cancelled { resume(false) }
  }

  /// Cancels racing call `call`: a parked call is resumed with `false` at once (its caller's task was cancelled);
  /// one not parked yet will be, as it parks.
  package func cancelRacingCall(_ call: UInt64) {
    let parked: Exploration.Waiting? = lock.withLock {
      guard let index = exploration.waiting.firstIndex(where: { $0.call == call }) else {
        exploration.cancelledEarly.insert(call)
        return nil
      }
      return exploration.waiting.remove(at: index)
    }
    parked?.resume(false)
  }

  /// The caller of racing call `call` has its answer: the chooser's completion of it is over.
  package func racingCallAnswered(_ call: UInt64) {
    lock.withLock {
      exploration.cancelledEarly.remove(call)
      if exploration.answering == call { exploration.answering = nil }
    }
  }

  /// Waits until the chooser completes racing call `call` (true) or the current task is cancelled (false, unless
  /// `ignoringCancellation`), counted as waiting on the test.
  package func waitForTurn(of call: UInt64, at site: RacingSite, ignoringCancellation: Bool = false) async -> Bool {
    let caller = runningTaskLabel
    return await TestRuntime.waitingOnTheTest {
      if ignoringCancellation {
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
          park(call, at: site, caller: caller) { continuation.resume(returning: $0) }
        }
      }
      return await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
          park(call, at: site, caller: caller) { continuation.resume(returning: $0) }
        }
      } onCancel: {
        cancelRacingCall(call)
      }
    }
  }
}

/// Where a racing call was made: a `withRacing` call's file and line, or a `RacingStream`'s and the element's
/// number. Described only when printed (`withRacing at Search.swift:38`, `element 2 of the RacingStream at
/// SocketTests.swift:20`): an explored run makes one per call.
///
/// ```swift
/// RacingSite(fileID: #fileID, line: #line).text   // "withRacing at SearchTests.swift:38"
/// ```
package struct RacingSite: Sendable {
  /// Where: the same for every call made there (the file's static text and the line).
  package struct Place: Hashable, Sendable {
    let file: UInt
    let line: UInt
  }

  private let fileID: StaticString
  private let line: UInt
  /// The element's number, for a `RacingStream`'s delivery.
  private let element: Int?

  /// A `withRacing` call made at `fileID`:`line`.
  package init(fileID: StaticString, line: UInt) {
    (self.fileID, self.line, element) = (fileID, line, nil)
  }

  /// The delivery of element `element` (from 1) of the `RacingStream` made at `fileID`:`line`.
  package init(element: Int, ofStreamAt fileID: StaticString, line: UInt) {
    (self.fileID, self.line, self.element) = (fileID, line, element)
  }

  package var place: Place {
    let file = fileID.hasPointerRepresentation ? UInt(bitPattern: fileID.utf8Start) : UInt(fileID.unicodeScalar.value)
    return Place(file: file, line: element == nil ? line : line | 1 << 63)
  }

  package var text: String {
    let place = ScheduleLabel.place(fileID, line)
    guard let element else { return "withRacing at \(place)" }
    return "element \(element) of the RacingStream at \(place)"
  }
}
