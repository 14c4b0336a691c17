import Testing
import Unidirectional

// TCA's `Result { try await … }` (swift-concurrency-extras' async `Result.init(catching:)`), ported from its
// `ResultTests`: a value is a success, a thrown error a failure, and a synchronous closure keeps the standard
// library's initializer.

private struct Failure: Error, Equatable {}

@Suite struct ResultAsyncTests {
  private func fetch(_ number: Int) async throws -> Int {
    await Task.yield()
    if number < 0 { throw Failure() }
    return number * 2
  }

  @Test func aValueIsASuccess() async throws {
    let result = await Result { try await fetch(21) }
    #expect(try result.get() == 42)
  }

  @Test func aThrownErrorIsAFailure() async {
    let result = await Result { try await fetch(-1) }
    #expect(throws: Failure.self) { try result.get() }
  }

  @Test func aSynchronousClosureInAnAsyncContextNeedsNoAwait() async throws {
    func parse(_ text: String) throws -> Int {
      guard let number = Int(text) else { throw Failure() }
      return number
    }
    let result = Result { try parse("7") }
    #expect(try result.get() == 7)
  }

  @Test func inAnEffectAsTCAWritesIt() async {
    enum Action: Sendable { case response(Result<Int, any Error>) }
    let store = Store(initialState: 0) {
      Reduce<Int, Action> { state, action in
        if case let .response(.success(value)) = action { state = value }
        return .none
      }
    }
    await store.send(.response(await Result { try await fetch(5) })).finish()
    #expect(store.state == 10)
  }
}
