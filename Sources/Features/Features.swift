/// The product's features, one folder each: `XFeature.swift` (State, Action, body), `XClient.swift` (the
/// dependency's interface with its test and preview values) and `XClient+Live.swift` (the real implementation).
public enum Features {}
