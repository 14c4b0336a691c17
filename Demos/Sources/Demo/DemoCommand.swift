import Foundation

/// One subcommand of the demo host.
protocol DemoCommand {
  /// The word that selects it: `swift run demo NAME`.
  static var name: String { get }
  /// One line for the usage text.
  static var summary: String { get }
  /// How it is called, after `usage: `: `demo generate --prompt TEXT [OPTIONS]`.
  static var synopsis: String { get }
  /// Its options, one per line, for the usage text.
  static var usage: String { get }
  /// Runs it; returns the process exit code (2 for invalid options).
  static func run(arguments: [String]) async -> Int32
}

extension DemoCommand {
  /// Its own usage: the synopsis, then the options indented. Printed by `demo NAME --help` and after an invalid
  /// option.
  static var usageText: String {
    "usage: \(synopsis)\n" + usage.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
  }

  /// Prints `error` and the usage text to standard error; returns the exit status for invalid options, 2.
  static func usageFailure(_ error: any Error) -> Int32 {
    FileHandle.standardError.write(Data("demo \(name): \(error)\n\n\(usageText)\n".utf8))
    return 2
  }
}

enum DemoUsage {
  static func text(commands: [any DemoCommand.Type], default defaultCommand: any DemoCommand.Type) -> String {
    var lines = ["usage: demo [COMMAND] [OPTIONS]", "", "commands:"]
    for command in commands {
      let marker = command == defaultCommand ? " (default)" : ""
      lines.append("  \(command.name)\(marker): \(command.summary)")
      lines.append(contentsOf: command.usage.split(separator: "\n").map { "      " + $0 })
    }
    return lines.joined(separator: "\n")
  }

  /// Prints `message` and the usage text to standard error and exits with status 2.
  static func fail(
    _ message: String, commands: [any DemoCommand.Type], default defaultCommand: any DemoCommand.Type
  ) -> Never {
    FileHandle.standardError.write(
      Data("demo: \(message)\n\n\(text(commands: commands, default: defaultCommand))\n".utf8))
    exit(2)
  }
}

/// Reads `--name value` options and flags from a command's arguments, reporting what is invalid.
struct OptionParser {
  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positional: [String] = []

  /// Parses `arguments`, accepting `valueOptions` (which take a value) and `flagOptions` (which don't).
  init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String> = []) throws(UsageError) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("--") {
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "=") {
          name = String(argument[..<equals])
          inlineValue = String(argument[argument.index(after: equals)...])
        }
        if flagOptions.contains(name), inlineValue == nil {
          flags.insert(name)
        } else if valueOptions.contains(name) {
          if let inlineValue {
            values[name] = inlineValue
          } else {
            // `--prompt --samples 2` forgot the prompt: an option name is never taken as a value.
            guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
              throw UsageError("option \(name) needs a value (for a value starting with --, write \(name)=VALUE)")
            }
            index += 1
            values[name] = arguments[index]
          }
        } else {
          throw UsageError("unknown option \(name)")
        }
      } else {
        positional.append(argument)
      }
      index += 1
    }
  }
}

extension OptionParser {
  /// The value of the seconds option `name` (`--timeout 2.5`), or nil when absent.
  ///
  /// - Throws: a ``UsageError`` unless it is a number of seconds above 0 and at most an hour.
  func seconds(_ name: String) throws(UsageError) -> Double? {
    guard let text = values[name] else { return nil }
    guard let seconds = Double(text), seconds > 0, seconds <= 3_600 else {
      throw UsageError("\(name) must be seconds from 0 to 3600, not \(text)")
    }
    return seconds
  }
}

/// Invalid command-line input: printed with the usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
