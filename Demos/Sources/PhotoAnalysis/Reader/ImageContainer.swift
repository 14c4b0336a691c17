/// The file format a photo's metadata was read from, recognised from its first bytes (never from its name).
///
/// ```swift
/// try PhotoMetadataReader.read(fileAt: url).container   // .jpeg
/// ```
public enum ImageContainer: String, Hashable, Sendable, Codable {
  /// JPEG: metadata in an APP1 `Exif` segment, pixel size in the frame header (SOFn).
  case jpeg
  /// PNG: metadata in an `eXIf` chunk, pixel size in `IHDR`.
  case png
  /// TIFF: the file is itself the TIFF structure; pixel size from IFD0's `ImageWidth`/`ImageLength`.
  case tiff
}
