import Foundation

/// A part of a store's state that an observer read (`store.count`, the ids of `store.scope(state: \.rows, …)`, the
/// presence of an optional child): the value it had then, and how to tell that it changed.
///
/// Which values count as changed: an `Equatable` value when it is no longer equal (writing an equal value notifies
/// nobody, as in TCA's observable state); any other value when its bits differ from those read (a write that leaves
/// them identical notifies nobody, a write that changes them does, even to an equivalent value). The value read is
/// kept alive meanwhile, so identical bits always mean the same value.
class ObservedField<State>: @unchecked Sendable {
  /// What the field is registered under with the store's `ObservationRegistrar`.
  let key: ObservedFieldKey

  init(key: ObservedFieldKey) {
    self.key = key
  }

  /// Whether the field differs in `state` from the value last read; keeps the new value. Call with the table's
  /// lock held.
  func hasChanged(in state: State) -> Bool { fatalError("abstract") }
}

/// A field read through a key path, compared as its value's type allows (see ``ObservedField``).
final class KeyPathField<State, Value>: ObservedField<State>, @unchecked Sendable {
  private let keyPath: KeyPath<State, Value>
  private let isSame: (Value, Value) -> Bool
  /// The value observers last read; guarded by the table's lock.
  var last: Value

  init(keyPath: KeyPath<State, Value>, key: ObservedFieldKey, value: Value, isSame: @escaping (Value, Value) -> Bool) {
    self.keyPath = keyPath
    self.isSame = isSame
    self.last = value
    super.init(key: key)
  }

  override func hasChanged(in state: State) -> Bool {
    let current = state[keyPath: keyPath]
    if isSame(last, current) { return false }
    last = current
    return true
  }
}

/// A field derived by a function (the ids of a collection, whether an optional child is present).
final class DerivedField<State, Value>: ObservedField<State>, @unchecked Sendable {
  private let derive: (borrowing State) -> Value
  private let isSame: (Value, Value) -> Bool
  var last: Value

  init(
    key: ObservedFieldKey, value: Value, derive: @escaping (borrowing State) -> Value,
    isSame: @escaping (Value, Value) -> Bool
  ) {
    self.derive = derive
    self.isSame = isSame
    self.last = value
    super.init(key: key)
  }

  override func hasChanged(in state: State) -> Bool {
    let current = derive(state)
    if isSame(last, current) { return false }
    last = current
    return true
  }
}

/// The identity of an observed field: its key path, or its key path and what is derived from it.
struct ObservedFieldKey: Hashable, @unchecked Sendable {
  enum Part: Hashable {
    case value
    case ids
    case presence
  }

  let keyPath: AnyKeyPath
  let part: Part
}

/// How two values of `Value` are compared for observation: `==` when `Value` is `Equatable`, their bits otherwise.
func observationComparison<Value>(for _: Value.Type) -> (Value, Value) -> Bool {
  if let equatable = Value.self as? any Equatable.Type {
    return equatableComparison(equatable, as: Value.self)
  }
  return { lhs, rhs in bitwiseIdentical(lhs, rhs) }
}

private func equatableComparison<E: Equatable, Value>(_: E.Type, as _: Value.Type) -> (Value, Value) -> Bool {
  // `Value` is `E` at run time: the cast is a reinterpretation of the same type, not a conversion.
  { lhs, rhs in unsafeBitCast(lhs, to: E.self) == unsafeBitCast(rhs, to: E.self) }
}

/// Whether two values have the same bits (for a value type holding references: the same references).
func bitwiseIdentical<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
  var lhs = lhs
  var rhs = rhs
  return withUnsafeBytes(of: &lhs) { left in
    withUnsafeBytes(of: &rhs) { right in
      guard left.count == right.count, let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
        return left.count == right.count
      }
      return memcmp(leftBase, rightBase, left.count) == 0
    }
  }
}
