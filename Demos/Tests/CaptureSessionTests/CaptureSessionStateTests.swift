import CaptureSession
import FeatureTestSupport
import Foundation
import XCTest

/// The transition table, pair by pair: every state against every event.
final class CaptureSessionStateTests: XCTestCase {
  /// The expected outcome per state, in the column order of `CaptureFixtures.allEvents`: a change to
  /// initializing, ready, detecting, capturing, finishing, completed, failed, then a shot.
  /// `→x` advances to x, `keep` keeps the shot, `reject` refuses, `ignore` drops it.
  private let table: [(CaptureSessionState, [String])] = [
    (.initializing, ["reject", "→ready", "reject", "reject", "reject", "reject", "→failed", "reject"]),
    (.ready, ["reject", "reject", "→detecting", "reject", "reject", "reject", "→failed", "reject"]),
    (.detecting, ["reject", "reject", "reject", "→capturing", "reject", "reject", "→failed", "reject"]),
    (.capturing, ["reject", "reject", "reject", "reject", "→finishing", "reject", "→failed", "keep"]),
    (.finishing, ["reject", "reject", "reject", "reject", "reject", "→completed", "→failed", "reject"]),
    (.completed, ["ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore"]),
    (.failed(reason: "No light"), ["ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore"]),
  ]

  func testEveryStateAndEventPair() {
    XCTAssertEqual(table.map(\.0), CaptureFixtures.allStates, "the table covers every state")
    var pairs = 0
    for (state, row) in table {
      XCTAssertEqual(row.count, CaptureFixtures.allEvents.count, "row \(state) covers every event")
      for (event, expected) in zip(CaptureFixtures.allEvents, row) {
        pairs += 1
        let outcome = state.transition(on: event)
        switch expected {
        case "reject":
          XCTAssertEqual(
            outcome, .reject(CaptureSessionTransitionError(state: state, event: event)), "\(state) + \(event)")
        case "ignore":
          XCTAssertEqual(outcome, .ignore, "\(state) + \(event)")
        case "keep":
          XCTAssertEqual(outcome, .keep(CaptureFixtures.shot(1)), "\(state) + \(event)")
        case "→failed":
          XCTAssertEqual(outcome, .advance(to: .failed(reason: "No light")), "\(state) + \(event)")
        default:
          let target = CaptureFixtures.allStates.first { "→\($0)" == expected }
          XCTAssertNotNil(target, expected)
          XCTAssertEqual(outcome, target.map { .advance(to: $0) }, "\(state) + \(event)")
        }
      }
    }
    XCTAssertEqual(pairs, 56)
  }

  func testAFailureKeepsItsReasonFromEveryLiveState() {
    for state in CaptureFixtures.allStates where state.isLive {
      XCTAssertEqual(
        state.transition(on: .stateChanged(.failed(reason: "Tracking lost"))),
        .advance(to: .failed(reason: "Tracking lost")))
    }
  }

  func testTheForwardPathIsTheOnlyWayToCompleted() {
    var state = CaptureSessionState.initializing
    var visited = [state]
    while let next = state.next {
      guard case let .advance(to: reached) = state.transition(on: .stateChanged(next)) else {
        return XCTFail("\(state) refused its next state \(next)")
      }
      state = reached
      visited.append(state)
    }
    XCTAssertEqual(visited, CaptureSessionState.forwardPath)
    XCTAssertEqual(state, .completed)
  }

  func testFinalAndLiveStates() {
    XCTAssertEqual(CaptureFixtures.allStates.filter(\.isFinal), [.completed, .failed(reason: "No light")])
    XCTAssertEqual(
      CaptureFixtures.allStates.filter(\.isLive), [.initializing, .ready, .detecting, .capturing, .finishing])
  }

  func testRefusalsExplainThemselves() {
    XCTAssertEqual(
      CaptureSessionTransitionError(state: .ready, event: .stateChanged(.capturing)).description,
      "The session is ready and cannot skip ahead to capturing; the next step is detecting.")
    XCTAssertEqual(
      CaptureSessionTransitionError(state: .capturing, event: .stateChanged(.ready)).description,
      "The session is capturing and cannot go back to ready; the next step is finishing.")
    XCTAssertEqual(
      CaptureSessionTransitionError(state: .detecting, event: .stateChanged(.detecting)).description,
      "The session is already detecting; the next step is capturing.")
    XCTAssertEqual(
      CaptureSessionTransitionError(state: .finishing, event: .shotCaptured(CaptureFixtures.shot(4))).description,
      "Shot 4 arrived while the session was finishing; shots are taken only while capturing.")
  }
}
