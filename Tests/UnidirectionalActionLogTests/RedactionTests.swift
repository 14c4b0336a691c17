import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

final class RedactionTests: XCTestCase {
  private static let token = "tok_live_9f8e7d6c5b4a"
  private static let apiKey = "KakaoAK-0123456789abcdef"

  /// A sign-in flow whose actions and state carry secrets, marked both ways.
  private struct SignIn: Reducer {
    struct State: Codable, Equatable, Sendable {
      var user: String?
      @Redacted var token: String = ""
      var requests = 0
    }

    enum Action: Codable, Equatable, Sendable, ActionLogRedacting {
      case apiKeyEntered(String)
      case signInTapped(user: String)
      case signedIn(token: Redacted<String>)
      case nested(Credentials)

      var redactedForLog: Action {
        if case .apiKeyEntered = self { return .apiKeyEntered(Redacted<String>.marker) }
        return self
      }
    }

    struct Credentials: Codable, Equatable, Sendable, ActionLogRedacting {
      var user: String
      var password: String
      var redactedForLog: Credentials { Credentials(user: user, password: Redacted<String>.marker) }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .apiKeyEntered:
        return .none
      case let .signInTapped(user):
        state.user = user
        state.requests += 1
        return .run { send in send(.signedIn(token: Redacted(RedactionTests.token))) }
      case let .signedIn(token):
        state.token = token.wrappedValue
        return .none
      case let .nested(credentials):
        state.user = credentials.user
        return .none
      }
    }
  }

  func testARecordedSessionWithTokensContainsNoSecret() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: SignIn.State(), recordingTo: recorder) {
      SignIn()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    store.send(.apiKeyEntered(Self.apiKey))
    await store.send(.signInTapped(user: "ada")).finish()
    store.send(.nested(.init(user: "ada", password: Self.token)))
    try await recorder.close()
    XCTAssertEqual(store.withState { $0.token }, Self.token)  // the store itself has the real value

    let log = try String(contentsOf: url, encoding: .utf8)
    for secret in [Self.token, Self.apiKey] {
      XCTAssertFalse(log.contains(secret), "the log contains a secret:\n\(log)")
      XCTAssertFalse(log.contains(Data(secret.utf8).base64EncodedString()), "the log contains an encoded secret")
    }
    let lines = try lines(of: url)
    XCTAssertEqual(lines.count, 5)
    XCTAssertTrue(lines[1].contains(#""action":{"apiKeyEntered":{"_0":"<redacted>"}}"#), lines[1])
    XCTAssertTrue(lines[3].contains(#""action":{"signedIn":{"token":"<redacted>"}}"#), lines[3])
    XCTAssertTrue(lines[4].contains(#"{"nested":{"_0":{"password":"<redacted>","user":"ada"}}}"#), lines[4])

    // Replayed, the secrets are placeholders, and the fingerprints (over redacted encodings) still match.
    let steps = try replayAll(url, SignIn())
    XCTAssertEqual(steps.map(\.matchesRecording), [true, true, true, true])
    XCTAssertEqual(steps[2].action, .signedIn(token: Redacted("")))
    XCTAssertEqual(steps[2].state.token, "")
  }

  func testDumpsDiffsAndDescriptionsShowNoSecret() {
    var state = SignIn.State()
    state.token = Self.token
    let action = SignIn.Action.signedIn(token: Redacted(Self.token))
    let renderings = [
      customDump(state), customDump(action), describe(action), "\(action)", String(reflecting: action),
      "\(Redacted(Self.token))", diff(SignIn.State(), state) ?? "",
    ]
    for text in renderings {
      XCTAssertFalse(text.contains(Self.token), text)
    }
    XCTAssertEqual(describe(action), "RedactionTests.SignIn.Action.signedIn(token: <redacted>)")
    XCTAssertEqual(customDump(Redacted(Self.token)), "<redacted>")
  }

  func testRedactedDecodesTheMarkerAsThePlaceholderAndRealValuesAsThemselves() throws {
    let decoder = JSONDecoder()
    XCTAssertEqual(try decoder.decode([Redacted<String>].self, from: Data(#"["<redacted>"]"#.utf8)), [Redacted("")])
    XCTAssertEqual(
      try decoder.decode([Redacted<String>].self, from: Data(#"["from-config"]"#.utf8)), [Redacted("from-config")])
    XCTAssertEqual(try decoder.decode([Redacted<String?>].self, from: Data(#"["<redacted>"]"#.utf8)), [Redacted(nil)])
    XCTAssertEqual(String(data: try JSONEncoder().encode([Redacted(Self.token)]), encoding: .utf8), #"["<redacted>"]"#)
  }
}
