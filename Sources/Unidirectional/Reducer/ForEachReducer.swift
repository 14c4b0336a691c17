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
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>> & Sendable,
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
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>> & Sendable,
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

/// The reducer made by `Reducer.forEach(_:action:element:fileID:line:)`.
public struct ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>> & Sendable
  let toElementAction: CasePath<Parent.Action, (id: ID, action: Element.Action)>
  let fileID: StaticString
  let line: UInt

  private struct ElementNamespace: Hashable, @unchecked Sendable {
    let collection: AnyHashable
    let id: ID
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffect = Effect<Parent.Action>.none
    if let (id, elementAction) = toElementAction.extract(action) {
      if state[keyPath: toElements][id: id] != nil {
        let embed = toElementAction.embed
        elementEffect = mutate(&state[keyPath: toElements], id: id) { element.reduce(into: &$0, action: elementAction) }
          .map { embed((id, $0)) }
          .scoped(by: ElementNamespace(collection: toElements, id: id))
      } else {
        reportIssue(
          """
          A "forEach" at \(fileID):\(line) received an action for the missing element \(describe(id)): \
          \(describe(action)). Make sure the element's effects are cancelled when it is removed.
          """, fileID: fileID, line: line)
      }
    }
    // A copy, not the ids: it shares the elements' storage, so a parent that leaves them alone costs no pass.
    let elementsBefore = state[keyPath: toElements]
    let parentEffect = parent.reduce(into: &state, action: action)
    let elementsAfter = state[keyPath: toElements]
    var cancellations: [Effect<Parent.Action>] = []
    if !elementsAfter.hasSameIDs(as: elementsBefore) {
      for id in elementsBefore.ids where elementsAfter[id: id] == nil {
        cancellations.append(.cancelScope(ElementNamespace(collection: toElements, id: id)))
      }
    }
    return .merge([elementEffect, parentEffect] + cancellations)
  }

  private func mutate(
    _ elements: inout IdentifiedArray<ID, Element.State>,
    id: ID,
    _ body: (inout Element.State) -> Effect<Element.Action>
  ) -> Effect<Element.Action> {
    guard let index = elements.index(id: id) else { return .none }
    return body(&elements[index])
  }
}
