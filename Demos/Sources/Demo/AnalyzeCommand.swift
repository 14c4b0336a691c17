import Features
import Foundation
import Unidirectional

/// `demo analyze FILE_OR_DIR… [--json]`: runs ``PhotoAnalysisFeature`` on the live reader over the files (a folder
/// stands for the files directly in it, sorted by name) and prints one report per file: its metadata, originality
/// score and flags, or its error. Exit 1 if any file failed, 2 on usage errors. Text read from the photos goes
/// through ``TerminalText`` (a Make tag holding an escape sequence is printed spelled out, not run).
struct AnalyzeCommand: DemoCommand {
  static let name = "analyze"
  static let summary = "read each photo's EXIF/GPS metadata and score its originality"
  static let synopsis = "demo analyze FILE_OR_DIR… [--json]"
  static let usage = """
    FILE_OR_DIR…    photos (JPEG, PNG, TIFF) or folders of photos (the files directly in them)
    --json          one JSON object per line: every field (null when absent), score, flags, or the error
    """

  static func run(arguments: [String]) async -> Int32 {
    let paths: [String]
    let json: Bool
    do {
      let parsed = try OptionParser(arguments, valueOptions: [], flagOptions: ["--json"])
      guard !parsed.positional.isEmpty else { throw UsageError("FILE_OR_DIR is required") }
      paths = parsed.positional
      json = parsed.flags.contains("--json")
    } catch {
      return usageFailure(error)
    }

    var failed = false
    var files: [URL] = []
    for path in paths {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
        let folder = URL(fileURLWithPath: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let found = names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
          .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        if found.isEmpty {
          FileHandle.standardError.write(Data("demo analyze: \(TerminalText.line(path)) has no files\n".utf8))
          failed = true
        }
        files += found
      } else {
        files.append(URL(fileURLWithPath: path))
      }
    }

    let store = Store(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.photoMetadata = .live
    }
    if !files.isEmpty {
      await store.send(.photosPicked(files.map(PickedImage.init))).finish()
    }
    for photo in store.state.photos {
      if case .failed = photo.status { failed = true }
      print(json ? jsonLine(photo) : text(photo))
    }
    return failed ? 1 : 0
  }

  /// A readable report: the file and its score, then the fields it has, then the flags; every text from outside
  /// escaped and kept to one line.
  static func text(_ photo: PhotoAnalysisFeature.Photo) -> String {
    let path = TerminalText.line(photo.image.fileURL.relativePath)
    switch photo.status {
    case let .analysed(report):
      let metadata = report.metadata
      var lines = ["\(path): originality \(report.score)/100"]
      var format = metadata.container.rawValue.uppercased()
      if let width = metadata.pixelWidth, let height = metadata.pixelHeight { format += " \(width)×\(height)" }
      if !metadata.hasExif { format += ", no EXIF" }
      lines.append("  image: \(format)")
      let fields: [(String, String?)] = [
        ("camera", metadata.camera ?? metadata.make ?? metadata.model),
        ("lens", [metadata.lensMake, metadata.lensModel].compactMap { $0 }.joined(separator: " ").nilIfEmpty),
        ("software", metadata.software),
        ("captured", metadata.captureDate?.description),
        ("modified", metadata.modificationDate?.description),
        ("orientation", metadata.orientation.map(String.init)),
        ("location", location(metadata)),
      ]
      for case let (name, value?) in fields { lines.append("  \(name): \(TerminalText.line(value))") }
      lines.append(contentsOf: report.flags.map { "  \($0.kind.rawValue): \(TerminalText.line($0.message))" })
      return lines.joined(separator: "\n")
    case let .failed(error):
      return "\(path): ✗ \(TerminalText.line(error.description))"
    case .analysing, .cancelled:
      return "\(path): \(photo.status.text)"
    }
  }

  private static func location(_ metadata: PhotoMetadata) -> String? {
    var parts: [String] = []
    if let latitude = metadata.latitude, let longitude = metadata.longitude {
      parts.append(String(format: "%.6f, %.6f", latitude, longitude))
    }
    if let altitude = metadata.altitude { parts.append(String(format: "%.1f m", altitude.signedMeters)) }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// One JSON object: `file`, every metadata field (null when absent), `score`, `flags` and `error`.
  static func jsonLine(_ photo: PhotoAnalysisFeature.Photo) -> String {
    var object: [String: Any] = ["file": photo.image.fileURL.relativePath]
    let report: PhotoAnalysisReport? = if case let .analysed(report) = photo.status { report } else { nil }
    let metadata = report?.metadata
    func value(_ value: Any?) -> Any { value ?? NSNull() }
    object["container"] = value(metadata?.container.rawValue)
    object["hasExif"] = value(metadata?.hasExif)
    object["make"] = value(metadata?.make)
    object["model"] = value(metadata?.model)
    object["lensMake"] = value(metadata?.lensMake)
    object["lensModel"] = value(metadata?.lensModel)
    object["software"] = value(metadata?.software)
    object["pixelWidth"] = value(metadata?.pixelWidth)
    object["pixelHeight"] = value(metadata?.pixelHeight)
    object["captureDate"] = value(metadata?.captureDate?.description)
    object["modificationDate"] = value(metadata?.modificationDate?.description)
    object["orientation"] = value(metadata?.orientation)
    object["latitude"] = value(metadata?.latitude)
    object["longitude"] = value(metadata?.longitude)
    object["altitude"] = value(metadata?.altitude?.signedMeters)
    object["altitudeReference"] = value(metadata?.altitude?.reference.rawValue)
    object["score"] = value(report?.score)
    object["flags"] = report?.flags.map { ["kind": $0.kind.rawValue, "message": $0.message] } ?? []
    switch photo.status {
    case let .failed(error): object["error"] = ["kind": error.kind, "message": error.description]
    case .cancelled: object["error"] = ["kind": "cancelled", "message": "cancelled"]
    case .analysing, .analysed: object["error"] = NSNull()
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
