extension Reducer {
  /// Runs `element` on each element of an identified collection, for actions addressed by element id, after this
  /// reducer.
  ///
  /// Effects of an element are cancelled when the parent removes it. An action for an id that is not in the
  /// collection is reported as a runtime issue.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.uploads, action: Action.uploadCase) { UploadRowFeature() }
  /// ```
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (id: ID, action: ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    ForEachReducer(
      parent: self, element: element(), toElements: toElements, toElementAction: toElementAction,
      fileID: fileID, line: line)
  }
}

extension Reducer {
  /// ``forEach(_:action:element:fileID:line:)`` for a case path made straight from a labelled case:
  /// `case row(id: Row.State.ID, action: Row.Action)` gives `CasePath(Action.row) { … }` an unlabelled
  /// `(ID, Row.Action)` value, since Swift drops the labels of a case constructor's function type.
  ///
  /// ```swift
  /// enum Action {
  ///   case row(id: Reminder.ID, action: ReminderRow.Action)
  ///   static let rowCase = CasePath(Action.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
  /// }
  /// Reduce { … }.forEach(\.reminders, action: Action.rowCase) { ReminderRow() }
  /// ```
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    let labelled = CasePath<Action, (id: ID, action: ElementAction)>(
      { toElementAction.embed(($0.id, $0.action)) },
      extract: { toElementAction.extract($0).map { (id: $0.0, action: $0.1) } })
    return ForEachReducer(
      parent: self, element: element(), toElements: toElements, toElementAction: labelled, fileID: fileID,
      line: line)
  }
}

extension Reducer {
  /// ``forEach(_:action:element:fileID:line:)`` for TCA's `case rows(IdentifiedActionOf<Row>)`.
  ///
  /// ```swift
  /// enum Action { case rows(IdentifiedActionOf<Row>) }
  /// Reduce { … }.forEach(\.rows, action: CasePath(Action.rows)) { Row() }  // or `action: Action.rows`
  /// ```
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    ForEachReducer(
      parent: self, element: element(), toElements: toElements, toElementAction: labelledElements(toElementAction),
      fileID: fileID, line: line)
  }
}

/// The reducer made by `Reducer.forEach(_:action:element:fileID:line:)`.
///
/// Inlinable, as the ``IdentifiedArray`` operations it uses: specialized for the app's types, an element's action
/// costs a few hundred instructions more than a ``Scope``; unspecialized it cost ~30,000 (runtime metadata lookups
/// for the array, its elements and the effects, and an array of effects merged on every action).
public struct ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction: CasePath<Parent.Action, (id: ID, action: Element.Action)>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(
    parent: Parent, element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CasePath<Parent.Action, (id: ID, action: Element.Action)>, fileID: StaticString, line: UInt
  ) {
    self.parent = parent
    self.element = element
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.fileID = fileID
    self.line = line
  }

  @usableFromInline
  struct ElementNamespace: Hashable, @unchecked Sendable {
    @usableFromInline let collection: AnyHashable
    @usableFromInline let id: ID

    @inlinable
    init(collection: AnyHashable, id: ID) {
      self.collection = collection
      self.id = id
    }
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffect = Effect<Parent.Action>.none
    if let (id, elementAction) = toElementAction.extract(action) {
      // One access for the lookup and the mutation: each key path access costs ~600-1,000 instructions.
      if let effect = mutate(&state[keyPath: toElements], id: id, { element.reduce(into: &$0, action: elementAction) })
      {
        let embed = toElementAction.embed
        elementEffect = effect.map { embed((id, $0)) }.namespaced(by: ElementNamespace(collection: toElements, id: id))
      } else {
        reportMissingElement(id, action: action)
      }
    }
    // A copy, not the ids: it shares the elements' storage, so a parent that leaves them alone costs no pass.
    let elementsBefore = state[keyPath: toElements]
    let parentEffect = parent.reduce(into: &state, action: action)
    let elementsAfter = state[keyPath: toElements]
    guard !elementsAfter.hasSameIDs(as: elementsBefore) else { return elementEffect.merge(with: parentEffect) }
    var cancellations: [Effect<Parent.Action>] = []
    for id in elementsBefore.ids where elementsAfter[id: id] == nil {
      cancellations.append(.cancelNamespace(ElementNamespace(collection: toElements, id: id)))
    }
    return .merge([elementEffect, parentEffect] + cancellations)
  }

  @usableFromInline
  func reportMissingElement(_ id: ID, action: Parent.Action) {
    reportIssue(
      """
      A "forEach" at \(fileID):\(line) received an action for the missing element \(describe(id)): \
      \(describe(action)). Make sure the element's effects are cancelled when it is removed.
      """, fileID: fileID, line: line)
  }

  @inlinable
  func mutate(
    _ elements: inout IdentifiedArray<ID, Element.State>,
    id: ID,
    _ body: (inout Element.State) -> Effect<Element.Action>
  ) -> Effect<Element.Action>? {
    guard let index = elements.index(id: id) else { return nil }
    return body(&elements[index])
  }
}
