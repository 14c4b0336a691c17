/// The `User-Agent` every live client sends: the library's name and version, nothing about the host (URLSession on
/// Linux would announce the process name and libcurl's version).
///
/// ```swift
/// request.setValue(UserAgent.value, forHTTPHeaderField: "User-Agent")   // "Unidirectional/0.1.0"
/// ```
public enum UserAgent {
  /// The library's version, as announced.
  public static let version = "0.1.0"
  /// `Unidirectional/<version>`.
  public static let value = "Unidirectional/\(version)"
}
