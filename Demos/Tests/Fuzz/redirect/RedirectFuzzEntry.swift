import Foundation

// libFuzzer's entry point of `Scripts/fuzz redirect`; the body is the test target's RedirectFuzz, which the
// corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  RedirectFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
