import Foundation
import Testing
import Unidirectional

// `AsyncStream.finished` and `AsyncThrowingStream.finished(throwing:)`, which TCA re-exports from
// swift-concurrency-extras: streams that end at once, for dependencies a test stubs out.

private struct Failure: Error, Equatable {}

@Suite struct AsyncStreamFinishedTests {
  @Test func aFinishedStreamYieldsNothing() async {
    var count = 0
    for await _ in AsyncStream<Int>.finished { count += 1 }
    #expect(count == 0)
  }

  @Test func aFinishedThrowingStreamEndsOrThrows() async throws {
    var count = 0
    for try await _ in AsyncThrowingStream<Int, any Error>.finished() { count += 1 }
    #expect(count == 0)
    await #expect(throws: Failure.self) {
      for try await _ in AsyncThrowingStream<Int, any Error>.finished(throwing: Failure()) {}
    }
  }
}
