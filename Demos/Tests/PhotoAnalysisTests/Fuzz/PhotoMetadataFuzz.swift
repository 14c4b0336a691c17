import Foundation

@testable import PhotoAnalysis

/// The body of `Scripts/fuzz photo-metadata`, run by the corpus test over every committed input too: the input is a
/// picked file's bytes, read by ``PhotoMetadataReader`` (EXIF in JPEG, PNG `eXIf`, TIFF) and scored
/// (``PhotoAnalysisReport``). `Scripts/fuzz` builds it with the reader's and the score's sources only.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`; any trap, sanitizer
/// report, leak or timeout is a crash too): metadata or a typed error; a score from 0 to 100 and no flag twice; dates
/// that print.
///
/// ```swift
/// PhotoMetadataFuzz.fuzz(Data(contentsOf: corpusFile))
/// ```
enum PhotoMetadataFuzz {
  static func fuzz(_ data: Data) {
    do {
      let metadata = try PhotoMetadataReader.read([UInt8](data))
      let report = PhotoAnalysisReport(metadata: metadata)
      fuzzRequire((0...100).contains(report.score), "score \(report.score) out of range")
      fuzzRequire(Set(report.flags).count == report.flags.count, "duplicate flags \(report.flags)")
      _ = metadata.captureDate?.description
      _ = metadata.modificationDate?.description
    } catch {
      _ = error.description
    }
  }
}
