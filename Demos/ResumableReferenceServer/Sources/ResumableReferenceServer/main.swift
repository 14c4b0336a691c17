import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload

// Apple's resumable-upload reference server on 127.0.0.1 for the integration tests. Prints one JSON line,
// {"origin": …, "port": …, "storage": …}, once it listens; stops on SIGTERM/SIGINT or when stdin closes.

let options: ServerOptions
do {
  options = try ServerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("ResumableReferenceServer: \(error)\n\(ServerOptions.usage)\n".utf8))
  exit(2)
}
do {
  try FileManager.default.createDirectory(at: options.storage, withIntermediateDirectories: true)
} catch {
  FileHandle.standardError.write(Data("ResumableReferenceServer: cannot create \(options.storage.path)\n".utf8))
  exit(1)
}

let shared = UploadStoreHandler.Shared(
  storage: options.storage, counter: ConnectionDropper.Counter(dropPoints: options.dropAfter),
  completed: NIOLockedValueBox(0))
// The context needs the origin, which needs the bound port: connections only arrive after the ready line.
let uploadContext = NIOLockedValueBox<HTTPResumableUploadContext?>(nil)
let timeout = TimeAmount.seconds(options.resumptionTimeoutSeconds)

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let channel: Channel
do {
  channel = try ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
      channel.eventLoop.makeCompletedFuture {
        guard let context = uploadContext.withLockedValue({ $0 }) else { throw ChannelError.ioOnClosedChannel }
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(ConnectionDropper(counter: shared.counter))
        try sync.configureHTTPServerPipeline()
        try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        // A fresh store handler per upload channel (the `handlers:` initialiser would reuse one instance).
        try sync.addHandler(
          HTTPResumableUploadHandler(context: context) { uploadChannel in
            try? uploadChannel.pipeline.syncOperations.addHandler(UploadStoreHandler(shared: shared))
          })
      }
    }
    .bind(host: "127.0.0.1", port: options.port)
    .wait()
} catch {
  FileHandle.standardError.write(
    Data("ResumableReferenceServer: cannot listen on 127.0.0.1:\(options.port): \(error)\n".utf8))
  exit(1)
}
guard let port = channel.localAddress?.port else {
  FileHandle.standardError.write(Data("ResumableReferenceServer: no local port\n".utf8))
  exit(1)
}
let origin = options.origin ?? "http://127.0.0.1:\(port)"
uploadContext.withLockedValue { $0 = HTTPResumableUploadContext(origin: origin, timeout: timeout) }

func jsonString(_ value: String) -> String {
  let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])) ?? Data()
  return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
}
FileHandle.standardOutput.write(
  Data(
    #"{"origin":\#(jsonString(origin)),"port":\#(port),"storage":\#(jsonString(options.storage.path))}"#.utf8 + [0x0A]))

// Stop on SIGTERM/SIGINT, or when the parent closes our stdin (it died or is done with us).
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let stop = DispatchSemaphore(value: 0)
var signalSources: [DispatchSourceSignal] = []
for number in [SIGTERM, SIGINT] {
  let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
  source.setEventHandler { stop.signal() }
  source.resume()
  signalSources.append(source)
}
Thread.detachNewThread {
  while (try? FileHandle.standardInput.read(upToCount: 4096))?.isEmpty == false {}
  stop.signal()
}
stop.wait()
try? channel.close().wait()
try? group.syncShutdownGracefully()
