import Foundation
import XCTest

/// Every committed input of this package's fuzz targets run once through the target's body (the function the
/// fuzzer runs), so a regression of a finding fails here without a fuzzer: a broken property ends the test process
/// with its message (a trap would too). `Scripts/fuzz TARGET --replay` runs the same inputs under the sanitizers.
final class PhotoMetadataFuzzCorpusTests: XCTestCase {
  func testThePhotoMetadataCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "photo-metadata")
    XCTAssertFalse(inputs.isEmpty, "the photo-metadata corpus is empty")
    for input in inputs { PhotoMetadataFuzz.fuzz(input.data) }
  }
}
