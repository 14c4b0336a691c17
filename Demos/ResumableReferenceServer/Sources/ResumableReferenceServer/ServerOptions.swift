import Foundation

/// The command line of the reference server.
///
/// ```
/// ResumableReferenceServer --storage DIR [--port 0] [--origin http://127.0.0.1:PORT] [--timeout SECONDS]
///                          [--drop-after BYTES[,BYTES…]]
/// ```
///
/// It always binds 127.0.0.1. `--port 0` (the default) takes a free port; the origin written into `Location` defaults
/// to `http://127.0.0.1:<bound port>`.
struct ServerOptions {
  var storage: URL
  var port: Int = 0
  var origin: String?
  /// How long an interrupted upload waits for its resumption before the server drops it.
  var resumptionTimeoutSeconds: Int64 = 3600
  /// Fault hook: close the connection that brings the server's total of received bytes past each of these.
  var dropAfter: [Int64] = []

  static let usage = """
    usage: ResumableReferenceServer --storage DIR [--port N] [--origin URL] [--timeout SECONDS]
                                    [--drop-after BYTES[,BYTES...]]
    """

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  init(arguments: [String]) throws {
    var storage: String?
    var index = 0
    func value(_ name: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw Invalid(description: "\(name) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--storage":
        storage = try value(argument)
      case "--port":
        let raw = try value(argument)
        guard let port = Int(raw), (0...65535).contains(port) else {
          throw Invalid(description: "--port must be 0...65535, got \(raw)")
        }
        self.port = port
      case "--origin":
        let raw = try value(argument)
        guard let url = URL(string: raw), url.scheme == "http" || url.scheme == "https", url.host != nil,
          url.path.isEmpty
        else {
          throw Invalid(description: "--origin must be scheme://host[:port] without a path, got \(raw)")
        }
        self.origin = raw
      case "--timeout":
        let raw = try value(argument)
        guard let seconds = Int64(raw), seconds > 0 else {
          throw Invalid(description: "--timeout must be a positive number of seconds, got \(raw)")
        }
        self.resumptionTimeoutSeconds = seconds
      case "--drop-after":
        let raw = try value(argument)
        let points = raw.split(separator: ",").map { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard !points.isEmpty, points.allSatisfy({ ($0 ?? 0) > 0 }) else {
          throw Invalid(description: "--drop-after takes positive byte counts separated by commas, got \(raw)")
        }
        self.dropAfter = points.compactMap { $0 }.sorted()
      default:
        throw Invalid(description: "unknown argument \(argument)")
      }
      index += 1
    }
    guard let storage else { throw Invalid(description: "--storage DIR is required") }
    self.storage = URL(fileURLWithPath: storage, isDirectory: true).standardizedFileURL
  }
}
