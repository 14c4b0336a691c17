import Foundation
import Unidirectional

/// The effect timeline of a recorded run, read from the trace ``StoreTracer`` wrote (`demo … --trace FILE`): every
/// effect with the step that started it and the steps it ran through, served to the inspector's page a window of
/// steps at a time.
///
/// The trace is untrusted input: a file that is not a trace is a typed error (``InspectorTraceError``), never a
/// trap; sizes are bounded (``Limits``); a trace whose run never closed it is read up to its last complete event.
/// When the trace has several stores, the one named after the log's feature is shown.
///
/// ```swift
/// let trace = try InspectorTrace(contentsOf: URL(fileURLWithPath: "scan.trace.json"), feature: "ScanFeature")
/// let page = trace.effects(from: 1, to: 50, offset: 0, count: 100)
/// ```
package final class InspectorTrace: Sendable {
  /// How much of a trace the inspector takes in.
  package struct Limits: Sendable {
    /// The largest file read.
    package var bytes: Int
    /// The most effects of all stores together.
    package var effects: Int
    /// The most actions of all stores together.
    package var actions: Int

    /// 1 GiB, 1,000,000 effects, 10,000,000 actions.
    package static let standard = Limits(bytes: 1 << 30, effects: 1_000_000, actions: 10_000_000)

    package init(bytes: Int, effects: Int, actions: Int) {
      (self.bytes, self.effects, self.actions) = (bytes, effects, actions)
    }
  }

  /// The trace file.
  package let fileURL: URL
  /// The shown store's name in the trace (`ScanFeature store`).
  package let storeName: String
  /// The largest action sequence number of the shown store (its last step).
  package let lastStep: Int
  /// What the page should know: a trace cut short, other stores left out, effects without a step.
  package let notes: [String]
  /// The shown store's actions, with their states when the trace has them: asked for by a trace opened alone.
  package let steps: InspectorTraceSteps?
  private let index: InspectorEffectIndex

  /// Reads the trace at `url`, showing the store named after `feature` when it has several; with `keepsSteps`, also
  /// where that store's actions are (``steps``).
  package init(
    contentsOf url: URL, feature: String? = nil, limits: Limits = .standard, keepsSteps: Bool = false
  ) throws(InspectorTraceError) {
    fileURL = url
    let data = try Self.read(url, limit: limits.bytes)
    let outcome = data.withUnsafeBytes { bytes in
      Result { () throws(TraceEventReader.Failure) in
        try Self.tracks(in: bytes, limits: limits, keepsSteps: keepsSteps)
      }
    }
    let tracks: [UInt64: TraceStoreTrack]
    let truncated: Bool
    switch outcome {
    case let .success(read): (tracks, truncated) = read
    case let .failure(failure) where failure.offset < 0: throw .tooLarge(path: url.path, reason: failure.reason)
    case let .failure(failure): throw .malformed(path: url.path, offset: failure.offset, reason: failure.reason)
    }
    let candidates = tracks.filter { $0.value.actionCount > 0 || $0.value.effectCount > 0 }.sorted { $0.key < $1.key }
    let chosen =
      candidates.first { $0.value.name == feature.map(TraceSchema.storeName) }
      ?? candidates.max { $0.value.actionCount < $1.value.actionCount }
    var notes: [String] = []
    if truncated {
      notes.append("the trace ends early (its run did not close it): effects running then show as still running")
    }
    guard let chosen else {
      notes.append("the trace has no store's actions or effects")
      (storeName, lastStep, self.notes, index) = ("", 0, notes, InspectorEffectIndex())
      steps = keepsSteps ? InspectorTraceSteps(data: data, steps: []) : nil
      return
    }
    steps = keepsSteps ? InspectorTraceSteps(data: data, steps: chosen.value.steps) : nil
    storeName = chosen.value.name ?? "store \(chosen.key)"
    if candidates.count > 1 {
      notes.append("the trace has \(candidates.count) stores: the timeline shows \(storeName)")
    }
    let (effects, skipped) = chosen.value.effects()
    if skipped > 0 { notes.append("\(skipped) effects have no step in the trace and are left out") }
    if chosen.value.droppedEvents > 0 {
      notes.append(
        "the tracer fell behind and dropped \(chosen.value.droppedEvents) events: effects may be missing or unfinished")
    }
    lastStep = Int(clamping: chosen.value.lastSequence)
    self.notes = notes
    index = InspectorEffectIndex(effects)
  }

  /// How many effects the timeline has.
  package var effectCount: Int { index.effects.count }

  /// Up to `count` effects from position `offset` among those that ran at some step from `first` to `last`.
  package func effects(from first: Int, to last: Int, offset: Int, count: Int) -> InspectorEffectPage {
    index.page(from: first, to: last, offset: offset, count: count)
  }

  /// Every store's events (by process id), and whether the file ended inside the event array.
  private static func tracks(
    in bytes: UnsafeRawBufferPointer, limits: Limits, keepsSteps: Bool
  ) throws(TraceEventReader.Failure) -> ([UInt64: TraceStoreTrack], Bool) {
    var tracks: [UInt64: TraceStoreTrack] = [:]
    // The store being read, out of the dictionary while its events come one after another.
    var current: (process: UInt64, track: TraceStoreTrack)?
    var reader = TraceEventReader(bytes)
    var (actions, effects) = (0, 0)
    while true {
      switch try reader.next() {
      case let .event(event):
        guard let process = event.process else { continue }
        if current?.process != process {
          if let current { tracks[current.process] = current.track }
          current = (process, tracks.removeValue(forKey: process) ?? TraceStoreTrack(keepsSteps: keepsSteps))
        }
        let before = (current?.track.actionCount ?? 0, current?.track.effectCount ?? 0)
        current?.track.add(event)
        actions += (current?.track.actionCount ?? 0) - before.0
        effects += (current?.track.effectCount ?? 0) - before.1
        // A negative offset: past a limit, not malformed.
        if actions > limits.actions || effects > limits.effects {
          let reason =
            actions > limits.actions ? "more than \(limits.actions) actions" : "more than \(limits.effects) effects"
          throw TraceEventReader.Failure(offset: -1, reason: reason, atEnd: false)
        }
      case .other: continue
      case let .end(truncated):
        if let current { tracks[current.process] = current.track }
        return (tracks, truncated)
      }
    }
  }

  /// The file's bytes (mapped): a regular file of at most `limit` bytes; none for an empty one.
  private static func read(_ url: URL, limit: Int) throws(InspectorTraceError) -> Data {
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    } catch {
      throw .cannotRead(path: url.path, reason: "no such file, or it cannot be read")
    }
    guard attributes[.type] as? FileAttributeType == .typeRegular else {
      throw .cannotRead(path: url.path, reason: "not a regular file")
    }
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    guard size <= limit else { throw .tooLarge(path: url.path, reason: "\(size) bytes (at most \(limit))") }
    // Not read at all: Foundation on Linux keeps 4 KiB for each `Data(contentsOf:)` of an empty file.
    guard size > 0 else { return Data() }
    do {
      return try Data(contentsOf: url, options: .alwaysMapped)
    } catch {
      throw .cannotRead(path: url.path, reason: error.localizedDescription)
    }
  }
}
