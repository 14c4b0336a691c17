extension CasePath {
  /// A case path from the case's constructor alone: extraction is derived from it, without a pattern to write.
  ///
  /// ```swift
  /// enum Action {
  ///   case child(Child.Action)
  ///   case row(id: Row.State.ID, action: Row.Action)
  /// }
  /// let child = CasePath(Action.child)  // CasePath<Action, Child.Action>
  /// child.extract(.child(.tap))         // .tap
  /// let row = CasePath(Action.row)      // CasePath<Action, (Row.State.ID, Row.Action)>
  /// ```
  ///
  /// TCA's `\.child` is `CasePath(Action.child)` here (and `Action.child` alone in a reducer operator or a
  /// `TestStore` method that takes a case path); nested cases compose (`CasePath(Action.child, Child.Action.response)`).
  ///
  /// How it extracts: it reads the tag of the value's case (the runtime's `getEnumTag`, a few nanoseconds), skips
  /// every case whose payload is not exactly a `Value` (found once per pair of types from the runtime's field
  /// records), takes the payload out through the runtime's `destructiveProjectEnumData` (from a box for an
  /// `indirect` case), and keeps it only when `embed` makes a value of the same case — so a constructor of another
  /// case with the same payload type never matches. The Performance article has its cost next to a hand-written
  /// pattern.
  ///
  /// It fails clearly rather than guess: when `Root` is not an enum, or no case of `Root` holds exactly a `Value`
  /// — the constructor of a case whose payload is an optional or an existential, converted by Swift to take a
  /// `Value`; a payload that is a function — it reports a runtime issue where the case path is made and extracts
  /// nothing. Write `extract:` (``init(_:extract:)``) for those. Where the runtime's metadata can't be read (32-bit
  /// platforms, arm64e) it extracts through `Mirror` instead: the same results, in microseconds.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root, fileID: StaticString = #fileID, line: UInt = #line) {
    guard EnumMetadata.isSupported else {
      self.init(embed, extract: { Self.extractByMirror($0, embed: embed) })
      return
    }
    guard let cases = Self.payloadCases(fileID: fileID, line: line) else {
      self.init(embed, extract: { _ in nil })
      return
    }
    // Inlined where the path is made, so that it is specialized for its types; it holds trivial values only, so
    // that copying the path costs one retain. The shared `cases` outlive it.
    let table = cases.table
    self.init(embed) { root in
      let tag = table.metadata.tag(of: root)
      let storage = table.storage(ofTag: tag)
      guard storage != .other else { return nil }
      let value = table.metadata.payload(of: root, tag: tag, indirect: storage == .indirect, as: Value.self)
      // Another case with the same payload type is not this case path's.
      return table.metadata.tag(of: embed(value)) == tag ? value : nil
    }
  }

  /// A case path to a case without a payload, from the case itself: it matches values of that case.
  ///
  /// ```swift
  /// enum Action { case tap, child(Child.Action) }
  /// CasePath(Action.tap).extract(.tap)  // ()
  /// ```
  ///
  /// A value of a case with a payload is a runtime issue: use the case's constructor, `CasePath(Action.child)`.
  @_disfavoredOverload
  public init(_ root: Root, fileID: StaticString = #fileID, line: UInt = #line) where Root: Sendable, Value == Void {
    guard EnumMetadata.isSupported else {
      let name = caseName(of: root)
      self.init({ _ in root }, extract: { caseName(of: $0) == name ? () : nil })
      return
    }
    guard let metadata = EnumMetadata(Root.self), case let tag = metadata.tag(of: root),
      metadata.payload(ofTag: tag) == nil
    else {
      reportIssue(
        """
        CasePath(\(describe(root))): a case path from a value needs an enum case without a payload; for a case \
        with one, pass its constructor: CasePath(\(typeName(Root.self)).\(caseName(of: root).dropFirst().dropLast())).
        """, fileID: fileID, line: line)
      self.init({ _ in root }, extract: { _ in nil })
      return
    }
    self.init({ _ in root }, extract: { metadata.tag(of: $0) == tag ? () : nil })
  }

  /// The cases of `Root` whose payload is a `Value`, or nil, reported as an issue, when there are none.
  @usableFromInline
  static func payloadCases(fileID: StaticString, line: UInt) -> PayloadCases? {
    if let cases = PayloadCases.of(Root.self, Value.self), !cases.isEmpty { return cases }
    let reason =
      EnumMetadata(Root.self) == nil
      ? "it is not an enum"
      : """
      no case has exactly that payload (the constructor of a case whose payload is an optional or an \
      existential converts to this type; a payload that is a function is not read)
      """
    reportIssue(
      """
      CasePath(_:) can't derive extraction from a constructor of \(typeName(Root.self)) taking \
      \(typeName(Value.self)): \(reason). Write the extraction: CasePath(…) { if case let .… = $0 { … } else { nil } }.
      """, fileID: fileID, line: line)
    return nil
  }

  /// Extraction through `Mirror`, where the runtime's metadata can't be read: the payload if it is a `Value` and
  /// `embed` makes a value of the same case.
  @usableFromInline
  static func extractByMirror(_ root: Root, embed: (Value) -> Root) -> Value? {
    let mirror = Mirror(reflecting: root)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, let value = child.value as? Value,
      Mirror(reflecting: embed(value)).children.first?.label == child.label
    else { return nil }
    return value
  }
}
