/// What a photo's metadata says, read by ``PhotoMetadataReader``. Every field is optional: it is nil when the file
/// does not have it or has it in a form that cannot be trusted (a date that is not a date, a latitude past 90°).
///
/// | field | source |
/// |---|---|
/// | `make`, `model`, `software` | IFD0 `Make` (0x010F), `Model` (0x0110), `Software` (0x0131) |
/// | `lensMake`, `lensModel` | Exif IFD `LensMake` (0xA433), `LensModel` (0xA434) |
/// | `pixelWidth`, `pixelHeight` | JPEG frame header (SOFn), PNG `IHDR`, TIFF IFD0 `ImageWidth`/`ImageLength` |
/// | `captureDate` | Exif `DateTimeOriginal` (0x9003) with `OffsetTimeOriginal` (0x9011) |
/// | `modificationDate` | IFD0 `DateTime` (0x0132) with Exif `OffsetTime` (0x9010) |
/// | `orientation` | IFD0 `Orientation` (0x0112), 1…8 |
/// | `latitude`, `longitude` | GPS IFD 0x0001–0x0004, signed decimal degrees (N/E positive) |
/// | `altitude` | GPS IFD `GPSAltitude` (0x0006) with `GPSAltitudeRef` (0x0005) |
///
/// ```swift
/// let metadata = try PhotoMetadataReader.read(fileAt: url)
/// metadata.camera     // "Canon PowerShot G1 X Mark II"
/// metadata.latitude   // -33.8568 (south)
/// ```
public struct PhotoMetadata: Hashable, Sendable, Codable {
  /// The file format.
  public var container: ImageContainer
  /// True when the file has an EXIF block (even an empty one).
  public var hasExif: Bool
  public var make: String?
  public var model: String?
  public var lensMake: String?
  public var lensModel: String?
  public var software: String?
  /// Pixels, as the image decodes (not EXIF's `PixelXDimension`, which editors often leave stale).
  public var pixelWidth: Int?
  public var pixelHeight: Int?
  public var captureDate: PhotoDate?
  public var modificationDate: PhotoDate?
  /// EXIF orientation, 1 (upright) … 8.
  public var orientation: Int?
  /// Decimal degrees, north positive.
  public var latitude: Double?
  /// Decimal degrees, east positive.
  public var longitude: Double?
  public var altitude: GPSAltitude?

  public init(
    container: ImageContainer, hasExif: Bool = false, make: String? = nil, model: String? = nil,
    lensMake: String? = nil, lensModel: String? = nil, software: String? = nil, pixelWidth: Int? = nil,
    pixelHeight: Int? = nil, captureDate: PhotoDate? = nil, modificationDate: PhotoDate? = nil,
    orientation: Int? = nil, latitude: Double? = nil, longitude: Double? = nil, altitude: GPSAltitude? = nil
  ) {
    self.container = container
    self.hasExif = hasExif
    self.make = make
    self.model = model
    self.lensMake = lensMake
    self.lensModel = lensModel
    self.software = software
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.captureDate = captureDate
    self.modificationDate = modificationDate
    self.orientation = orientation
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
  }

  /// Make and model as one name, without repeating the make when the model already starts with it
  /// (`"Canon"` + `"Canon PowerShot G1 X Mark II"` → `"Canon PowerShot G1 X Mark II"`); nil unless both are known.
  public var camera: String? {
    guard let make, let model else { return nil }
    return model.lowercased().hasPrefix(make.lowercased()) ? model : "\(make) \(model)"
  }

  /// True when both coordinates are known.
  public var hasLocation: Bool { latitude != nil && longitude != nil }
}
