import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// The resource behind Apple's resumable-upload handler: it sees each upload as one plain request whose body may
/// have arrived over several connections, stores the body as `<storage>/<id>` (written to `<id>.part` first) and
/// answers `201` with `{"fileId": id, "size": bytes}`. `GET /stats` answers the fault hook's counters.
///
/// One instance per upload channel (Apple's handler makes a channel per request).
final class UploadStoreHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPRequestPart
  typealias OutboundOut = HTTPResponsePart

  struct Shared: Sendable {
    let storage: URL
    let counter: ConnectionDropper.Counter
    let completed: NIOLockedValueBox<Int>
  }

  private enum State {
    case idle
    case receiving(id: String, file: FileHandle, size: Int64)
    case answeringStats
    case rejected
    case done
  }

  private let shared: Shared
  private var state = State.idle

  init(shared: Shared) {
    self.shared = shared
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let request):
      head(request, context: context)
    case .body(let body):
      guard case .receiving(let id, let file, let size) = state else { return }
      do {
        try body.withUnsafeReadableBytes { try file.write(contentsOf: $0) }
        state = .receiving(id: id, file: file, size: size + Int64(body.readableBytes))
      } catch {
        fail(context: context, status: .internalServerError, message: "cannot write the upload: \(error)")
      }
    case .end:
      end(context: context)
    }
  }

  private func head(_ request: HTTPRequest, context: ChannelHandlerContext) {
    switch (request.method, request.path) {
    case (.get, "/stats"):
      state = .answeringStats
    case (.options, _):
      // Apple's handler adds `Upload-Limit` when the request named an interop version it speaks.
      respond(context: context, status: .noContent, fields: [.allow: "OPTIONS, POST, PUT"], body: nil)
      state = .done
    case (.post, _), (.put, _):
      let id = UUID().uuidString.lowercased()
      let partial = shared.storage.appendingPathComponent("\(id).part")
      guard FileManager.default.createFile(atPath: partial.path, contents: nil),
        let file = try? FileHandle(forWritingTo: partial)
      else {
        fail(context: context, status: .internalServerError, message: "cannot create \(partial.path)")
        return
      }
      state = .receiving(id: id, file: file, size: 0)
    default:
      respond(context: context, status: .methodNotAllowed, fields: [.allow: "OPTIONS, POST, PUT"], body: nil)
      state = .rejected
    }
  }

  private func end(context: ChannelHandlerContext) {
    switch state {
    case .receiving(let id, let file, let size):
      do {
        try file.close()
        try FileManager.default.moveItem(
          at: shared.storage.appendingPathComponent("\(id).part"), to: shared.storage.appendingPathComponent(id))
      } catch {
        fail(context: context, status: .internalServerError, message: "cannot store the upload: \(error)")
        return
      }
      shared.completed.withLockedValue { $0 += 1 }
      state = .done
      respond(context: context, status: .created, fields: [:], body: #"{"fileId":"\#(id)","size":\#(size)}"#)
    case .answeringStats:
      let (received, dropped) = shared.counter.snapshot
      let completed = shared.completed.withLockedValue { $0 }
      state = .done
      respond(
        context: context, status: .ok, fields: [:],
        body: #"{"bytesReceived":\#(received),"connectionsDropped":\#(dropped),"uploadsCompleted":\#(completed)}"#)
    case .idle, .rejected, .done:
      break
    }
  }

  /// The upload channel ends without a request end: the upload was cancelled, conflicted or timed out.
  func channelInactive(context: ChannelHandlerContext) {
    discardPartialFile()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    discardPartialFile()
  }

  private func discardPartialFile() {
    guard case .receiving(let id, let file, _) = state else { return }
    try? file.close()
    try? FileManager.default.removeItem(at: shared.storage.appendingPathComponent("\(id).part"))
    state = .done
  }

  private func fail(context: ChannelHandlerContext, status: HTTPResponse.Status, message: String) {
    discardPartialFile()
    state = .rejected
    respond(context: context, status: status, fields: [:], body: #"{"message":"\#(message)"}"#)
  }

  private func respond(
    context: ChannelHandlerContext, status: HTTPResponse.Status, fields: HTTPFields, body: String?
  ) {
    var response = HTTPResponse(status: status, headerFields: fields)
    let bytes = body.map { ByteBuffer(string: $0) }
    response.headerFields[.contentLength] = String(bytes?.readableBytes ?? 0)
    if bytes != nil { response.headerFields[.contentType] = "application/json" }
    context.write(wrapOutboundOut(.head(response)), promise: nil)
    if let bytes { context.write(wrapOutboundOut(.body(bytes)), promise: nil) }
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
  }
}
