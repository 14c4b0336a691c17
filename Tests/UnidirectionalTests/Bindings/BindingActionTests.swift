import Unidirectional
import XCTest

private struct Profile: Equatable {
  var name = ""
  var nickname = ""
  var age = 0
  var bio: String?
  var address = Address()
  var initials: String {
    get { String(name.prefix(1)) }
    set { name = newValue + name.dropFirst() }
  }

  struct Address: Equatable {
    var city = ""
  }
}

private enum ProfileAction: BindableAction, Equatable {
  case binding(BindingAction<Profile>)
  case saveTapped
  case renamed(String)
  indirect case nested(ProfileAction)
}

/// A bindable action whose binding case has another name, with `binding` written by hand.
private enum RenamedCaseAction: BindableAction {
  case field(BindingAction<Profile>)
  case other

  static func binding(_ action: BindingAction<Profile>) -> Self { .field(action) }
  var binding: BindingAction<Profile>? { if case let .field(action) = self { action } else { nil } }
}

/// What `BindingAction` is: a key path and a value, compared as such, matched by key path, dumped readably.
final class BindingActionTests: XCTestCase {
  func testEqualBindingActionsWriteTheSameFieldWithEqualValues() {
    XCTAssertEqual(BindingAction<Profile>.set(\.name, "Blob"), .set(\.name, "Blob"))
    XCTAssertNotEqual(BindingAction<Profile>.set(\.name, "Blob"), .set(\.name, "Blob Jr."))
    // Same value type and value, another field.
    XCTAssertNotEqual(BindingAction<Profile>.set(\.name, "Blob"), .set(\.nickname, "Blob"))
    // A nested field is not the field that holds it.
    XCTAssertNotEqual(
      BindingAction<Profile>.set(\.address.city, "Paris"), .set(\.address, Profile.Address(city: "Paris")))
    XCTAssertEqual(BindingAction<Profile>.set(\.bio, nil), .set(\.bio, nil))
    XCTAssertNotEqual(BindingAction<Profile>.set(\.bio, nil), .set(\.bio, ""))
  }

  func testTheActionKeepsItsKeyPathAndValue() {
    let action = BindingAction<Profile>.set(\.age, 42)
    XCTAssertEqual(action.keyPath, \Profile.age)
    XCTAssertEqual(action.value as? Int, 42)
  }

  func testAKeyPathPatternMatchesEveryWriteOfThatFieldOnly() {
    func branch(_ action: ProfileAction) -> String {
      switch action {
      case .binding(.set(\.name, "Admin")): "exactly admin"
      case .binding(\.name): "name"
      case .binding(\.address.city): "city"
      case .binding: "another field"
      case .saveTapped, .renamed, .nested: "not a binding"
      }
    }
    XCTAssertEqual(branch(.binding(.set(\.name, "Admin"))), "exactly admin")
    XCTAssertEqual(branch(.binding(.set(\.name, "Blob"))), "name")
    XCTAssertEqual(branch(.binding(.set(\.address.city, "Paris"))), "city")
    XCTAssertEqual(branch(.binding(.set(\.address, Profile.Address(city: "Paris")))), "another field")
    XCTAssertEqual(branch(.binding(.set(\.nickname, "Blob"))), "another field")
    XCTAssertEqual(branch(.saveTapped), "not a binding")
  }

  func testSetOnTheActionIsTheBindingCase() {
    XCTAssertEqual(ProfileAction.set(\.name, "Blob"), .binding(.set(\.name, "Blob")))
  }

  func testTheBindingCaseIsFoundWithoutBeingWrittenOut() {
    XCTAssertEqual(ProfileAction.binding(.set(\.age, 3)).binding, .set(\.age, 3))
    XCTAssertNil(ProfileAction.saveTapped.binding)
    XCTAssertNil(ProfileAction.renamed("Blob").binding)
    // The binding of a nested action is not this action's binding.
    XCTAssertNil(ProfileAction.nested(.binding(.set(\.age, 3))).binding)
  }

  func testAHandWrittenBindingIsUsedForACaseOfAnotherName() {
    var profile = Profile()
    _ = BindingReducer<Profile, RenamedCaseAction, RenamedCaseAction>()
      .reduce(into: &profile, action: .set(\.name, "Blob"))
    XCTAssertEqual(profile.name, "Blob")
    XCTAssertNil(RenamedCaseAction.other.binding)
  }

  func testACasePathForAFieldEmbedsAndExtractsItsWrites() {
    let name = CasePath<ProfileAction, String>.binding(\.name)
    XCTAssertEqual(name.embed("Blob"), .binding(.set(\.name, "Blob")))
    XCTAssertEqual(name.extract(.binding(.set(\.name, "Blob"))), "Blob")
    XCTAssertNil(name.extract(.binding(.set(\.nickname, "Blob"))))
    XCTAssertNil(name.extract(.saveTapped))
  }

  func testACasePathForAFieldOfANestedViewAction() {
    let nested = CasePath<ProfileAction, ProfileAction>(ProfileAction.nested) {
      if case let .nested(action) = $0 { action } else { nil }
    }
    let city = nested.binding(\.address.city)
    XCTAssertEqual(city.embed("Paris"), .nested(.binding(.set(\.address.city, "Paris"))))
    XCTAssertEqual(city.extract(.nested(.binding(.set(\.address.city, "Paris")))), "Paris")
    XCTAssertNil(city.extract(.binding(.set(\.address.city, "Paris"))))
    XCTAssertNil(city.extract(.nested(.binding(.set(\.name, "Paris")))))
  }

  func testADumpNamesTheRootTypeTheFieldAndTheValue() {
    XCTAssertEqual(
      describe(ProfileAction.binding(.set(\.address.city, "Paris"))),
      #"ProfileAction.binding(.set(\Profile.address.city, "Paris"))"#)
    XCTAssertEqual(
      describe(BindingAction<Profile>.set(\.address, Profile.Address(city: "Paris"))),
      #".set(\Profile.address, Profile.Address(city: "Paris"))"#)
  }

  /// A computed property's key path describes itself with an address that changes every run: a dump must not.
  func testADumpOfAComputedFieldIsTheSameEveryRun() {
    let text = describe(BindingAction<Profile>.set(\.initials, "B"))
    XCTAssertFalse(text.contains("0x"), text)
    XCTAssertTrue(text.hasPrefix(#".set(\Profile."#), text)
    XCTAssertTrue(text.hasSuffix(#", "B")"#), text)
  }
}
