import Foundation

// libFuzzer's entry point of `Scripts/fuzz inspector-trace`; the body is the test target's InspectorTraceFuzz, which the
// corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  InspectorTraceFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
