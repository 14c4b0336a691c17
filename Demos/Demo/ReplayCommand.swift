import Foundation

/// Placeholder until the issue that builds `demo replay` lands.
struct ReplayCommand: DemoCommand {
  static let name = "replay"
  static let summary = "not available yet"
  static let usage = ""

  static func run(arguments: [String]) async -> Int32 {
    FileHandle.standardError.write(Data("demo replay: not available yet\n".utf8))
    return 2
  }
}
