import DicteeCore
/// A parsed command line for one command: options with values, flags, and positional arguments.
///
/// Accepted forms: `--name value`, `--name=value`, `--flag`, and `--` to end options.
public struct ParsedArguments: Sendable {
    /// Option values by name (without dashes); the last one wins.
    public var values: [String: String] = [:]
    /// Flags that were given.
    public var flags: Set<String> = []
    /// Positional arguments in order.
    public var positionals: [String] = []
}

/// What a command accepts.
struct OptionSpec: Sendable {
    /// Options taking a value, e.g. `now`, `tz`.
    var valued: [String]
    /// Flags, e.g. `json`.
    var flags: [String]
}

/// A usage error: printed with `error:` and exit 64.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

enum ArgumentParser {
    /// Parses `arguments` against `spec`.
    /// - Throws: `UsageError` naming the unknown option and the nearest valid one.
    static func parse(_ arguments: [String], spec: OptionSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var k = 0
        var optionsEnded = false
        while k < arguments.count {
            let a = arguments[k]
            k += 1
            if optionsEnded || !a.hasPrefix("-") || a == "-" {
                parsed.positionals.append(a)
                continue
            }
            if !a.hasPrefix("--") {
                // Short options are not used; "-j" is a typo, not a file name.
                let known = (spec.valued + spec.flags).map { "--" + $0 }
                var message = tr("unknown option '%@'", a)
                if let near = known.first(where: { $0.dropFirst(2).hasPrefix(a.dropFirst()) })
                    ?? NearestWord.find("-" + a, in: known)
                {
                    message += tr("; did you mean '%@'?", near)
                }
                throw UsageError(description: message + tr(" (a file name starting with '-' goes after '--')"))
            }
            if a == "--" {
                optionsEnded = true
                continue
            }
            var name = String(a.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if spec.valued.contains(name) {
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else {
                    guard k < arguments.count, !arguments[k].hasPrefix("--") else {
                        throw UsageError(description: tr("option '%@' needs a value", "--" + name))
                    }
                    parsed.values[name] = arguments[k]
                    k += 1
                }
            } else if spec.flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError(description: tr("option '%@' takes no value", "--" + name))
                }
                parsed.flags.insert(name)
            } else {
                let known = (spec.valued + spec.flags).map { "--" + $0 }
                var message = tr("unknown option '%@'", "--" + name)
                if let near = NearestWord.find("--" + name, in: known) { message += tr("; did you mean '%@'?", near) }
                throw UsageError(description: message)
            }
        }
        return parsed
    }
}
