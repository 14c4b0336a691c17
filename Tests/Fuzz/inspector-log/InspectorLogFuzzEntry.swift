import Foundation

// libFuzzer's entry point of `Scripts/fuzz inspector-log`; the body is the test target's InspectorLogFuzz, which the
// corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  InspectorLogFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
