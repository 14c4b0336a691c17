import Foundation

/// One subcommand of the demo host.
protocol DemoCommand {
  /// The word that selects it: `swift run demo NAME`.
  static var name: String { get }
  /// One line for the usage text.
  static var summary: String { get }
  /// Its options, one per line, for the usage text.
  static var usage: String { get }
  /// Runs it; returns the process exit code (2 for invalid options).
  static func run(arguments: [String]) async -> Int32
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
            guard index + 1 < arguments.count else { throw UsageError("option \(name) needs a value") }
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

/// Invalid command-line input: printed with the usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
