extension Result where Failure == any Error {
  /// The result of an asynchronous throwing closure: its value as a success, or the error it threw as a failure.
  /// TCA's (swift-concurrency-extras') async `Result.init(catching:)`.
  ///
  /// ```swift
  /// return .run { send in
  ///   send(.factResponse(await Result { try await factClient.fetch(count) }))
  /// }
  /// ```
  ///
  /// A synchronous closure still picks the standard library's initializer, without `await`.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
