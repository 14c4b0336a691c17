#if canImport(SwiftUI)
  import SwiftUI

  extension MainActorStore where Action: BindableAction, Action.State == State {
    /// A SwiftUI binding to one field of a feature with a `BindingReducer`: reading it registers that field only,
    /// writing it sends `.binding(.set(keyPath, newValue))`, which the feature reduces like any other action.
    ///
    /// ```swift
    /// TextField("Title", text: store.binding(\.reminder.title))
    /// Toggle("Flagged", isOn: store.binding(\.reminder.isFlagged))
    /// ```
    public func binding<Value: Equatable & Sendable>(
      _ keyPath: WritableKeyPath<State, Value>
    ) -> SwiftUI.Binding<Value> {
      SwiftUI.Binding(
        get: { MainActor.assumeIsolated { self[dynamicMember: keyPath] } },
        set: { newValue in self.send(.binding(.set(keyPath, newValue))) }
      )
    }
  }
#endif
