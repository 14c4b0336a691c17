/// A readable name for `type`, as ``customDump(_:)`` and ``describe(_:)`` write it: module names and
/// anonymous/private contexts are dropped.
///
/// ```swift
/// typeName(Counter.State.self)   // "Counter.State"
/// ```
///
/// Names are worked out once per type and kept: a dump names a type at every node, and reflecting a type's name
/// and cleaning it was half of what `printChanges` spent per action.
public func typeName(_ type: Any.Type) -> String {
  typeNames.value(for: type) { uncachedTypeName(type) }
}

/// The names ``typeName(_:)`` has worked out, by type. A program has finitely many types; the cache still starts
/// over past 10,000 of them (generic types instantiated from data could otherwise grow it without bound).
private let typeNames = TypeCache<String>()
