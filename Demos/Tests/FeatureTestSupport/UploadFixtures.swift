import Foundation
import ImageUpload
import Images
import Unidirectional

public enum UploadFixtures {
  /// Picked files in a deliberately unsorted order, so that "pick order" is distinguishable from sorting.
  public static let picked = ["sunset.jpg", "cat.png", "beach.heic"].map {
    PickedImage(fileURL: URL(fileURLWithPath: "/photos/\($0)"))
  }

  /// What the fake loader makes of a picked image: 100 bytes of PNG.
  public static func loaded(_ image: PickedImage) -> LoadedImage {
    LoadedImage(fileURL: image.fileURL, contentType: "image/png", byteCount: 100)
  }

  /// The id the fake server gives an item: derived from its file name, so order is checkable.
  public static func mediaID(for item: UploadItem) -> MediaID {
    MediaID("media-\(item.fileURL.deletingPathExtension().lastPathComponent)")
  }

  public static let loader = ImageLoaderClient { images in images.map(loaded) }

  /// An upload that waits a minute on `clock`, recording "started", then "cancelled" if it is cancelled first.
  public static func uploadWaitingForCancellation(
    on clock: TestClock, events: Recorder<String>
  ) -> ImageUploadClient {
    ImageUploadClient { items, _, _ in
      events.append("started")
      do {
        try await clock.sleep(for: .seconds(60))
      } catch {
        events.append(error is CancellationError ? "cancelled" : "failed")
        throw error
      }
      return items.map(mediaID)
    }
  }
}
