import Features
import Foundation
import Unidirectional
import XCTest

/// Redirects against the real backend, through both HTTP engines: the token and the file never go to another
/// origin; a followed redirect carries the whole body; a presigned PUT counts only when the server that finally
/// answered stored every byte.
///
/// The other origin is the backend's witness, a second server on another 127.0.0.1 port that records what it gets.
final class ImageUploadRedirectIntegrationTests: BackendStackTestCase {
  private func image(size: Int = 700_001, seed: UInt64 = 3) throws -> (item: UploadItem, sha256: String) {
    let url = folder.appendingPathComponent("photo-\(seed).jpg")
    let digest = try UploadIntegrationSupport.writeFile(
      at: url, header: UploadIntegrationSupport.jpegHeader, size: size, seed: seed)
    return (UploadItem(fileURL: url, contentType: "image/jpeg", byteCount: Int64(size)), digest.hex)
  }

  private func model(size: Int) throws -> (url: URL, sha256: String) {
    let url = folder.appendingPathComponent("model-\(size).usdz")
    let digest = try UploadIntegrationSupport.writeFile(at: url, header: Array("PK".utf8), size: size, seed: 11)
    return (url, digest.hex)
  }

  func testAPresignRequestRedirectedToAnotherOriginIsRefusedAndTheTokenNeverLeaves() async throws {
    let stack = try Self.backend.stack()
    let witness = try await stack.witness()
    let image = try image()
    for engine in UploadIntegrationSupport.engines {
      let path = "/stolen-presign-\(engine)"
      let configuration = UploadIntegrationSupport.configuration(
        stack, headers: ["X-Test-Redirect": "307 \(witness.absoluteString)\(path)"], transport: engine)
      do {
        _ = try await PresignedUploader(configuration: configuration)
          .upload([image.item], mediaType: .archive, uuid: .random)
        XCTFail("\(engine): expected the redirect to be refused")
      } catch {
        XCTAssertEqual(
          error as? ImageUploadError,
          .http(
            .redirectRefused(
              status: 307, from: UploadIntegrationSupport.hostPort(stack.apiURL),
              to: UploadIntegrationSupport.hostPort(witness),
              reason: "another origin would receive the credentials and the file")), "\(engine)")
        XCTAssertFalse("\(error)".contains(stack.token))
      }
      let received = try await stack.witnessEvents(pathPrefix: path)
      XCTAssertEqual(received, [], "\(engine): the other origin got nothing, no token, no body")
    }
  }

  func testAModelUploadRedirectedToAnotherOriginIsRefusedAndTheFileNeverLeaves() async throws {
    let stack = try Self.backend.stack()
    let witness = try await stack.witness()
    let model = try model(size: 3 << 20)
    for engine in UploadIntegrationSupport.engines {
      for read in ["0", "1"] {
        let path = "/stolen-model-\(engine)-\(read)"
        let configuration = UploadIntegrationSupport.configuration(
          stack,
          headers: ["X-Test-Redirect": "308 \(witness.absoluteString)\(path)", "X-Test-Redirect-Read": read],
          transport: engine)
        do {
          _ = try await MultipartUploader(configuration: configuration, temporaryDirectory: folder)
            .upload(fileAt: model.url, filename: "scan.usdz", contentType: "model/vnd.usdz+zip")
          XCTFail("\(engine): expected the redirect to be refused")
        } catch {
          XCTAssertEqual(
            error as? ImageUploadError,
            .http(
              .redirectRefused(
                status: 308, from: UploadIntegrationSupport.hostPort(stack.apiURL),
                to: UploadIntegrationSupport.hostPort(witness),
                reason: "another origin would receive the credentials and the file")), "\(engine)")
        }
        let received = try await stack.witnessEvents(pathPrefix: path)
        XCTAssertEqual(received, [], "\(engine), read \(read): the other origin got nothing")
      }
    }
  }

  func testARedirectWithinTheAPIServerIsFollowedWithTheWholeBodyAndTheToken() async throws {
    let stack = try Self.backend.stack()
    let model = try model(size: 5 << 20)
    for engine in UploadIntegrationSupport.engines {
      // The server answers at once (read 0: the client is still sending) or after reading the whole body (read 1).
      for read in ["0", "1"] {
        // On a busy machine the local S3 (moto) sometimes answers a part upload it has wholly received ~30 s late
        // (a loopback capture: the backend had the client's whole body 0.1 s after it started and answered 61 s
        // later, each of its two moto calls waiting ~30 s). The client waits that out: the redirect is the subject.
        let configuration = UploadIntegrationSupport.configuration(
          stack, headers: ["X-Test-Redirect": "307 /upload-model?redirected=1", "X-Test-Redirect-Read": read],
          requestTimeout: 120, transport: engine)
        let progress = ProgressLog<Int64>()
        let receipt: MultipartUploadReceipt
        let started = ContinuousClock.now
        let startedAt = Date().timeIntervalSince1970
        do {
          receipt = try await MultipartUploader(configuration: configuration, temporaryDirectory: folder)
            .upload(fileAt: model.url, filename: "scan.usdz", contentType: "model/vnd.usdz+zip") { sent, _ in
              progress.append(sent)
            }
        } catch {
          // Which request stalled: the progress of each request the client sent, and when the server answered.
          return XCTFail(
            """
            \(engine), read \(read): \(error) after \(ContinuousClock.now - started); bytes sent per request: \
            \(Self.requestTotals(progress.values)); the server's answers since (seconds after the start): \
            \(await Self.answers(of: stack, since: startedAt))
            """)
        }
        XCTAssertEqual(receipt.size, 5 << 20, "\(engine), read \(read)")
        XCTAssertEqual(receipt.sha256, model.sha256, "\(engine), read \(read): the redirected request had the file")
        let total = try XCTUnwrap(progress.values.max())
        XCTAssertEqual(progress.values.last, total, "progress ends at the whole body of the request that counted")
      }
    }

    // The presign POST, redirected within the origin with 308, also arrives with its body and token.
    let image = try image()
    let uuids = RecordingUUIDs()
    let configuration = UploadIntegrationSupport.configuration(
      stack, headers: ["X-Test-Redirect": "308 /presigned-urls?redirected=1"])
    let ids = try await PresignedUploader(configuration: configuration)
      .upload([image.item], mediaType: .profile, uuid: uuids.generator)
    XCTAssertEqual(ids.count, 1)
    let stored = try await stack.object(key: "profile/\(try XCTUnwrap(uuids.values.first).uuidString.lowercased()).jpg")
    XCTAssertEqual(stored.sha256, image.sha256)
  }

  /// The backend's answers to `X-Test-Redirect` requests since `start` (`GET /test-hooks/answers`), in words.
  private static func answers(of stack: BackendStack, since start: TimeInterval) async -> String {
    struct Answer: Decodable {
      let path: String
      let redirected: Bool
      let arrived: Double
      let answered: Double
      let status: Int
    }
    let url = stack.apiURL.appendingPathComponent("test-hooks/answers")
    guard let (_, body) = try? await LoopbackHTTP.send("GET", url),
      let answers = try? JSONDecoder().decode([Answer].self, from: body)
    else { return "(unavailable)" }
    let seconds = { (time: Double) in String(format: "%.2f", time - start) }
    return answers.filter { $0.arrived >= start }.map { answer in
      let path = answer.path + (answer.redirected ? "?redirected" : "")
      return "\(path) arrived \(seconds(answer.arrived)), \(answer.status) at \(seconds(answer.answered))"
    }.joined(separator: "; ")
  }

  /// The most each request had sent: progress restarts from a lower count when the client sends the body again.
  private static func requestTotals(_ values: [Int64]) -> [Int64] {
    var totals: [Int64] = []
    var previous: Int64 = -1
    for value in values {
      if value < previous || totals.isEmpty { totals.append(value) } else { totals[totals.count - 1] = value }
      previous = value
    }
    return totals
  }

  func testAPresignedPUTRedirectedToAnotherServerSendsTheWholeFileThereAndProgressRestarts() async throws {
    let stack = try Self.backend.stack()
    let image = try image(size: 2_500_000, seed: 5)
    for engine in UploadIntegrationSupport.engines {
      for read in ["1", "0"] {
        // The storage URL answers 307 → the real presigned URL on the S3 server (another port: another origin).
        let via = "0 \(stack.apiURL.absoluteString)/test-hooks/redirect?status=307&read=\(read)"
        let configuration = UploadIntegrationSupport.configuration(
          stack, headers: ["X-Test-Put-Via": via], transport: engine)
        let uuids = RecordingUUIDs()
        let progress = ProgressLog<UploadProgress>()
        let started = ContinuousClock.now
        let ids: [MediaID]
        do {
          ids = try await PresignedUploader(configuration: configuration)
            .upload([image.item], mediaType: .archive, uuid: uuids.generator) { progress.append($0) }
        } catch {
          let events = (try? await stack.events().suffix(4).map { "\($0.kind) \($0.path) completed \($0.completed)" })
          return XCTFail(
            """
            \(engine), read \(read): \(error) after \(ContinuousClock.now - started); bytes sent per request: \
            \(Self.requestTotals(progress.values.map(\.completedBytes))); the backend's last events: \
            \(events ?? ["(unavailable)"])
            """)
        }
        XCTAssertEqual(ids.count, 1)

        let key = "archive/\(try XCTUnwrap(uuids.values.first).uuidString.lowercased()).jpg"
        let stored = try await stack.object(key: key)
        XCTAssertEqual(stored.size, 2_500_000, "\(engine), read \(read): the object is complete, not 0 bytes")
        XCTAssertEqual(stored.sha256, image.sha256, "\(engine), read \(read)")
        XCTAssertEqual(stored.contentType, "image/jpeg")

        let reports = progress.values
        XCTAssertEqual(reports.last, UploadProgress(completedBytes: 2_500_000, totalBytes: 2_500_000))
        if read == "1" {
          // The first server read every byte before redirecting: progress went to 100%, then restarted for the
          // request that counts.
          let firstFull = try XCTUnwrap(reports.firstIndex { $0.percent == 100 }, "\(reports)")
          XCTAssertTrue(reports[firstFull...].contains { $0.percent < 100 }, "\(engine): progress restarts: \(reports)")
        }
        // Two requests (the redirect and the one that counts), or more when a PUT that timed out was sent again.
        let requests = max(2, Self.requestTotals(reports.map(\.completedBytes)).count)
        XCTAssertLessThanOrEqual(reports.count, requests * 102, "at most ~1 report per percent per request")
      }
    }
  }

  func testAPresignedPUTRedirectedWithA303IsRefusedAndNamesTheRedirect() async throws {
    let stack = try Self.backend.stack()
    let image = try image()
    let via = "0 \(stack.apiURL.absoluteString)/test-hooks/redirect?status=303"
    let configuration = UploadIntegrationSupport.configuration(stack, headers: ["X-Test-Put-Via": via])
    do {
      _ = try await PresignedUploader(configuration: configuration)
        .upload([image.item], mediaType: .archive, uuid: .random)
      XCTFail("expected a refusal")
    } catch {
      XCTAssertEqual(
        error as? ImageUploadError,
        .http(
          .redirectRefused(
            status: 303, from: UploadIntegrationSupport.hostPort(stack.apiURL),
            to: UploadIntegrationSupport.hostPort(stack.s3URL),
            reason: "HTTP 303 would turn the PUT into a GET without the file")))
      XCTAssertEqual(
        "\(error)",
        "\(UploadIntegrationSupport.hostPort(stack.apiURL)) redirected the upload to "
          + "\(UploadIntegrationSupport.hostPort(stack.s3URL)) (HTTP 303); not followed: HTTP 303 would turn the PUT "
          + "into a GET without the file.")
    }
  }

  func testEveryRequestOfEveryUploadClientSaysUnidirectionalAsItsUserAgent() async throws {
    let stack = try Self.backend.stack()
    let witness = try await stack.witness()
    let image = try image()
    let model = try model(size: 100_000)
    for engine in UploadIntegrationSupport.engines {
      let before = try await stack.events().count
      let key = UUID().uuidString
      // The presign POST (redirected within the API), then the PUT through the witness (which forwards it to S3).
      let presigned = UploadIntegrationSupport.configuration(
        stack,
        headers: [
          "X-Test-Redirect": "307 /presigned-urls?redirected=1",
          "X-Test-Put-Via": "0 \(witness.absoluteString)/flaky/\(key)?fail=0",
        ], transport: engine)
      do {
        _ = try await PresignedUploader(configuration: presigned)
          .upload([image.item], mediaType: .archive, uuid: .random)
      } catch {
        return XCTFail("\(engine), presigned upload: \(error)")
      }
      // The multipart POST (redirected within the API).
      let multipart = UploadIntegrationSupport.configuration(
        stack, headers: ["X-Test-Redirect": "307 /upload-model?redirected=1"], transport: engine)
      do {
        _ = try await MultipartUploader(configuration: multipart, temporaryDirectory: folder)
          .upload(fileAt: model.url, filename: "m.usdz", contentType: "model/vnd.usdz+zip")
      } catch {
        return XCTFail("\(engine), multipart upload: \(error)")
      }

      let apiRequests = try await stack.events().dropFirst(before).filter { $0.kind == "redirect" }
      XCTAssertEqual(apiRequests.map(\.path), ["/presigned-urls", "/upload-model"], "\(engine)")
      XCTAssertEqual(apiRequests.map(\.userAgent), [UserAgent.value, UserAgent.value], "\(engine)")
      XCTAssertTrue(apiRequests.allSatisfy(\.hasAuthorization), "the API requests carry the token")
      // Every PUT, not exactly one: a PUT that timed out is sent again (RetryPolicy), and each attempt counts.
      let puts = try await stack.witnessEvents(pathPrefix: "/flaky/\(key)")
      XCTAssertFalse(puts.isEmpty, "\(engine): the PUT went through the witness")
      XCTAssertEqual(Set(puts.map(\.userAgent)), [UserAgent.value], "\(engine)")
      XCTAssertEqual(Set(puts.map(\.hasAuthorization)), [false], "a storage PUT never carries the token")
    }
    XCTAssertEqual(UserAgent.value, "Unidirectional/0.1.0")
  }
}
