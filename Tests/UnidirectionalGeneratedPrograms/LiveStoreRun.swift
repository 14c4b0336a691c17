/// Runs a generated program on live stores, from several threads (placeholder until the live checks land).
enum LiveStoreRun {
  static func check(_ program: GeneratedProgram) async -> ProgramFailure? { nil }
}
