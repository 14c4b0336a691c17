import Foundation

/// Placeholder until the issue that builds `demo generate` lands.
struct GenerateCommand: DemoCommand {
  static let name = "generate"
  static let summary = "not available yet"
  static let usage = ""

  static func run(arguments: [String]) async -> Int32 {
    FileHandle.standardError.write(Data("demo generate: not available yet\n".utf8))
    return 2
  }
}
