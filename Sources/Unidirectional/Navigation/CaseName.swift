/// The name of `value`'s enum case, for messages about a value in the wrong case (reflection: error paths only).
func caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum, let label = mirror.children.first?.label { return "\"\(label)\"" }
  return "\"\(value)\""
}
