import Foundation
import ImageGeneration
import XCTest

final class ImageBackendValidationTests: XCTestCase {
  func testKarloRefusesRequestsOutsideItsDocumentedLimits() {
    let cases: [(ImageGenerationRequest, String)] = [
      (ImageGenerationRequest(prompt: " \n "), "The prompt is empty."),
      (
        ImageGenerationRequest(prompt: String(repeating: "a", count: 257)),
        "The prompt has 257 characters; Karlo accepts at most 256."
      ),
      (
        ImageGenerationRequest(prompt: "kite", negativePrompt: String(repeating: "b", count: 300)),
        "The negative prompt has 300 characters; Karlo accepts at most 256."
      ),
      (
        ImageGenerationRequest(prompt: "kite", width: 516),
        "The width 516 is not supported: Karlo needs a multiple of 8 from 384 to 1280 pixels."
      ),
      (
        ImageGenerationRequest(prompt: "kite", width: 376),
        "The width 376 is not supported: Karlo needs a multiple of 8 from 384 to 1280 pixels."
      ),
      (
        ImageGenerationRequest(prompt: "kite", height: 1288),
        "The height 1288 is not supported: Karlo needs a multiple of 8 from 384 to 1280 pixels."
      ),
      (ImageGenerationRequest(prompt: "kite", samples: 0), "Karlo generates 1 to 8 images per request, not 0."),
      (ImageGenerationRequest(prompt: "kite", samples: 9), "Karlo generates 1 to 8 images per request, not 9."),
      (
        ImageGenerationRequest(prompt: "kite", samples: 2, seeds: [1]),
        "Give one seed per image: 2 images, 1 seeds."
      ),
    ]
    for (request, message) in cases {
      XCTAssertThrowsError(try KarloImageBackend.validate(request)) { error in
        XCTAssertEqual(error as? ImageGenerationError, .invalidRequest(message))
      }
    }
    for request in [
      ImageGenerationRequest(prompt: String(repeating: "a", count: 256), width: 384, height: 1280, samples: 8),
      ImageGenerationRequest(prompt: "kite", negativePrompt: "", width: 1024, height: 1024, samples: 1, seeds: [9]),
    ] {
      XCTAssertNoThrow(try KarloImageBackend.validate(request))
    }
  }

  func testTheFeatureOffersOnlySizesKarloAccepts() {
    for width in ImageGenerationFeature.dimensionOptions {
      for height in ImageGenerationFeature.dimensionOptions {
        for samples in ImageGenerationFeature.sampleCountRange {
          XCTAssertNoThrow(
            try KarloImageBackend.validate(
              ImageGenerationRequest(prompt: "kite", width: width, height: height, samples: samples)))
        }
      }
    }
  }

  func testTheOpenAICompatibleBackendRefusesRequestsOutsideItsLimits() {
    let cases: [(ImageGenerationRequest, String)] = [
      (ImageGenerationRequest(prompt: "", negativePrompt: "blurry"), "The prompt is empty."),
      (
        ImageGenerationRequest(prompt: String(repeating: "a", count: 3_990), negativePrompt: "blurry"),
        "The prompt has 4004 characters; the API accepts at most 4000."
      ),
      (
        ImageGenerationRequest(prompt: "kite", width: 10_000),
        "The size 10000x512 is not supported: width and height must be from 64 to 4096 pixels."
      ),
      (ImageGenerationRequest(prompt: "kite", samples: 11), "The API generates 1 to 10 images per request, not 11."),
    ]
    for (request, message) in cases {
      XCTAssertThrowsError(try OpenAIImageBackend.validate(request)) { error in
        XCTAssertEqual(error as? ImageGenerationError, .invalidRequest(message))
      }
    }
    XCTAssertNoThrow(try OpenAIImageBackend.validate(ImageGenerationRequest(prompt: "kite", samples: 10)))
  }

  func testTheLiveClientValidatesBeforeSendingAnything() async {
    // Port 9 (discard) on loopback: nothing listens there, so a request that went out would fail differently.
    let configuration = ImageGenerationConfiguration(
      backend: .karlo, apiKey: ImageAPIKey("k"), baseURL: URL(string: "http://127.0.0.1:9"))
    do {
      _ = try await ImageGenerationClient.live(configuration).generate(
        ImageGenerationRequest(prompt: "kite", samples: 12))
      XCTFail("expected a validation error")
    } catch {
      XCTAssertEqual(
        error as? ImageGenerationError, .invalidRequest("Karlo generates 1 to 8 images per request, not 12."))
    }
  }
}
