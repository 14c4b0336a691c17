import Foundation

/// The CRC-32 (ISO-HDLC, as in ZIP, PNG and zlib) of bytes fed in pieces, so a file never sits in memory whole.
///
/// ```swift
/// var crc = CRC32()
/// crc.update(Data("1234".utf8))
/// crc.update(Data("56789".utf8))
/// crc.value   // 0xCBF43926, the check value of "123456789"
/// ```
public struct CRC32: Hashable, Sendable {
  private var state: UInt32 = 0xFFFF_FFFF

  /// A checksum of no bytes.
  public init() {}

  /// The checksum of the bytes seen so far.
  public var value: UInt32 { state ^ 0xFFFF_FFFF }

  /// The checksum of `data` alone.
  public static func checksum(_ data: Data) -> UInt32 {
    var crc = CRC32()
    crc.update(data)
    return crc.value
  }

  /// Adds `data` to the checksummed bytes.
  public mutating func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  /// Adds the bytes in `buffer` to the checksummed bytes.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    var crc = state
    Self.table.withUnsafeBufferPointer { table in
      for byte in buffer {
        crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
      }
    }
    state = crc
  }

  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 {
      value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
    return value
  }
}
