/// Runs a reducer when the reducer it modifies changed a value of the state: built by
/// `onChange(of:)` on any reducer.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///     .onChange(of: \.query) { oldValue, newValue in
///       Reduce { state, action in
///         state.results = []
///         return .send(.search(newValue))
///       }
///     }
/// }
/// ```
///
/// The value is read before and after the modified reducer runs, for every action it receives; only changes that
/// reducer makes are seen (a parent's change to the value is not). The nested reducer runs on the state after the
/// change, for the same action; its effects merge with the modified reducer's.
public struct OnChangeReducer<Base: Reducer, Value, Body: Reducer<Base.State, Base.Action>>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let isDuplicate: (Value, Value) -> Bool
  @usableFromInline let reducer: (Value, Value) -> Body

  @inlinable
  init(
    base: Base,
    toValue: @escaping (Base.State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool,
    reducer: @escaping (Value, Value) -> Body
  ) {
    self.base = base
    self.toValue = toValue
    self.isDuplicate = isDuplicate
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    if isDuplicate(oldValue, newValue) { return effects }
    return effects.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}

extension Reducer {
  /// Runs the reducer `reducer` builds when this reducer changes the value `toValue` reads (TCA's `onChange`).
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.count) { oldValue, newValue in
  ///     Reduce { state, _ in
  ///       state.description = String(repeating: "!", count: newValue)
  ///       return .none
  ///     }
  ///   }
  /// ```
  ///
  /// Each action this reducer receives compares the value before and after it with `==`: prefer values that are
  /// quick to compare, and modify a leaf (such as ``BindingReducer``) rather than a whole feature.
  @inlinable
  public func onChange<V: Equatable, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> OnChangeReducer<Self, V, R> {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs the reducer `reducer` builds when this reducer changes the value `toValue` reads, as decided by
  /// `isDuplicate` (for values that are not `Equatable`, or to ignore some changes).
  ///
  /// ```swift
  /// .onChange(of: \.rows, removeDuplicates: { $0.ids == $1.ids }) { _, _ in
  ///   Reduce { state, _ in state.reorderCount += 1; return .none }
  /// }
  /// ```
  @inlinable
  public func onChange<V, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    removeDuplicates isDuplicate: @escaping (V, V) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> OnChangeReducer<Self, V, R> {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }

  /// Calls `perform` with the old value and the state when this reducer changes the value `toValue` reads.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.settings.isHapticsOn) { oldValue, state in
  ///     .run { [settings = state.settings] _ in try await save(settings) }
  ///   }
  /// ```
  @inlinable
  public func onChange<V: Equatable>(
    of toValue: @escaping (State) -> V,
    _ perform: @escaping (_ oldValue: V, _ state: inout State) -> Effect<Action>
  ) -> OnChangeReducer<Self, V, Reduce<State, Action>> {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==) { oldValue, _ in
      Reduce { state, _ in perform(oldValue, &state) }
    }
  }
}
