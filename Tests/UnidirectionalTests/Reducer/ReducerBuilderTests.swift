import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Log: Reducer {
  let name: String
  func reduce(into state: inout [String], action: Bool) -> Effect<Bool> {
    state.append(name)
    return .none
  }
}

private struct Composed: Reducer {
  let includeOptional: Bool
  let useFirst: Bool
  let repeated: [String]

  var body: some Reducer<[String], Bool> {
    Log(name: "first")
    if includeOptional {
      Log(name: "optional")
    }
    if useFirst {
      Log(name: "either-first")
    } else {
      Log(name: "either-second")
    }
    for name in repeated {
      Log(name: name)
    }
    CombineReducers {
      Log(name: "combined-a")
      Log(name: "combined-b")
    }
    EmptyReducer()
  }
}

final class ReducerBuilderTests: XCTestCase {
  func testReducersRunInOrderWithOptionalsEitherAndArrays() {
    var state: [String] = []
    _ = Composed(includeOptional: true, useFirst: false, repeated: ["r1", "r2"]).reduce(into: &state, action: true)
    XCTAssertEqual(state, ["first", "optional", "either-second", "r1", "r2", "combined-a", "combined-b"])

    state = []
    _ = Composed(includeOptional: false, useFirst: true, repeated: []).reduce(into: &state, action: true)
    XCTAssertEqual(state, ["first", "either-first", "combined-a", "combined-b"])
  }

  func testEffectsOfCombinedReducersMerge() async {
    struct Emits: Reducer {
      let value: Int
      func reduce(into state: inout [Int], action: Int) -> Effect<Int> {
        if action == 0 { return .send(value) }
        state.append(action)
        return .none
      }
    }
    struct Both: Reducer {
      var body: some Reducer<[Int], Int> {
        Emits(value: 1)
        Emits(value: 2)
      }
    }
    let store = TestStore(initialState: [Int]()) { Both() }
    await store.send(0)
    await store.receive(1) { $0 = [1, 1] }
    await store.receive(2) { $0 = [1, 1, 2, 2] }
  }
}
