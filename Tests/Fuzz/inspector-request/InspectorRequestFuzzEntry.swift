import Foundation

// libFuzzer's entry point of `Scripts/fuzz inspector-request`; the body is the test target's InspectorRequestFuzz, which
// the corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  InspectorRequestFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
