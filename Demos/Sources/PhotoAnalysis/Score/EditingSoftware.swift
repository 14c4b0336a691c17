/// The editing software the originality score recognises in EXIF's `Software` tag, matched case-insensitively as
/// whole words (so `PIL` does not match `PILOT`). Mobile apps are checked first, so "Photoshop Express" is a
/// mobile app although it contains "Photoshop".
///
/// ```swift
/// EditingSoftware.classify("Adobe Photoshop CC 2019 (Windows)")   // .desktop
/// EditingSoftware.classify("Snapseed 2.0")                        // .mobile
/// EditingSoftware.classify("DSC-RX1R v1.00")                      // nil: camera firmware
/// ```
public enum EditingSoftware: String, Hashable, Sendable, Codable {
  /// Desktop editors, raw converters and image libraries that re-encode photos.
  case desktop
  /// Mobile editing and filter apps.
  case mobile

  /// Desktop editors, raw developers and image libraries: −30.
  public static let desktopNames = [
    "Photoshop", "Lightroom", "Camera Raw", "GIMP", "paint.net", "Affinity Photo", "Capture One", "Pixelmator",
    "Luminar", "darktable", "RawTherapee", "Aperture", "ACDSee", "PaintShop", "Photopea", "DxO PhotoLab",
    "ON1 Photo", "SIGMA Photo Pro", "Digital Photo Professional", "Picasa", "Windows Photo Editor", "PIL", "Pillow",
    "ImageMagick", "GraphicsMagick",
  ]

  /// Mobile editing and filter apps: −20.
  public static let mobileNames = [
    "Snapseed", "VSCO", "Instagram", "Facetune", "PicsArt", "Afterlight", "Prisma", "Meitu", "Snapchat", "Lensa",
    "Photoshop Express", "Lightroom Mobile", "Polarr", "Pixlr", "PhotoDirector", "TouchRetouch", "Enlight",
    "Darkroom", "Aviary", "Retrica", "B612", "Foodie", "Ulike", "Picsart",
  ]

  /// The kind of editor `software` names, or nil (camera firmware, unknown software).
  public static func classify(_ software: String) -> EditingSoftware? {
    let text = Array(software.lowercased().utf8)
    if mobileWords.contains(where: { containsWord($0, in: text) }) { return .mobile }
    if desktopWords.contains(where: { containsWord($0, in: text) }) { return .desktop }
    return nil
  }

  /// The names lowercased, as bytes: computed once, not per photo.
  private static let mobileWords = mobileNames.map { Array($0.lowercased().utf8) }
  private static let desktopWords = desktopNames.map { Array($0.lowercased().utf8) }

  /// True when `word` occurs in `text` with no letter or digit right before or after it.
  private static func containsWord(_ word: [UInt8], in text: [UInt8]) -> Bool {
    guard !word.isEmpty, word.count <= text.count else { return false }
    for start in 0...(text.count - word.count) where text[start..<start + word.count].elementsEqual(word) {
      let end = start + word.count
      if (start == 0 || !isAlphanumeric(text[start - 1])) && (end == text.count || !isAlphanumeric(text[end])) {
        return true
      }
    }
    return false
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte >= 0x80
  }
}
