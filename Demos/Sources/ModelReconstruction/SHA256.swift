import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift, for checking that uploaded bytes arrived unchanged.
///
/// Feed it incrementally (a file in chunks never sits in memory whole), or hash a buffer or a file at once.
///
/// ```swift
/// SHA256.hash(Data("abc".utf8)).hex
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
///
/// var hasher = SHA256()
/// hasher.update(Data("ab".utf8))
/// hasher.update(Data("c".utf8))
/// let digest = hasher.finalize()      // the same digest
/// let fileDigest = try SHA256.hash(fileAt: url)
/// ```
public struct SHA256: Sendable {
  /// A 32-byte SHA-256 digest.
  ///
  /// ```swift
  /// SHA256.hash(Data()).hex   // "e3b0c442…b855"
  /// ```
  public struct Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// The digest as 64 lowercase hexadecimal digits.
    public var hex: String {
      let digits = Array("0123456789abcdef".utf8)
      var text: [UInt8] = []
      text.reserveCapacity(64)
      for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
      }
      return String(decoding: text, as: UTF8.self)
    }

    /// The hexadecimal digest.
    public var description: String { hex }
  }

  private var h0: UInt32 = 0x6a09_e667
  private var h1: UInt32 = 0xbb67_ae85
  private var h2: UInt32 = 0x3c6e_f372
  private var h3: UInt32 = 0xa54f_f53a
  private var h4: UInt32 = 0x510e_527f
  private var h5: UInt32 = 0x9b05_688c
  private var h6: UInt32 = 0x1f83_d9ab
  private var h7: UInt32 = 0x5be0_cd19
  /// Bytes of an incomplete block waiting for more input.
  private var pending: [UInt8] = []
  private var byteCount: UInt64 = 0

  /// A hasher that has seen no bytes.
  public init() {}

  /// Hashes `data` in one call.
  public static func hash(_ data: Data) -> Digest {
    var hasher = SHA256()
    hasher.update(data)
    return hasher.finalize()
  }

  /// Hashes the file at `url`, reading it in 1 MiB chunks.
  public static func hash(fileAt url: URL) throws -> Digest {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      hasher.update(chunk)
    }
    return hasher.finalize()
  }

  /// Adds `data` to the hashed message.
  public mutating func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  /// Adds `bytes` to the hashed message.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Adds the bytes in `buffer` to the hashed message.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    byteCount &+= UInt64(buffer.count)
    var offset = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, buffer.count)
      pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
      offset = take
      guard pending.count == 64 else { return }
      let block = pending
      block.withUnsafeBytes { compress(blocks: $0.baseAddress.unsafelyUnwrapped, count: 1) }
      pending.removeAll(keepingCapacity: true)
    }
    let wholeBlocks = (buffer.count - offset) / 64
    if wholeBlocks > 0 {
      compress(blocks: base + offset, count: wholeBlocks)
      offset += wholeBlocks * 64
    }
    if offset < buffer.count {
      pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: buffer.count - offset))
    }
  }

  /// Pads the message and returns its digest. Further updates start from this state, so use a fresh hasher.
  public mutating func finalize() -> Digest {
    let bitLength = byteCount &* 8
    var tail: [UInt8] = [0x80]
    let used = (pending.count + 1) % 64
    let zeros = used <= 56 ? 56 - used : 120 - used
    tail.append(contentsOf: repeatElement(0, count: zeros))
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    let savedCount = byteCount
    update(tail)
    byteCount = savedCount
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
      bytes.append(UInt8(truncatingIfNeeded: word >> 24))
      bytes.append(UInt8(truncatingIfNeeded: word >> 16))
      bytes.append(UInt8(truncatingIfNeeded: word >> 8))
      bytes.append(UInt8(truncatingIfNeeded: word))
    }
    return Digest(bytes: bytes)
  }

  /// Runs the compression function over `count` consecutive 64-byte blocks.
  ///
  /// Written with raw pointers and local variables so that even a debug build hashes tens of MB per second
  /// (the integration tests hash 50 MB files).
  private mutating func compress(blocks: UnsafeRawPointer, count: Int) {
    let schedule = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
    defer { schedule.deallocate() }
    Self.roundConstants.withUnsafeBufferPointer { constants in
      let k = constants.baseAddress.unsafelyUnwrapped
      var a0 = h0, b0 = h1, c0 = h2, d0 = h3, e0 = h4, f0 = h5, g0 = h6, h = h7
      for blockIndex in 0..<count {
        let block = blocks + blockIndex * 64
        var t = 0
        while t < 16 {
          let p = block + t * 4
          schedule[t] =
            UInt32(p.load(fromByteOffset: 0, as: UInt8.self)) << 24
            | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 16
            | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 8
            | UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
          t += 1
        }
        while t < 64 {
          let w15 = schedule[t - 15]
          let w2 = schedule[t - 2]
          let s0 = ((w15 >> 7) | (w15 << 25)) ^ ((w15 >> 18) | (w15 << 14)) ^ (w15 >> 3)
          let s1 = ((w2 >> 17) | (w2 << 15)) ^ ((w2 >> 19) | (w2 << 13)) ^ (w2 >> 10)
          schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
          t += 1
        }
        var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, hh = h
        t = 0
        while t < 64 {
          let sigma1 = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
          let choice = (e & f) ^ (~e & g)
          let temp1 = hh &+ sigma1 &+ choice &+ k[t] &+ schedule[t]
          let sigma0 = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = sigma0 &+ majority
          hh = g
          g = f
          f = e
          e = d &+ temp1
          d = c
          c = b
          b = a
          a = temp1 &+ temp2
          t += 1
        }
        a0 = a0 &+ a
        b0 = b0 &+ b
        c0 = c0 &+ c
        d0 = d0 &+ d
        e0 = e0 &+ e
        f0 = f0 &+ f
        g0 = g0 &+ g
        h = h &+ hh
      }
      h0 = a0
      h1 = b0
      h2 = c0
      h3 = d0
      h4 = e0
      h5 = f0
      h6 = g0
      h7 = h
    }
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]
}
