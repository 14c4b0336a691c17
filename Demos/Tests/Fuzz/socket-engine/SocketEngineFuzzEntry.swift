import Foundation

// libFuzzer's entry point of `Scripts/fuzz socket-engine`; the body is the test target's SocketEngineFuzz, which the
// corpus test runs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  SocketEngineFuzz.fuzz(bytes.map { Data(bytes: $0, count: count) } ?? Data())
  return 0
}
