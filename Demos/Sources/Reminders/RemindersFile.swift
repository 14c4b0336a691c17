import Foundation
import Unidirectional

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<Reminder>>.Default {
  /// The reminders, kept as JSON in `reminders.json` in the user's documents folder (in memory in tests and
  /// previews), starting empty.
  ///
  /// ```swift
  /// @Shared(.reminders) var reminders
  /// ```
  public static var reminders: Self {
    Self[.fileStorage(RemindersFile.defaultURL), default: []]
  }

  /// The reminders kept in the file at `url`: what a host that chooses its own folder uses.
  public static func reminders(at url: URL) -> Self {
    Self[.fileStorage(url), default: []]
  }
}

/// Where the reminders are kept by default.
public enum RemindersFile {
  /// `reminders.json` in the user's documents folder.
  public static var defaultURL: URL {
    let documents =
      FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Documents", isDirectory: true)
    return documents.appendingPathComponent("reminders.json")
  }
}
