/// How original a photo looks from its metadata: a score from 0 to 100 and the flags that explain it.
///
/// | rule | points | flag |
/// |---|---:|---|
/// | no EXIF at all (stripped, screenshot, generated) | −50 | warning "no EXIF metadata" |
/// | `Software` names a desktop editor (``EditingSoftware/desktopNames``) | −30 | edited "<software>" |
/// | `Software` names a mobile app (``EditingSoftware/mobileNames``) | −20 | edited "<software>" |
/// | EXIF present, no `Software` | 0 | original "no software info" |
/// | `Make` and `Model` present | 0 | original "camera: <make model>" |
/// | `Make` or `Model` missing | −10 | warning "no camera make/model" |
/// | no valid `DateTimeOriginal` | −10 | warning "no capture date" |
/// | `DateTime` more than 60 s after `DateTimeOriginal` | −10 | warning "modified after capture (…)" |
/// | GPS latitude and longitude present | 0 | original "GPS location recorded" |
///
/// The score starts at 100 and never goes below 0. Flags are a set, listed edited → warning → original, each kind
/// in the table's order. A missing GPS location costs nothing: most cameras have no GPS receiver.
///
/// ```swift
/// let score = OriginalityScore(PhotoMetadata(container: .jpeg, hasExif: true, make: "SONY", model: "DSC-RX1R"))
/// score.value   // 90: no capture date
/// score.flags   // [warning: no capture date, original: no software info, original: camera: SONY DSC-RX1R]
/// ```
public struct OriginalityScore: Hashable, Sendable, Codable {
  public static let noExifPenalty = 50
  public static let desktopEditorPenalty = 30
  public static let mobileEditorPenalty = 20
  public static let missingCameraPenalty = 10
  public static let missingCaptureDatePenalty = 10
  public static let modifiedAfterCapturePenalty = 10
  /// How much later than the capture the modification date may be before it counts: cameras write both when they
  /// save, sometimes a second or two apart.
  public static let modificationTolerance = 60

  /// 0…100.
  public var value: Int
  /// Distinct, in a stable order (see the type's documentation).
  public var flags: [PhotoFlag]

  public init(value: Int, flags: [PhotoFlag]) {
    self.value = value
    self.flags = flags
  }

  /// Scores `metadata` by the rules in the table above.
  public init(_ metadata: PhotoMetadata) {
    var points = 100
    var found: [PhotoFlag] = []
    if !metadata.hasExif {
      points -= Self.noExifPenalty
      found.append(PhotoFlag(.warning, "no EXIF metadata"))
    }
    if let software = metadata.software {
      switch EditingSoftware.classify(software) {
      case .desktop:
        points -= Self.desktopEditorPenalty
        found.append(PhotoFlag(.edited, software))
      case .mobile:
        points -= Self.mobileEditorPenalty
        found.append(PhotoFlag(.edited, software))
      case nil:
        break
      }
    } else if metadata.hasExif {
      found.append(PhotoFlag(.original, "no software info"))
    }
    if let camera = metadata.camera {
      found.append(PhotoFlag(.original, "camera: \(camera)"))
    } else {
      points -= Self.missingCameraPenalty
      found.append(PhotoFlag(.warning, "no camera make/model"))
    }
    if let captured = metadata.captureDate {
      if let modified = metadata.modificationDate, captured.seconds(until: modified) > Self.modificationTolerance {
        points -= Self.modifiedAfterCapturePenalty
        found.append(PhotoFlag(.warning, "modified after capture (\(captured) → \(modified))"))
      }
    } else {
      points -= Self.missingCaptureDatePenalty
      found.append(PhotoFlag(.warning, "no capture date"))
    }
    if metadata.hasLocation {
      found.append(PhotoFlag(.original, "GPS location recorded"))
    }
    var distinct: [PhotoFlag] = []
    for kind in PhotoFlag.Kind.allCases {
      for flag in found where flag.kind == kind && !distinct.contains(flag) { distinct.append(flag) }
    }
    self.init(value: max(0, points), flags: distinct)
  }
}
