import Features
import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

/// `printChanges()` never prints a secret: the project's secret types print as `<redacted>` in the action and in the
/// state's diff, even when the secret itself is what changed.
final class PrintedSecretsTests: XCTestCase {
  private struct Credentials: Reducer {
    struct State: Equatable, Sendable {
      var token = BearerToken("")
      var key = ImageAPIKey("")
      var password = Redacted("")
      var attempts = 0
    }
    enum Action: Equatable, Sendable {
      case signedIn(BearerToken, ImageAPIKey, Redacted<String>)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .signedIn(token, key, password):
        state.token = token
        state.key = key
        state.password = password
        state.attempts += 1
        return .none
      }
    }
  }

  func testSecretsPrintAsRedactedInActionsAndStateChanges() {
    let secrets = ["tok_\(UUID().uuidString)", "kakao-\(UUID().uuidString)", "pw-\(UUID().uuidString)"]
    let texts = LockIsolated<[String]>([])
    let printer = ChangePrinter { text in texts.withLock { $0.append(text) } }
    let store = Store(initialState: Credentials.State()) { Credentials().printChanges(to: printer) }
    store.send(.signedIn(BearerToken(secrets[0]), ImageAPIKey(secrets[1]), Redacted(secrets[2])))
    printer.flush()
    let text = texts.value.joined()
    for secret in secrets {
      XCTAssertFalse(text.contains(secret), "a secret was printed: \(text)")
    }
    XCTAssertEqual(
      text,
      """
      action: PrintedSecretsTests.Credentials.Action.signedIn(<redacted>, <redacted>, <redacted>)
        PrintedSecretsTests.Credentials.State(
          … (3 unchanged)
      -   attempts: 0
      +   attempts: 1
        )

      """)
  }
}
