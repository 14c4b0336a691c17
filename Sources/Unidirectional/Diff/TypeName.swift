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

/// Values worked out once per type and shared by every thread: a type's readable name, how its values are dumped.
///
/// Dumping a state walks the same few types over and over; what a type is (its name, which of the dump's protocols
/// it conforms to) does not change, and finding out costs far more than a locked dictionary lookup.
///
/// ```swift
/// let names = TypeCache<String>()
/// names.value(for: Int.self) { uncachedTypeName(Int.self) }  // worked out once, then looked up
/// ```
final class TypeCache<Value: Sendable>: @unchecked Sendable {
  private let lock = Lock()
  /// Guarded by `lock`; behind a pointer, so a lookup pays no dynamic exclusivity check.
  private let values: UnsafeMutablePointer<[ObjectIdentifier: Value]>
  /// Past this many types the cache starts over (a bound for programs that make types at run time).
  private let limit: Int

  init(limit: Int = 10_000) {
    self.limit = limit
    values = .allocate(capacity: 1)
    values.initialize(to: [:])
  }

  deinit {
    values.deinitialize(count: 1)
    values.deallocate()
  }

  /// The value for `type` if it has been worked out.
  func cachedValue(for type: Any.Type) -> Value? {
    let key = ObjectIdentifier(type)
    return lock.withLock { values.pointee[key] }
  }

  /// Changes the value kept for `type` (a no-op when there is none).
  func update(for type: Any.Type, _ change: (inout Value) -> Void) {
    let key = ObjectIdentifier(type)
    lock.withLock {
      guard var value = values.pointee[key] else { return }
      change(&value)
      values.pointee[key] = value
    }
  }

  /// The value for `type`, from `compute` the first time.
  func value(for type: Any.Type, compute: () -> Value) -> Value {
    if let known = cachedValue(for: type) { return known }
    let value = compute()
    let key = ObjectIdentifier(type)
    lock.withLock {
      if values.pointee.count >= limit { values.pointee.removeAll(keepingCapacity: true) }
      values.pointee[key] = value
    }
    return value
  }
}

/// The readable name of `type` (see ``typeName(_:)``), worked out from `String(reflecting:)` each time.
func uncachedTypeName(_ type: Any.Type) -> String {
  let reflected = Array(String(reflecting: type))
  // Pass 1: drop "(unknown context at $…)." and "(extension in M):", unwrap "(Name in _hash)".
  var cleaned = ""
  var index = 0
  while index < reflected.count {
    let character = reflected[index]
    guard character == "(", let closing = reflected[index...].firstIndex(of: ")") else {
      cleaned.append(character)
      index += 1
      continue
    }
    let inner = String(reflected[(index + 1)..<closing])
    if inner.hasPrefix("unknown context at ") || inner.hasPrefix("extension in ") {
      index = closing + 1
      if index < reflected.count, reflected[index] == "." || reflected[index] == ":" {
        index += 1
      }
    } else if !inner.contains("("), let range = inner.range(of: " in "),
      inner[range.upperBound...].hasPrefix("_") || inner[range.upperBound...].hasPrefix("$")
    {
      cleaned += inner[..<range.lowerBound]
      index = closing + 1
    } else {
      cleaned.append(character)
      index += 1
    }
  }
  // Pass 2: drop the leading (module) component of every dotted path.
  var result = ""
  var component = ""
  var path: [String] = []
  func flush() {
    if !component.isEmpty || !path.isEmpty { path.append(component) }
    result += (path.count > 1 ? path.dropFirst() : path[...]).joined(separator: ".")
    path = []
    component = ""
  }
  for character in cleaned {
    if character.isLetter || character.isNumber || character == "_" || character == "$" {
      component.append(character)
    } else if character == ".", !component.isEmpty {
      path.append(component)
      component = ""
    } else {
      flush()
      result.append(character)
    }
  }
  flush()
  return result
}
