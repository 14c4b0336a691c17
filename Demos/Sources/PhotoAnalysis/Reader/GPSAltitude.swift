/// A GPS altitude as EXIF stores it: a distance in metres and whether it is above or below sea level.
///
/// ```swift
/// let altitude = GPSAltitude(meters: 12.5, reference: .belowSeaLevel)
/// altitude.signedMeters   // -12.5
/// ```
public struct GPSAltitude: Hashable, Sendable, Codable {
  /// `GPSAltitudeRef`: 0 above sea level (also when the tag is missing), 1 below.
  public enum Reference: String, Hashable, Sendable, Codable {
    case aboveSeaLevel
    case belowSeaLevel
  }

  /// `GPSAltitude`, never negative.
  public var meters: Double
  /// `GPSAltitudeRef`.
  public var reference: Reference

  public init(meters: Double, reference: Reference) {
    self.meters = meters
    self.reference = reference
  }

  /// Metres relative to sea level: negative below it.
  public var signedMeters: Double { reference == .belowSeaLevel ? -meters : meters }
}
