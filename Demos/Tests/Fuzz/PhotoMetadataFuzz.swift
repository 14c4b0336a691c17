// libFuzzer entry point for the photo metadata reader: built by Scripts/fuzz-photo-metadata with
// `swiftc -sanitize=fuzzer,address` from this file and the reader's and score's sources (not part of Package.swift).
// Any trap, sanitizer report, leak or timeout is a crash; every input must end in metadata or a typed error.

@_cdecl("LLVMFuzzerTestOneInput")
public func photoMetadataFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let metadata = try PhotoMetadataReader.read(bytes)
    let report = PhotoAnalysisReport(metadata: metadata)
    precondition((0...100).contains(report.score), "score out of range")
    precondition(Set(report.flags).count == report.flags.count, "duplicate flags")
    _ = metadata.captureDate?.description
    _ = metadata.modificationDate?.description
  } catch {
    _ = error.description
  }
  return 0
}
