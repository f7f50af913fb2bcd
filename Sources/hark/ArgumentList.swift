import Localization

struct UsageError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// The arguments after a command: options are taken out by name, then the
/// positionals in order; `finish()` rejects whatever is left. `--` ends the
/// options: everything after it is a positional, even `-file.ogg`.
struct ArgumentList {
    private var items: [String]
    /// What came after `--`.
    private var literals: [String]
    private let command: String

    init(_ items: [String], command: String) {
        if let end = items.firstIndex(of: "--") {
            self.items = Array(items[..<end])
            literals = Array(items[(end + 1)...])
        } else {
            self.items = items
            literals = []
        }
        self.command = command
    }

    /// `--name VALUE` or `--name=VALUE`; nil when absent. A VALUE that is
    /// itself an option (`--title --raw`) is refused rather than taken: the
    /// value was forgotten. One that truly starts with `--` goes after `=`.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        if let index = items.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            return String(items.remove(at: index).dropFirst(name.count + 1))
        }
        guard let index = items.firstIndex(of: name) else { return nil }
        guard index + 1 < items.count else { throw UsageError(tr("{option} needs a value", ["option": name])) }
        let value = items[index + 1]
        if value.hasPrefix("--") {
            throw UsageError(tr("{option} needs a value, not the option '{value}' (for a value starting with '--', write {option}={value})",
                                ["option": name, "value": value]))
        }
        items.remove(at: index)
        return items.remove(at: index)
    }

    /// A plain decimal number (`2`, `0.5`, `1e3`): not the hexadecimal
    /// (`0x1p3`), `inf` or `nan` that `Double(_:)` also reads.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard DecimalNumber.isPlain(text), let value = Double(text), value.isFinite, range.contains(value) else {
            if range.upperBound == .greatestFiniteMagnitude {
                throw UsageError(tr("{option} takes a number of at least {minimum}, not '{text}'",
                                    ["option": name, "minimum": range.lowerBound.formatted(), "text": text]))
            }
            throw UsageError(tr("{option} takes a number from {minimum} to {maximum}, not '{text}'",
                                ["option": name, "minimum": range.lowerBound.formatted(),
                                 "maximum": range.upperBound.formatted(), "text": text]))
        }
        return value
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = items.firstIndex(of: name) else { return false }
        items.remove(at: index)
        return true
    }

    mutating func positional(_ label: String) throws(UsageError) -> String {
        if let index = items.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) {
            return items.remove(at: index)
        }
        guard !literals.isEmpty else {
            // TRANSLATORS: {argument} names what is missing, as `hark --help` writes it: FILE, ID, "FILE or ID".
            throw UsageError(tr("'{command}' needs {argument}", ["command": command, "argument": label]))
        }
        return literals.removeFirst()
    }

    func finish() throws(UsageError) {
        if let option = items.first(where: { $0.hasPrefix("-") }) {
            throw UsageError(tr("unknown option '{option}' for '{command}'", ["option": option, "command": command]))
        }
        if let extra = items.first ?? literals.first {
            throw UsageError(tr("unexpected argument '{argument}' for '{command}'", ["argument": extra, "command": command]))
        }
    }
}

private extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
