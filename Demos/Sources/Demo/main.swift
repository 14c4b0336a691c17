import Foundation

// The headless demo host. `swift run demo [COMMAND] [OPTIONS]`; with no command it runs the default flow on
// built-in defaults. `--help` prints the usage (of the command, after one) and exits 0; invalid options print the
// usage and exit 2.

let commands: [any DemoCommand.Type] = [
  ScanCommand.self, CounterCommand.self, GenerateCommand.self, GalleryCommand.self, ReplayCommand.self,
  InspectCommand.self, AnalyzeCommand.self, UploadCommand.self, RemindersCommand.self,
]
let defaultCommand: any DemoCommand.Type = ScanCommand.self
let helpFlags: Set<String> = ["--help", "-h"]

// A file-size limit (`ulimit -f`) reached while writing is a write error the host reports with the file's name,
// not a signal that kills it mid-file.
signal(SIGXFSZ, SIG_IGN)
// A reader that stops early (`demo | head -1`) makes the next write fail with EPIPE instead of killing the host
// before it removes its temporary folder; what is left to print goes nowhere and the run ends as it would.
signal(SIGPIPE, SIG_IGN)

var arguments = Array(CommandLine.arguments.dropFirst())
if let first = arguments.first, helpFlags.contains(first) || first == "help" {
  print(DemoUsage.text(commands: commands, default: defaultCommand))
  exit(0)
}
var command = defaultCommand
if let first = arguments.first, !first.hasPrefix("-") {
  guard let named = commands.first(where: { $0.name == first }) else {
    DemoUsage.fail("unknown command '\(first)'", commands: commands, default: defaultCommand)
  }
  command = named
  arguments.removeFirst()
}
if arguments.contains(where: helpFlags.contains) {
  print(command.usageText)
  exit(0)
}
exit(await command.run(arguments: arguments))
