import Foundation

// The headless demo host. `swift run demo [COMMAND] [OPTIONS]`; with no command it runs the default flow on
// built-in defaults. Invalid options print usage and exit 2.

let commands: [any DemoCommand.Type] = [
  ScanCommand.self, CounterCommand.self, GenerateCommand.self, GalleryCommand.self, ReplayCommand.self,
]
let defaultCommand: any DemoCommand.Type = ScanCommand.self

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
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
exit(await command.run(arguments: arguments))
