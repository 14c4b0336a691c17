import Foundation

/// Where every secret (the backend's bearer token, the image services' keys) and its companion settings come from,
/// in one order, first non-empty value wins:
///
/// 1. a value given explicitly (a host's `--token` option);
/// 2. the environment, each variable name in the order asked for;
/// 3. `./.unidirectional.local.json`, then `~/.config/unidirectional/keys.json`: JSON objects of strings named like
///    the environment variables, each searched for the names in order.
///
/// A file is read only when the sources before it had no value; a value that is only whitespace counts as missing.
///
/// ```swift
/// let sources = SecretSources()
/// // UNIDIRECTIONAL_API_TOKEN, else UPLOAD_API_TOKEN, in the environment, then in each file
/// let token = try sources.value(for: ["UNIDIRECTIONAL_API_TOKEN", "UPLOAD_API_TOKEN"], explicit: tokenOption)
/// print(token?.source ?? "no token")   // "UPLOAD_API_TOKEN in the environment"; never the value
/// ```
public struct SecretSources: Sendable {
  /// The environment variables to look in.
  public var environment: [String: String]
  /// The config files to look in after the environment, first match wins.
  public var configFiles: [URL]

  /// The sources the hosts use: this process's environment and ``defaultConfigFiles``.
  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    configFiles: [URL] = SecretSources.defaultConfigFiles
  ) {
    self.environment = environment
    self.configFiles = configFiles
  }

  /// `./.unidirectional.local.json` (in the current directory), then `~/.config/unidirectional/keys.json` (`$HOME`
  /// first, as shells and tests set it, else the account's home folder). Both are git-ignored by name.
  public static var defaultConfigFiles: [URL] {
    let home =
      ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    return [
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
        ".unidirectional.local.json"),
      home.appendingPathComponent(".config/unidirectional/keys.json"),
    ]
  }

  /// A value found, and where (for messages: the source, never the value).
  public struct Found: Sendable, Equatable {
    /// The value itself.
    public var value: String
    /// Where it came from: `"--token"`, `"UPLOAD_API_TOKEN in the environment"`, `"\"KEY\" in /path/keys.json"`.
    public var source: String

    /// `value`, found in `source`.
    public init(value: String, source: String) {
      self.value = value
      self.source = source
    }
  }

  /// The first non-empty value for `names` (in the order above), or nil when no source has one.
  ///
  /// - Parameters:
  ///   - explicit: a value given on the command line, with the option's name; it wins when non-empty.
  /// - Throws: ``SecretSourceError`` when a config file that had to be read exists but is unreadable or not a JSON
  ///   object of strings; the message never quotes the file's contents.
  public func value(
    for names: [String], explicit: (value: String?, option: String)? = nil
  ) throws(SecretSourceError) -> Found? {
    if let explicit, let value = explicit.value, !Self.isBlank(value) {
      return Found(value: value, source: explicit.option)
    }
    for name in names {
      if let value = environment[name], !Self.isBlank(value) {
        return Found(value: value, source: "\(name) in the environment")
      }
    }
    for file in configFiles where FileManager.default.fileExists(atPath: file.path) {
      let values = try Self.read(file)
      for name in names {
        if let value = values[name], !Self.isBlank(value) {
          return Found(value: value, source: "\"\(name)\" in \(file.path)")
        }
      }
    }
    return nil
  }

  /// Every place ``value(for:explicit:)`` looks for `names`, in order, for a "set one of …" message.
  public func places(for names: [String], explicitOption: String? = nil) -> [String] {
    let variables = names.map { "\($0) in the environment" }
    let files = configFiles.flatMap { file in names.map { "\"\($0)\" in \(file.path)" } }
    return (explicitOption.map { ["pass \($0)"] } ?? []) + variables + files
  }

  private static func isBlank(_ value: String) -> Bool {
    value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  private static func read(_ file: URL) throws(SecretSourceError) -> [String: String] {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw .unreadable(path: file.path, reason: FileErrorReason.words(for: error))
    }
    // The messages never quote the contents: they hold secrets.
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw .notAJSONObject(path: file.path)
    }
    var values: [String: String] = [:]
    for (name, value) in object {
      guard let string = value as? String else { throw .notAString(name: name, path: file.path) }
      values[name] = string
    }
    return values
  }
}

/// A config file of secrets that cannot be used. The description names the file, never its contents.
///
/// ```swift
/// SecretSourceError.notAJSONObject(path: "/home/me/.config/unidirectional/keys.json").description
/// // "/home/me/.config/unidirectional/keys.json is not a JSON object"
/// ```
public enum SecretSourceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists but could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not a JSON object.
  case notAJSONObject(path: String)
  /// An entry's value is not a string.
  case notAString(name: String, path: String)

  /// What is wrong, naming the file.
  public var description: String {
    switch self {
    case let .unreadable(path, reason): "\(path) could not be read: \(reason)"
    case let .notAJSONObject(path): "\(path) is not a JSON object"
    case let .notAString(name, path): "\"\(name)\" in \(path) is not a string"
    }
  }
}
