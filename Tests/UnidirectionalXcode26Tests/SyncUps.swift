import Foundation
import Unidirectional

// TCA's SyncUps example app, the parts its tests of shared state drive, without views or speech recognition: a list
// of sync-ups persisted to a file (`@Shared(.syncUps)`), a detail screen pushed on a stack that holds one sync-up
// of that list (`Shared($syncUps[id: id])`), and a recording screen that adds a meeting to it. Edits go through a
// form's `setTitle` action where TCA binds a text field.

nonisolated struct SyncUp: Codable, Equatable, Identifiable {
  let id: UUID
  var attendees: IdentifiedArrayOf<Attendee> = []
  var duration: Duration = .seconds(60 * 5)
  var meetings: IdentifiedArrayOf<Meeting> = []
  var title = ""

  var durationPerAttendee: Duration { duration / attendees.count }

  static let mock = SyncUp(
    id: UUID(sequenceNumber: 0xdeadbeef),
    attendees: [
      Attendee(id: UUID(sequenceNumber: 0xa1), name: "Blob"), Attendee(id: UUID(sequenceNumber: 0xa2), name: "Blob Jr"),
    ],
    duration: .seconds(60),
    title: "Design")
}

nonisolated struct Attendee: Codable, Equatable, Identifiable {
  let id: UUID
  var name = ""
}

nonisolated struct Meeting: Codable, Equatable, Identifiable {
  let id: UUID
  let date: Date
  var transcript: String
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  static var syncUps: Self {
    Self[.fileStorage(URL(fileURLWithPath: "/documents/sync-ups.json")), default: []]
  }
}

struct SyncUpForm: Reducer {
  struct State: Equatable {
    var syncUp: SyncUp
  }
  nonisolated enum Action: Equatable {
    case setTitle(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .setTitle(title):
      state.syncUp.title = title
      return .none
    }
  }
}

struct SyncUpsList: Reducer {
  struct State: Equatable {
    @PresentationState var add: SyncUpForm.State?
    @Shared(.syncUps) var syncUps
  }
  nonisolated enum Action: Equatable {
    case add(PresentationAction<SyncUpForm.Action>)
    case addSyncUpButtonTapped
    case confirmAddSyncUpButtonTapped
    case onDelete(IndexSet)
  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add:
        return .none
      case .addSyncUpButtonTapped:
        state.add = SyncUpForm.State(syncUp: SyncUp(id: uuid(), attendees: [Attendee(id: uuid())]))
        return .none
      case .confirmAddSyncUpButtonTapped:
        guard let form = state.add else { return .none }
        var syncUp = form.syncUp
        syncUp.attendees.removeAll { $0.name.allSatisfy(\.isWhitespace) }
        if syncUp.attendees.isEmpty { syncUp.attendees.append(Attendee(id: uuid())) }
        state.$syncUps.withLock { _ = $0.append(syncUp) }
        state.add = nil
        return .none
      case let .onDelete(offsets):
        state.$syncUps.withLock { $0.remove(atOffsets: offsets) }
        return .none
      }
    }
    .ifLet(\.$add, action: Action.add) { SyncUpForm() }
  }
}

struct SyncUpDetail: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var edit: SyncUpForm.State?
    @Shared var syncUp: SyncUp
  }
  nonisolated enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped
    case doneEditingButtonTapped
    case edit(PresentationAction<SyncUpForm.Action>)
    case editButtonTapped
    case startMeetingButtonTapped

    enum Alert: Equatable { case confirmDeletion }
    enum Delegate: Equatable { case startMeeting(Shared<SyncUp>) }
  }
  @Dependency(\.dismiss) var dismiss

  static let deleteAlert = AlertState<Action.Alert>(
    title: "Delete?", message: "Are you sure you want to delete this meeting?",
    buttons: [ButtonState(role: .destructive, action: .confirmDeletion, label: "Yes"), ButtonState(label: "Nevermind")])

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        // The detail reaches the list's value through the key: no parent needed.
        @Shared(.syncUps) var syncUps
        $syncUps.withLock { _ = $0.remove(id: state.syncUp.id) }
        return .run { _ in await dismiss() }
      case .alert, .delegate, .edit:
        return .none
      case .deleteButtonTapped:
        state.alert = Self.deleteAlert
        return .none
      case .doneEditingButtonTapped:
        guard let form = state.edit else { return .none }
        state.$syncUp.withLock { $0 = form.syncUp }
        state.edit = nil
        return .none
      case .editButtonTapped:
        state.edit = SyncUpForm.State(syncUp: state.syncUp)
        return .none
      case .startMeetingButtonTapped:
        return .send(.delegate(.startMeeting(state.$syncUp)))
      }
    }
    .ifLet(\.$alert, action: Action.alert)
    .ifLet(\.$edit, action: Action.edit) { SyncUpForm() }
  }
}

struct RecordMeeting: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var secondsElapsed = 0
    var speakerIndex = 0
    @Shared var syncUp: SyncUp

    var durationRemaining: Duration { syncUp.duration - .seconds(secondsElapsed) }
  }
  nonisolated enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    case timerTick

    enum Alert: Equatable { case confirmDiscard, confirmSave }
  }
  @Dependency(\.clock) var clock
  @Dependency(\.date) var date
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.uuid) var uuid

  static func endMeetingAlert(isDiscardable: Bool) -> AlertState<Action.Alert> {
    AlertState(
      title: "End meeting?", message: "You are ending the meeting early. What would you like to do?",
      buttons: [ButtonState(action: .confirmSave, label: "Save and end")]
        + (isDiscardable ? [ButtonState(role: .destructive, action: .confirmDiscard, label: "Discard")] : [])
        + [ButtonState(role: .cancel, label: "Resume")])
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return .run { _ in await dismiss() }
      case .alert(.presented(.confirmSave)):
        state.$syncUp.withLock { _ = $0.meetings.insert(Meeting(id: uuid(), date: date.now, transcript: ""), at: 0) }
        return .run { _ in await dismiss() }
      case .alert:
        return .none
      case .endMeetingButtonTapped:
        state.alert = Self.endMeetingAlert(isDiscardable: true)
        return .none
      case .nextButtonTapped:
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
          state.alert = Self.endMeetingAlert(isDiscardable: false)
          return .none
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.speakerIndex * Int(state.syncUp.durationPerAttendee.components.seconds)
        return .none
      case .onTask:
        // `[clock]`: `clock.timer(…)` is not awaited, so Swift cannot hop to read the main-actor property there.
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) { send(.timerTick) }
        }
      case .timerTick:
        guard state.alert == nil else { return .none }
        state.secondsElapsed += 1
        let secondsPerAttendee = Int(state.syncUp.durationPerAttendee.components.seconds)
        guard state.secondsElapsed.isMultiple(of: secondsPerAttendee) else { return .none }
        if state.secondsElapsed == state.syncUp.duration.components.seconds {
          state.$syncUp.withLock { _ = $0.meetings.insert(Meeting(id: uuid(), date: date.now, transcript: ""), at: 0) }
          return .run { _ in await dismiss() }
        }
        state.speakerIndex += 1
        return .none
      }
    }
    .ifLet(\.$alert, action: Action.alert)
  }
}

struct AppFeature: Reducer {
  struct Path: Reducer {
    enum State: Equatable, CasePathable {
      case detail(SyncUpDetail.State)
      case record(RecordMeeting.State)
    }
    nonisolated enum Action: Equatable {
      case detail(SyncUpDetail.Action)
      case record(RecordMeeting.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: State.detail, action: Action.detail) { SyncUpDetail() }
      Scope(state: State.record, action: Action.record) { RecordMeeting() }
    }
  }

  struct State: Equatable {
    var path = StackState<Path.State>()
    var syncUpsList = SyncUpsList.State()
  }
  nonisolated enum Action: Equatable {
    case path(StackActionOf<Path>)
    case syncUpsList(SyncUpsList.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.syncUpsList, action: Action.syncUpsList) { SyncUpsList() }
    Reduce { state, action in
      if case let .path(.element(_, .detail(.delegate(.startMeeting(syncUp))))) = action {
        state.path.append(.record(RecordMeeting.State(syncUp: syncUp)))
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Path() }
  }
}
