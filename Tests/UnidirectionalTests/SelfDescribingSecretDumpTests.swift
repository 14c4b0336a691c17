import Testing
import Unidirectional

/// A type that hides its fields and describes itself — a secret that prints `<redacted>`, declared in a module that
/// knows nothing of this library — is dumped, diffed and printed by its description, with no conformance to
/// `CustomDumpStringConvertible` needed anywhere.
struct SelfDescribingSecretDumpTests {
  /// Like the HTTP layer's bearer token: Foundation only, no fields shown, `<redacted>` when printed.
  struct Token: CustomStringConvertible, CustomReflectable {
    let secret: String
    var description: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
  }

  struct Session: Equatable {
    var user = "blob"
    var token = Token(secret: "s3cr3t")

    static func == (lhs: Session, rhs: Session) -> Bool { lhs.user == rhs.user }
  }

  @Test func aSelfDescribingSecretIsDumpedByItsDescription() {
    let dumped = customDump(Session())
    #expect(dumped.contains("token: <redacted>"))
    #expect(!dumped.contains("s3cr3t"))
  }

  @Test func anEmptyStructThatDoesNotDescribeItselfStillShowsItsType() {
    struct Marker {}
    #expect(customDump(Marker()).hasSuffix("Marker()"))
  }
}
