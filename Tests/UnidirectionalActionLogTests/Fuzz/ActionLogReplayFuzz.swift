import Foundation
import Unidirectional

@testable import UnidirectionalActionLog

/// The body of `Scripts/fuzz action-log-replay`, run by the corpus test over every committed input too: the input
/// is an action log's bytes, replayed through ``FuzzedLogFeature`` as `demo replay` replays a log from anyone.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`: libFuzzer reports it as a crash,
/// the corpus test dies with its message):
/// - opening and replaying end in steps or an ``ActionLogError`` naming a line of the file;
/// - steps are numbered 1, 2, … from the lines after the header, and each step's state is the replay's state;
/// - a replay reopened at a saved ``ActionLogReplay/Position`` replays the same steps and stops with the same error
///   as the one that went on;
/// - a replay that skips fingerprints reaches the same states, and stops with the same error unless that error was
///   computing a fingerprint;
/// - the header read on its own is the replay's;
/// - a state ``ActionLogReplay/exportState()`` writes decodes back to the same state.
///
/// ```swift
/// ActionLogReplayFuzz.fuzz(Data(contentsOf: corpusFile))
/// ```
enum ActionLogReplayFuzz {
  /// The most steps replayed per input (an input of a few KB has at most a few hundred).
  static let stepLimit = 2_000

  /// Where a replay got: the state after each step, and the error it stopped with.
  private struct Run: Equatable {
    var states: [FuzzedLogFeature.State] = []
    var error: ActionLogError?
  }

  static func fuzz(_ data: Data) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("action-log-fuzz-\(UUID().uuidString)")
    guard (try? data.write(to: url)) != nil else { fuzzFailure("cannot write \(url.path)") }
    defer { try? FileManager.default.removeItem(at: url) }
    let lines = data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } + (data.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)

    let replay: ActionLogReplay<FuzzedLogFeature>
    do {
      replay = try ActionLogReplay(contentsOf: url, reducer: FuzzedLogFeature())
    } catch {
      check(error, lines: lines)
      return
    }
    do {
      let header = try ActionLogHeader.read(from: url)
      fuzzRequire(header == replay.header, "the header read alone differs from the replay's")
    } catch {
      fuzzFailure("the replay read the header but ActionLogHeader.read threw \(error)")
    }

    // Saved after the first step: where the resumed replay starts.
    var saved: ActionLogReplay<FuzzedLogFeature>.Position?
    let run = replayed(replay, lines: lines) { if $0 == 1 { saved = replay.position } }
    if let saved {
      do {
        let resumed = try ActionLogReplay(contentsOf: url, reducer: FuzzedLogFeature(), resumingAt: saved)
        var expected = run
        expected.states.removeFirst()
        fuzzRequire(replayed(resumed, lines: lines) == expected, "a resumed replay differs from the one that went on")
      } catch {
        fuzzFailure("reopening at a saved position threw \(error)")
      }
    }

    do {
      let unverified = try ActionLogReplay(contentsOf: url, reducer: FuzzedLogFeature(), verifyFingerprints: false)
      let other = replayed(unverified, lines: lines)
      if case .encodingFailed = run.error {
        fuzzRequire(other.states.starts(with: run.states), "skipping fingerprints changed the states")
      } else {
        fuzzRequire(other == run, "skipping fingerprints changed the replay")
      }
    } catch {
      fuzzFailure("the replay opened with fingerprints but not without: \(error)")
    }

    do {
      let exported = try replay.exportState()
      let decoded = try? JSONDecoder().decode(FuzzedLogFeature.State.self, from: exported)
      fuzzRequire(decoded == replay.state, "an exported state does not decode back to itself")
    } catch {
      guard case .encodingFailed = error else { fuzzFailure("exportState threw \(error)") }
    }
  }

  /// Replays to the end (or ``stepLimit``), checking each step; `afterStep` is called with each step's number.
  private static func replayed(
    _ replay: ActionLogReplay<FuzzedLogFeature>, lines: Int, afterStep: (Int) -> Void = { _ in }
  ) -> Run {
    var run = Run()
    var lastLine = replay.position.line
    do {
      while run.states.count < stepLimit, let step = try replay.next() {
        fuzzRequire(step.number == replay.stepCount, "step \(step.number) after \(replay.stepCount) steps")
        fuzzRequire(step.line > lastLine && step.line <= lines, "step \(step.number) on line \(step.line)")
        fuzzRequire(step.state == replay.state, "step \(step.number)'s state is not the replay's")
        lastLine = step.line
        run.states.append(step.state)
        afterStep(step.number)
      }
    } catch {
      check(error, lines: lines)
      run.error = error
    }
    return run
  }

  private static func check(_ error: ActionLogError, lines: Int) {
    if let line = error.line {
      fuzzRequire((1...max(1, lines)).contains(line), "\(error) names line \(line) of a file of \(lines) lines")
    }
    fuzzRequire(!error.description.isEmpty, "an error without a description")
  }
}
