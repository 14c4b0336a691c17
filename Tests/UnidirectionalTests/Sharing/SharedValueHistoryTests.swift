import Foundation
import Testing
import Unidirectional

/// A state copied at a step and encoded later reads its shared values as of that step (what an action recorder's
/// writer thread needs: issue 45, bug 4).
@Suite struct SharedValueHistoryTests {
  struct Profile: Codable, Equatable, Sendable {
    var name: String
    var nickname: String?
  }

  struct State: Encodable {
    @Shared var profile: Profile
    @Shared var name: String
    @Shared var nickname: String
    @SharedReader var shout: String
  }

  private func json(_ state: State) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(state), as: UTF8.self)
  }

  @Test func copiesEncodeTheValuesOfTheirStepThroughEveryKindOfView() throws {
    let profile = Shared(value: Profile(name: "Ada", nickname: "A"))
    let state = State(
      profile: profile, name: profile.name, nickname: try #require(Shared(profile.nickname)),
      shout: profile.name.read { $0.uppercased() })
    let history = SharedValueHistory()
    defer { history.end() }
    var copies: [State] = []

    copies.append(state)
    history.stepDidEnd()  // step 1: Ada, A
    profile.withLock { $0.name = "Grace" }
    profile.withLock { $0.name = "Grace H." }  // a second change in the same step keeps the value of step 1
    copies.append(state)
    history.stepDidEnd()  // step 2: Grace H., A
    profile.withLock { $0.nickname = nil }  // the unwrapped view keeps its last value
    copies.append(state)
    history.stepDidEnd()  // step 3
    profile.withLock { $0 = Profile(name: "Linus", nickname: "L") }  // after every step: only the live value

    let encoded = try copies.indices.map { index in
      var encoded = ""
      try history.withValues(atStep: UInt64(index + 1)) { encoded = try json(copies[index]) }
      return encoded
    }
    #expect(
      encoded == [
        #"{"name":"Ada","nickname":"A","profile":{"name":"Ada","nickname":"A"},"shout":"ADA"}"#,
        #"{"name":"Grace H.","nickname":"A","profile":{"name":"Grace H.","nickname":"A"},"shout":"GRACE H."}"#,
        #"{"name":"Grace H.","nickname":"A","profile":{"name":"Grace H."},"shout":"GRACE H."}"#,
      ])
    // Outside `withValues`, the live values.
    #expect(
      try json(state) == #"{"name":"Linus","nickname":"L","profile":{"name":"Linus","nickname":"L"},"shout":"LINUS"}"#)
  }

  @Test func forgottenStepsAndEndedHistoriesKeepNothing() throws {
    let count = Shared(value: 0)
    let history = SharedValueHistory()
    history.stepDidEnd()  // step 1: 0
    count.withLock { $0 = 1 }
    history.stepDidEnd()  // step 2: 1
    count.withLock { $0 = 2 }
    history.forget(throughStep: 1)
    // Step 2 is still answered; step 1's value is gone (nothing will ask for it).
    #expect(encoded(count, in: history, atStep: 2) == 1)
    #expect(encoded(count, in: history, atStep: 1) == 1)
    history.end()
    count.withLock { $0 = 3 }
    #expect(encoded(count, in: history, atStep: 2) == 3)
  }

  @Test func changesFromOtherThreadsAreOrderedWithTheSteps() async throws {
    let count = Shared(value: 0)
    let history = SharedValueHistory()
    defer { history.end() }
    for step in 1...200 {
      await Task.detached { count.withLock { $0 += 1 } }.value
      history.stepDidEnd()  // step n: n
      #expect(step == count.wrappedValue)
    }
    for step in 1...200 {
      #expect(encoded(count, in: history, atStep: UInt64(step)) == step)
    }
  }

  /// A recording keeps values, not the shared values themselves: one whose last use goes away still saves and goes.
  @Test func aRecordingKeepsNoSharedValueAlive() throws {
    let history = SharedValueHistory()
    defer { history.end() }
    let files = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/shared-value-history/count.json")
    do {
      let count = withDependencies {
        $0.defaultFileStorage = .inMemory(files, debounce: .seconds(1))
        $0.clock = TestClock()
      } operation: {
        Shared(wrappedValue: 0, .fileStorage(url))
      }
      history.stepDidEnd()
      count.withLock { $0 = 7 }  // recorded: the value before it, 0
      #expect(files.writeCount == 0)
    }
    #expect(files.writeCount == 1)
    #expect(files[url].map { String(decoding: $0, as: UTF8.self) } == "7")
  }

  /// `shared` encoded as of `step` of `history`.
  private func encoded(_ shared: Shared<Int>, in history: SharedValueHistory, atStep step: UInt64) -> Int? {
    var value: Int?
    history.withValues(atStep: step) { value = encodeInt(shared) }
    return value
  }

  private func encodeInt(_ shared: Shared<Int>) -> Int? {
    guard let data = try? JSONEncoder().encode(shared) else { return nil }
    return Int(String(decoding: data, as: UTF8.self))
  }
}
