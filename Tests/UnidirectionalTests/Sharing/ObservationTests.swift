import Foundation
import Observation
import Testing
@testable import Unidirectional

/// swift-sharing's `ObservationTests` and TCA's `testObservation`, ported to the toolchain's Observation (in place
/// of the Perception library): reading a shared value inside `withObservationTracking` makes a view (or any
/// observer) learn of the next change, whatever keeps the value.
@MainActor
@Suite struct ObservationTests {
  @Test func aPlainSharedValueIsObservable() async {
    @Shared(value: 0) var count: Int
    await expectObservers(reading: { _ = count }, toLearnOf: { $count.withLock { $0 += 1 } })
  }

  @Test func aPersistedSharedValueIsObservable() async {
    @Shared(.inMemory("count")) var count = 0
    await expectObservers(reading: { _ = count }, toLearnOf: { $count.withLock { $0 += 1 } })
  }

  @Test func aReaderIsObservableThroughItsSource() async {
    @Shared(value: 0) var count
    @SharedReader var isZero: Bool
    _isZero = $count.read { $0 == 0 }
    await expectObservers(reading: { _ = isZero }, toLearnOf: { $count.withLock { $0 += 1 } })
  }

  @Test func aChangeFromStorageIsObservable() async throws {
    let files = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/observation/count.json")
    let count = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    await expectObservers(reading: { _ = count.wrappedValue }, toLearnOf: { files.write(Data("1".utf8), to: url) })
    #expect(count.wrappedValue == 1)
  }

  @Test func aValueYieldedAgainUnchangedIsNotAChange() async throws {
    let files = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/observation/count.json")
    files.write(Data("1".utf8), to: url)
    let count = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    // The same number, spelled differently: new bytes, but an equal value.
    await expectObservers(
      reading: { _ = count.wrappedValue }, toLearnOf: { files.write(Data(" 1 ".utf8), to: url) }, times: 0)
    #expect(count.wrappedValue == 1)
  }

  /// Confirms that an observer that read what `read` reads learns of `change`, `times` times.
  private func expectObservers(reading read: () -> Void, toLearnOf change: () -> Void, times: Int = 1) async {
    await confirmation(expectedCount: times) { confirm in
      withObservationTracking(read) { confirm() }
      change()
    }
  }
}
