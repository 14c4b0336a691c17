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
    await confirmation { confirm in
      withObservationTracking {
        _ = count
      } onChange: {
        confirm()
      }
      $count.withLock { $0 += 1 }
    }
  }

  @Test func aPersistedSharedValueIsObservable() async {
    @Shared(.inMemory("count")) var count = 0
    await confirmation { confirm in
      withObservationTracking {
        _ = count
      } onChange: {
        confirm()
      }
      $count.withLock { $0 += 1 }
    }
  }

  @Test func aReaderIsObservableThroughItsSource() async {
    @Shared(value: 0) var count
    @SharedReader var isZero: Bool
    _isZero = $count.read { $0 == 0 }
    await confirmation { confirm in
      withObservationTracking {
        _ = isZero
      } onChange: {
        confirm()
      }
      $count.withLock { $0 += 1 }
    }
  }

  @Test func aChangeFromStorageIsObservable() async throws {
    let files = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/observation/count.json")
    let count = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    await confirmation { confirm in
      withObservationTracking {
        _ = count.wrappedValue
      } onChange: {
        confirm()
      }
      files.write(Data("1".utf8), to: url)
    }
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
    await confirmation(expectedCount: 0) { confirm in
      withObservationTracking {
        _ = count.wrappedValue
      } onChange: {
        confirm()
      }
      // The same number, spelled differently: new bytes, but an equal value.
      files.write(Data(" 1 ".utf8), to: url)
    }
    #expect(count.wrappedValue == 1)
  }
}
