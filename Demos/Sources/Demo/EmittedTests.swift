import Features
import Foundation
import UnidirectionalActionLog

/// How `demo replay LOG --emit-test FILE` writes the test of a feature's log: what the test is called, what it
/// imports, and what its effects run with.
///
/// ```swift
/// ReplayableFeature(ScanFeature(), test: EmittedTests.scan)
/// ```
enum EmittedTests {
  /// The test of a recording of `demo scan` (the default run), for the `ScanTests` target: the demo's simulated
  /// parts (`ScanDemoRun.prepare`) in a working folder of its own, which replaces the recording's.
  static func scan(_ initialState: ScanFeature.State) -> ActionLogTestWriter.Configuration {
    var configuration = ActionLogTestWriter.Configuration(
      testName: "scanDemoSession", imports: ["Scan"], reducer: "ScanFeature()")
    configuration.setUp = ["let folder = try ScanDemoRun.makeFolder()", "defer { ScanDemoRun.remove(folder) }"]
    configuration.substitutions = [initialState.workingDirectory.path: "folder.path"]
    configuration.dependencies = ["ScanDemoRun.prepare(&$0)"]
    // A bound for effects that write files (the shots, the model), not a pace.
    configuration.timeout = .seconds(30)
    configuration.stepsTakeAnyReducer = true
    // The values the steps hold, as the feature's tests write them.
    configuration.writeWithInitializer(CaptureShot.self)
    configuration.writeWithInitializer(UploadItem.self)
    configuration.writeWithInitializer(UploadProgress.self)
    configuration.writeWithInitializer(ReconstructedModel.self)
    configuration.write(ModelReconstructionProgress.self) { progress, write in
      progress == .starting
        ? ".starting"
        : "ModelReconstructionProgress(completedSteps: \(write(progress.completedSteps)), "
          + "totalSteps: \(write(progress.totalSteps)))"
    }
    configuration.header = [
      "Written by `demo replay scan-demo.jsonl --emit-test ScanDemoSessionTests.swift` from a recording of the demo's",
      "default run (`demo --record scan-demo.jsonl`). Regenerate it rather than edit it: see ScanDemoRun.swift.",
    ]
    return configuration
  }

}
