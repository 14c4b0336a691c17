import Observation
import Testing
@testable import Unidirectional

/// swift-sharing's `SharedChangeTrackerTests` and the `withSharedChangeTracking` tests of TCA's `SharedTests`
/// (1.x), ported to the tracker a `TestStore` keeps: changes made while tracking record each shared value as it was
/// before them; inside an assertion, a shared value reads (and changes) that record, while comparing it with itself
/// compares the record with the live value. That is how `store.send(.x) { $0.$count.withLock { $0 = 1 } }` checks a
/// change the reducer made to a value the test's expected state shares with the store's.
@Suite struct SharedChangeTrackerTests {
  @Test func anAssertionSeesTheValueBeforeTheChangeUntilItMakesTheSameChange() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker()
    tracker.track {
      $count.withLock { $0 += 1 }
    }
    tracker.asserting {
      #expect($count != $count)
      #expect(count == 0)
      $count.withLock { $0 = 1 }
      #expect($count == $count)
    }
  }

  @Test func aFailedAssertionDiffsTheExpectedValueAgainstTheLiveOne() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker()
    tracker.track {
      $count.withLock { $0 += 1 }
    }
    #expect(diff($count, $count, asserting: tracker) == "- 0\n+ 1")
  }

  @Test func anUntrackedValueComparesLiveAgainstLive() {
    @Shared(value: 0) var count1
    @Shared(value: 0) var count2
    #expect($count1 == $count2)

    let tracker = SharedChangeTracker()
    tracker.track {
      $count1.withLock { $0 += 1 }
    }
    tracker.asserting {
      #expect($count1 != $count1)
      #expect($count1 == $count2)
      #expect($count2 == $count2)

      $count1.withLock { $0 = 1 }

      #expect($count1 == $count1)
      #expect($count1 != $count2)
    }
  }

  @Test func viewsThroughDifferentKeyPathsCompareTheirOwnParts() {
    struct Stats: Equatable {
      var bool1 = false
      var bool2 = false
    }
    @Shared(value: Stats()) var stats
    #expect($stats.bool1 == $stats.bool2)

    let tracker = SharedChangeTracker()
    tracker.track {
      $stats.bool1.withLock { $0.toggle() }
    }
    tracker.asserting {
      #expect($stats.bool1 != $stats.bool1)
      #expect($stats.bool1 == $stats.bool2)
      #expect($stats.bool2 == $stats.bool2)

      $stats.bool1.withLock { $0.toggle() }

      #expect($stats.bool1 == $stats.bool1)
      #expect($stats.bool1 != $stats.bool2)
      #expect($stats == $stats)
    }
  }

  @Test func aChangeInsideAnAssertionNeverReachesTheLiveValueOrItsObservers() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker()
    tracker.track {
      $count.withLock { $0 += 1 }
    }
    let notified = LockIsolated(0)
    withObservationTracking {
      _ = count
    } onChange: {
      notified.withLock { $0 += 1 }
    }
    tracker.asserting {
      $count.withLock { $0 = 5 }
    }
    #expect(count == 1)
    #expect(notified.value == 0)
  }

  @Test func aChangeIsRecordedUntilTheTrackerIsReset() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker()
    #expect(!tracker.hasChanges)
    tracker.track {
      $count.withLock { $0 += 1 }
    }
    #expect(tracker.hasChanges)
    tracker.reset()
    #expect(!tracker.hasChanges)
    tracker.asserting {
      #expect($count == $count, "after a reset the live value is what is expected")
    }
  }

  @Test func aChangeThroughAnUnwrappedViewIsRecordedOnTheOptional() throws {
    let optionalShared = Shared<Int?>(value: 1)
    let unwrappedShared = try #require(Shared(optionalShared))
    let tracker = SharedChangeTracker()
    tracker.track {
      unwrappedShared.withLock { $0 += 1 }
    }
    #expect(tracker.hasChanges)
    tracker.asserting {
      #expect(optionalShared.wrappedValue == 1)
      #expect(unwrappedShared.wrappedValue == 1)
    }
    #expect(diff(optionalShared, optionalShared, asserting: tracker) == "- 1\n+ 2")
  }

  // MARK: TCA's SharedTests (1.x)

  @Test func viewsOfOneValueCompareThroughTheSnapshot() {
    struct Settings {
      var isOn = false
      var hasSeen = false
    }
    @Shared(.inMemory("settings")) var settings = Settings()
    #expect($settings.isOn == $settings.hasSeen)

    let tracker = SharedChangeTracker()
    tracker.track {
      $settings.isOn.withLock { $0.toggle() }
      #expect(settings.isOn != settings.hasSeen)
      #expect($settings.isOn != $settings.hasSeen)
      #expect($settings.hasSeen != $settings.isOn)
    }
    tracker.asserting {
      #expect(settings.isOn == settings.hasSeen)
      #expect($settings.isOn == $settings.hasSeen)
      #expect($settings.hasSeen == $settings.isOn)
      $settings.hasSeen.withLock { $0.toggle() }
      #expect(settings.isOn != settings.hasSeen)
      #expect($settings.isOn != $settings.hasSeen)
      #expect($settings.hasSeen != $settings.isOn)
    }
  }

  @Test func aValueIsNotEqualToItselfInAnAssertionUntilTheChangeIsAsserted() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track {
      count.withLock { $0 += 1 }
    }
    tracker.asserting {
      #expect(count != count)
      #expect(count.wrappedValue == count.wrappedValue)
    }
    #expect(count == count)
    #expect(count.wrappedValue == count.wrappedValue)

    tracker.asserting {
      count.withLock { $0 += 1 }
      #expect(count == count)
    }
    #expect(count == count)
    #expect(count.wrappedValue == 1)
  }
}

extension SharedChangeTracker {
  /// Runs `body` as a `TestStore` runs its reducer and effects: the shared values it changes are recorded.
  func track<R>(_ body: () throws -> R) rethrows -> R {
    try withDependencies {
      $0.sharedChangeTracker = self
    } operation: {
      try body()
    }
  }
}
