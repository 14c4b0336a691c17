import HTTPTransfer
import Unidirectional

// The HTTP layer knows nothing of the core; here, where the upload feature meets both, the token also renders as
// `<redacted>` in `customDump`, state diffs and `printChanges`.
extension BearerToken: CustomDumpStringConvertible {
  /// Always `<redacted>`.
  public var customDumpDescription: String { "<redacted>" }
}
