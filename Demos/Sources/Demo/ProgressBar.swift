import Features
import Foundation

/// A progress bar for the demo host: redrawn in place (`\r`) when standard output is a terminal; otherwise one
/// plain line per tenth of the way, so logs and pipes get readable lines instead of carriage returns.
///
/// ```swift
/// var bar = ProgressBar(label: "upload", console: console)
/// bar.update(fraction: 0.42, detail: "72.0 KB / 171.2 KB  42%  410.2 KB/s")
/// bar.finish(detail: "171.2 KB / 171.2 KB  100%  402.0 KB/s")
/// ```
struct ProgressBar {
  /// The word before the bar.
  let label: String
  /// Where the bar goes.
  let console: Console
  /// How many cells the bar has.
  var width = 24
  /// The last tenth printed as a plain line (-1: none yet).
  private var lastPlainTenth = -1
  private var isFinished = false

  /// A bar labelled `label` writing to `console`.
  init(label: String, console: Console) {
    self.label = label
    self.console = console
  }

  /// Shows `fraction` (0…1) with `detail` after the bar.
  mutating func update(fraction: Double, detail: String) {
    guard !isFinished else { return }
    let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
    if console.isTerminal {
      console.redraw(render(clamped, detail))
    } else {
      let tenth = Int(clamped * 10)
      guard tenth > lastPlainTenth else { return }
      lastPlainTenth = tenth
      console.line("\(label): \(detail)")
    }
  }

  /// Shows the final state and ends the bar's line.
  mutating func finish(detail: String) {
    guard !isFinished else { return }
    if console.isTerminal {
      console.redraw(render(1, detail))
      console.endRedraw()
    } else if lastPlainTenth < 10 {
      console.line("\(label): \(detail)")
    }
    isFinished = true
  }

  /// The work continues after an interruption: as a plain line, the next update (or the finish) is printed again,
  /// so a log shows the resumption even when the bar had already reached its end (bytes handed to the network
  /// before the connection dropped count towards it).
  mutating func resumed() {
    lastPlainTenth = -1
  }

  /// Ends the bar where it is (the work stopped): a terminal keeps the last drawing, a pipe gets nothing more.
  mutating func abandon() {
    guard !isFinished else { return }
    if console.isTerminal { console.endRedraw() }
    isFinished = true
  }

  /// `upload  [██████░░░░░░]  detail`.
  private func render(_ fraction: Double, _ detail: String) -> String {
    let filled = Int((fraction * Double(width)).rounded(.down))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    return "\(label)  [\(bar)]  \(detail)"
  }

  /// `171.2 KB`: bytes in decimal units with one decimal.
  static func bytes(_ count: Int64) -> String {
    let value = Double(count)
    switch value {
    case ..<1_000: return "\(count) B"
    case ..<1_000_000: return String(format: "%.1f KB", value / 1_000)
    case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
    default: return String(format: "%.2f GB", value / 1_000_000_000)
    }
  }

  /// `60 s`, `2.5 s`: a number of seconds for a message.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }

  /// `410.2 KB/s`, or `—` before any time has passed.
  static func rate(_ count: Int64, over elapsed: Duration) -> String {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    guard seconds > 0.000_1 else { return "— B/s" }
    return bytes(Int64(Double(count) / seconds)) + "/s"
  }
}

/// The demo host's standard output: whole lines, and in a terminal one line redrawn in place (a progress bar).
/// Safe to use from several threads (the Ctrl-C handler writes too); every write is flushed at once.
final class Console: @unchecked Sendable {
  /// Whether standard output is a terminal (progress bars redraw) or a pipe/file (plain lines).
  let isTerminal: Bool
  /// Secrets the host holds (a bearer token): replaced by `<redacted>` in every line, should a server echo one.
  private let redactor: SecretRedactor
  private let lock = NSLock()
  private var isRedrawing = false

  /// The console on standard output, never printing any of `secrets` (by ``SecretRedactor``'s rule: those of at
  /// least ``SecretRedactor/minimumLength`` characters; a shorter one could not be told from ordinary words, and
  /// redacting it would garble every line).
  init(isTerminal: Bool = isatty(STDOUT_FILENO) == 1, redacting secrets: [String] = []) {
    self.isTerminal = isTerminal
    self.redactor = SecretRedactor(secrets: secrets)
  }

  /// Writes `text` as a line of its own (ending a bar being redrawn first). Lines quote outside text (a script's
  /// failure reason, a server's message), so control characters are escaped, a huge line is shortened and known
  /// secrets are redacted.
  func line(_ text: String) {
    let safe = TerminalText.line(redactor.redact(text))
    lock.withLock {
      if isRedrawing {
        write("\n")
        isRedrawing = false
      }
      write(safe + "\n")
    }
  }

  /// Replaces the line being redrawn with `text` (terminals only).
  func redraw(_ text: String) {
    lock.withLock {
      write("\r\u{1B}[2K" + text)
      isRedrawing = true
    }
  }

  /// Ends the line being redrawn.
  func endRedraw() {
    lock.withLock {
      if isRedrawing { write("\n") }
      isRedrawing = false
    }
  }

  /// Writes `text`; a reader that has gone away (EPIPE) is not an error worth stopping for.
  private func write(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  }
}
