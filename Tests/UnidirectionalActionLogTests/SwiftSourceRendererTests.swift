import Foundation
import Testing
import Unidirectional

@testable import UnidirectionalActionLog

/// How the test writer spells values and state changes in Swift.
@Suite struct SwiftSourceRendererTests {
  enum Mode: String, Codable, CustomStringConvertible {
    case fast, careful
    var description: String { "mode \(rawValue)" }
  }

  enum Action: Codable, Equatable {
    case start
    case set(Int)
    case move(from: Int, to: Int?)
    case nested(Mode)
    case named(Name)
    case point(Point)
  }

  struct Name: Codable, Equatable, ExpressibleByStringLiteral {
    var value: String
    init(stringLiteral value: String) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  private func text(_ value: Any) -> String? {
    var renderer = SwiftSourceRenderer()
    return renderer.expression(for: value)?.text
  }

  @Test func valuesAreSwiftLiterals() {
    #expect(text(Action.start) == ".start")
    #expect(text(Action.set(-3)) == ".set(-3)")
    #expect(text(Action.move(from: 1, to: nil)) == ".move(from: 1, to: nil)")
    // The case's name, not the enum's description.
    #expect(text(Action.nested(.careful)) == ".nested(.careful)")
    #expect(text(Action.named("Ada")) == #".named("Ada")"#)
    #expect(text(Action.point(Point(x: 1, y: 2))) == ##".point(fromJSON(#"{"x":1,"y":2}"#))"##)
    #expect(text("a \"quoted\"\n\\ line") == #""a \"quoted\"\n\\ line""#)
    #expect(text([3, 1, 2]) == "[3, 1, 2]")
    #expect(text(Set(["b", "a"])) == #"["a", "b"]"#)
    #expect(text(["b": 2, "a": 1]) == #"["a": 1, "b": 2]"#)
    #expect(text([String: Int]()) == "[:]")
    #expect(text(Optional<Int>.none as Any) == "nil")
    #expect(text(UUID(5)) == "UUID(5)")
    #expect(
      text(UUID(uuidString: "DEADBEEF-0000-4000-8000-000000000001")!)
        == #"UUID(uuidString: "DEADBEEF-0000-4000-8000-000000000001")!"#)
    #expect(
      text(Date(timeIntervalSinceReferenceDate: 786_000_000.25)) == "Date(timeIntervalSinceReferenceDate: 786000000.25)"
    )
    #expect(text(URL(fileURLWithPath: "/tmp/a b.png")) == #"URL(fileURLWithPath: "/tmp/a b.png")"#)
    #expect(
      text(URL(fileURLWithPath: "/tmp/", isDirectory: true)) == #"URL(fileURLWithPath: "/tmp", isDirectory: true)"#)
    #expect(text(URL(string: "https://example.com/x?y=1")!) == #"URL(string: "https://example.com/x?y=1")!"#)
    #expect(text(Duration.milliseconds(1_500)) == ".milliseconds(1_500)")
    #expect(text(Duration.seconds(3)) == ".seconds(3)")
    #expect(text(Duration.nanoseconds(200_512_345)) == ".nanoseconds(200_512_345)")
    #expect(text(Double.infinity) == ".infinity")
    #expect(text(0.1) == "0.1")
  }

  @Test func recordedTextBecomesAnInterpolation() {
    let renderer = SwiftSourceRenderer(substitutions: ["/tmp/run-1": "folder.path"])
    #expect(renderer.stringLiteral("/tmp/run-1/images/a.png") == #""\(folder.path)/images/a.png""#)
    #expect(
      renderer.rawLiteral(#"{"url":"file:///tmp/run-1/x"}"#) == ##"#"{"url":"file://\#(folder.path)/x"}"#"##)
  }

  struct Profile: Codable, Equatable {
    let id: Int
    var name: String
  }

  struct Screen: Codable, Equatable {
    var title = ""
    var profile: Profile?
    var items: [Profile] = []
    var tags: Set<String> = []
    var mode = Mode.fast
    @Shared var count: Int
  }

  private func statements(_ before: Screen, _ change: (inout Screen) -> Void) -> [String] {
    var after = before
    after.$count = Shared(value: before.count)  // its own shared value, as a replayed step's state has
    change(&after)
    var renderer = SwiftSourceRenderer()
    return StateChangeStatements.statements(from: before, to: after, renderer: &renderer).map(\.text)
  }

  @Test func stateChangesAreAssignmentsOfWhatChanged() {
    let screen = Screen(
      profile: Profile(id: 1, name: "Ada"), items: [Profile(id: 1, name: "Ada")], count: Shared(value: 0))
    #expect(statements(screen) { $0.title = "Hi" } == [#"$0.title = "Hi""#])
    #expect(statements(screen) { $0.profile?.name = "Grace" } == [#"$0.profile?.name = "Grace""#])
    // A `let` property is not assigned: the value holding it is.
    #expect(
      statements(screen) { $0.profile = Profile(id: 2, name: "Ada") } == [
        ##"$0.profile = fromJSON(#"{"id":2,"name":"Ada"}"#)"##
      ])
    #expect(statements(screen) { $0.items[0].name = "Linus" } == [#"$0.items[0].name = "Linus""#])
    #expect(
      statements(screen) { $0.items.append(Profile(id: 2, name: "B")) } == [
        ##"$0.items.append(fromJSON(#"{"id":2,"name":"B"}"#))"##
      ])
    #expect(statements(screen) { $0.items.removeAll() } == ["$0.items.removeLast()"])
    #expect(statements(screen) { $0.tags.insert("x") } == [#"$0.tags.insert("x")"#])
    #expect(statements(screen) { $0.mode = .careful } == ["$0.mode = .careful"])
    #expect(statements(screen) { $0.$count.withLock { $0 += 2 } } == ["$0.$count.withLock { $0 = 2 }"])
    #expect(statements(screen) { _ in } == [])
  }

  @Test func namedTypesAreWrittenWithTheirInitializerAndTimesAdvanceTheClock() throws {
    var configuration = ActionLogTestWriter.Configuration(testName: "points", imports: [], reducer: "Points()")
    configuration.writeWithInitializer(Point.self)
    let steps: [ActionLogTestWriter.Step<[Point], Action>] = [
      .init(
        origin: .sent, action: .point(Point(x: 1, y: 2)), state: [Point(x: 1, y: 2)], time: .nanoseconds(200_300_000)),
      .init(origin: .received, action: .start, state: [Point(x: 1, y: 3)], time: .milliseconds(1_700)),
    ]
    let source = try ActionLogTestWriter.source(initialState: [Point](), steps: steps, configuration: configuration)
    let body = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let first = try #require(body.firstIndex(of: "await clock.advance(by: .milliseconds(201))"))
    #expect(
      Array(body[first...].prefix(6)) == [
        "await clock.advance(by: .milliseconds(201))",
        "await store.send(.point(SwiftSourceRendererTests.Point(x: 1, y: 2))) {",
        "$0.append(SwiftSourceRendererTests.Point(x: 1, y: 2))",
        "}",
        "await clock.advance(by: .milliseconds(1_499))",
        "await store.receive(.start) { $0[0].y = 3 }",
      ])
  }

  @Test func jsonIsLaidOutOneMemberPerLine() {
    #expect(
      TestSourceLayout.prettyJSON(Array(#"{"a":[1,{"b":"x,y"}],"c":{},"d":[]}"#.utf8)) == """
        {
          "a": [
            1,
            {
              "b": "x,y"
            }
          ],
          "c": {},
          "d": []
        }
        """)
  }
}
