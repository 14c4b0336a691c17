import Foundation

// libFuzzer's entry point of `Scripts/fuzz inspector-live`; the body is the test target's InspectorLiveFuzz, which
// the corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  InspectorLiveFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
