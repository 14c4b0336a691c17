import Unidirectional
import UnidirectionalTesting
import XCTest

/// TCA's issue #2724: a `body` with more than seven chained `ifLet`s stopped type-checking. Here one `body` composes
/// twelve children with every composition operator — `Scope` to a property and to an enum case, `ifCaseLet`, `ifLet`
/// on optional and presentation state, `forEach` over an identified array and a stack — and the test targets build
/// with `-warn-long-expression-type-checking=200` (see Package.swift), so a slow expression here is a warning and
/// the test command's zero-warning build fails.
final class TwelveChildrenTests: XCTestCase {
  func testTwelveChildrenComposedInOneBodyEachRunOnTheirOwnState() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }

    await store.send(.first(.increment)) { $0.first.count = 1 }
    await store.send(.second(.increment)) { $0.second.count = 1 }
    await store.send(.mode(.one(.increment))) { $0.mode = .one(Counter.State(count: 1)) }
    await store.send(.switchMode) { $0.mode = .two(Counter.State()) }
    await store.send(.mode(.two(.increment))) { $0.mode = .two(Counter.State(count: 1)) }
    await store.send(.third(.increment)) { $0.third?.count = 1 }
    await store.send(.fourth(.increment)) { $0.fourth?.count = 1 }
    await store.send(.fifth(.increment)) { $0.fifth?.count = 1 }
    await store.send(.sixth(.increment)) { $0.sixth?.count = 1 }
    await store.send(.seventh(.increment)) { $0.seventh?.count = 1 }
    await store.send(.sheet(.presented(.increment))) { $0.sheet?.count = 1 }
    await store.send(.row(id: 2, action: .increment)) { $0.rows[id: 2]?.count = 1 }
    await store.send(.path(.push(id: 0, state: Counter.State()))) { $0.path.append(Counter.State()) }
    await store.send(.path(.element(id: 0, action: .increment))) { $0.path[id: 0]?.count = 1 }
    await store.send(.sheet(.dismiss)) { $0.sheet = nil }
  }
}

private struct Counter: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var count = 0
  }

  enum Action: Equatable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var first = Counter.State()
    var second = Counter.State()
    var mode = Mode.one(Counter.State())
    var third: Counter.State? = Counter.State()
    var fourth: Counter.State? = Counter.State()
    var fifth: Counter.State? = Counter.State()
    var sixth: Counter.State? = Counter.State()
    var seventh: Counter.State? = Counter.State()
    @PresentationState var sheet: Counter.State? = Counter.State()
    var rows: IdentifiedArray<Int, Counter.State> = [Counter.State(id: 1), Counter.State(id: 2)]
    var path = StackState<Counter.State>()
  }

  enum Mode: Equatable {
    case one(Counter.State)
    case two(Counter.State)

    static let oneCase = CasePath(Mode.one) { if case let .one(state) = $0 { state } else { nil } }
    static let twoCase = CasePath(Mode.two) { if case let .two(state) = $0 { state } else { nil } }
  }

  enum ModeAction: Equatable {
    case one(Counter.Action)
    case two(Counter.Action)

    static let oneCase = CasePath(ModeAction.one) { if case let .one(action) = $0 { action } else { nil } }
    static let twoCase = CasePath(ModeAction.two) { if case let .two(action) = $0 { action } else { nil } }
  }

  enum Action: Equatable {
    case first(Counter.Action)
    case second(Counter.Action)
    case mode(ModeAction)
    case switchMode
    case third(Counter.Action)
    case fourth(Counter.Action)
    case fifth(Counter.Action)
    case sixth(Counter.Action)
    case seventh(Counter.Action)
    case sheet(PresentationAction<Counter.Action>)
    case row(id: Int, action: Counter.Action)
    case path(StackAction<Counter.State, Counter.Action>)

    static let firstCase = CasePath(Action.first) { if case let .first(action) = $0 { action } else { nil } }
    static let secondCase = CasePath(Action.second) { if case let .second(action) = $0 { action } else { nil } }
    static let modeCase = CasePath(Action.mode) { if case let .mode(action) = $0 { action } else { nil } }
    static let thirdCase = CasePath(Action.third) { if case let .third(action) = $0 { action } else { nil } }
    static let fourthCase = CasePath(Action.fourth) { if case let .fourth(action) = $0 { action } else { nil } }
    static let fifthCase = CasePath(Action.fifth) { if case let .fifth(action) = $0 { action } else { nil } }
    static let sixthCase = CasePath(Action.sixth) { if case let .sixth(action) = $0 { action } else { nil } }
    static let seventhCase = CasePath(Action.seventh) { if case let .seventh(action) = $0 { action } else { nil } }
    static let sheetCase = CasePath(Action.sheet) { if case let .sheet(action) = $0 { action } else { nil } }
    static let rowCase = CasePath<Action, (id: Int, action: Counter.Action)>({ .row(id: $0.id, action: $0.action) }) {
      if case let .row(id, action) = $0 { (id, action) } else { nil }
    }
    static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.first, action: Action.firstCase) { Counter() }
    Scope(state: \.second, action: Action.secondCase) { Counter() }
    Scope(state: \.mode, action: Action.modeCase) {
      EmptyReducer()
        .ifCaseLet(Mode.oneCase, action: ModeAction.oneCase) { Counter() }
        .ifCaseLet(Mode.twoCase, action: ModeAction.twoCase) { Counter() }
    }
    Reduce { state, action in
      if case .switchMode = action { state.mode = .two(Counter.State()) }
      return .none
    }
    .ifLet(\.third, action: Action.thirdCase) { Counter() }
    .ifLet(\.fourth, action: Action.fourthCase) { Counter() }
    .ifLet(\.fifth, action: Action.fifthCase) { Counter() }
    .ifLet(\.sixth, action: Action.sixthCase) { Counter() }
    .ifLet(\.seventh, action: Action.seventhCase) { Counter() }
    .ifLet(\.$sheet, action: Action.sheetCase) { Counter() }
    .forEach(\.rows, action: Action.rowCase) { Counter() }
    .forEach(\.path, action: Action.pathCase) { Counter() }
  }
}
