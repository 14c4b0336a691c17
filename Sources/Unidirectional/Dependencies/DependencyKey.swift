/// A key for a value in ``DependencyValues`` that has test and preview values, but may have no live one: the
/// interface of a client declared in a module that does not implement it (as in TCA). A key used in a live context
/// without a live value reports an issue and falls back to `previewValue`.
///
/// ```swift
/// extension APIClient: TestDependencyKey {
///   static let testValue = APIClient.unimplemented
/// }
/// ```
public protocol TestDependencyKey<Value> {
  /// The type of the dependency: the conforming type itself by default (`@Dependency(APIClient.self)`).
  associatedtype Value: Sendable = Self
  /// The value used in previews and demos.
  static var previewValue: Value { get }
  /// The value used in tests.
  static var testValue: Value { get }
}

extension TestDependencyKey {
  public static var previewValue: Value { testValue }
}

/// A key for a value in ``DependencyValues``, with the value to use live, in previews and in tests.
///
/// ```swift
/// struct APIClientKey: DependencyKey {
///   static let liveValue = APIClient.live
///   static let previewValue = APIClient.preview
///   static let testValue = APIClient.unimplemented   // fails the test when called
/// }
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// A type can be its own key, read as `@Dependency(APIClient.self)` with no `DependencyValues` property:
///
/// ```swift
/// extension APIClient: DependencyKey {
///   static let liveValue = APIClient.live
///   static let testValue = APIClient.unimplemented
/// }
/// ```
///
/// A key that gives no `testValue` has no safe value for tests: using it in a test context without an override
/// reports a test failure naming the key, then falls back to `previewValue`.
public protocol DependencyKey<Value>: TestDependencyKey {
  /// The value used when the program runs for real.
  static var liveValue: Value { get }

  // Repeated from TestDependencyKey: the compiler does not infer an associated type's default, nor `Value` from
  // `liveValue`, through a refined protocol (swiftlang/swift#61077).
  associatedtype Value = Self
  /// The value used in previews and demos; defaults to `liveValue`.
  static var previewValue: Value { get }
  /// The value used in tests; by default, reports that the test must override the dependency.
  static var testValue: Value { get }
}

extension DependencyKey {
  public static var previewValue: Value { liveValue }

  public static var testValue: Value {
    reportIssue(
      """
      @Dependency(\(Self.self)) has no test value and was used without an override. \
      Override it in the test (TestStore(…) { $0.… = … } or withDependencies), or give \(Self.self) a testValue.
      """
    )
    return previewValue
  }
}

/// Which default values ``DependencyValues`` hands out for keys that were not overridden.
public enum DependencyContext: String, Sendable, Hashable {
  /// `liveValue`: the real implementation.
  case live
  /// `previewValue`: canned or simulated behaviour for previews and demos.
  case preview
  /// `testValue`: values that fail the test when used without an override.
  case test

  /// The context of this process: `test` when running under XCTest or Swift Testing, `live` otherwise.
  /// The environment variable `UNIDIRECTIONAL_CONTEXT` (`live`, `preview` or `test`) overrides the detection.
  public static let detected: DependencyContext = {
    let environment = ProcessInfo.processInfo.environment
    if let name = environment["UNIDIRECTIONAL_CONTEXT"], let context = DependencyContext(rawValue: name) {
      return context
    }
    let testEnvironmentKeys = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
    if testEnvironmentKeys.contains(where: { environment[$0] != nil }) { return .test }
    let arguments = CommandLine.arguments
    if let program = arguments.first, program.hasSuffix(".xctest") || program.hasSuffix("xctest") { return .test }
    if arguments.contains("--testing-library") { return .test }
    return .live
  }()
}

import Foundation
