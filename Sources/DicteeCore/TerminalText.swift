/// Text from outside (a calendar title from someone else's invitation) made safe to print on a
/// terminal: every control, format (bidirectional overrides such as U+202E, zero-width
/// characters), line or paragraph separator and private-use scalar becomes a space, so no escape
/// sequence and no reordering reaches the parent's screen. The one rule for every command that
/// prints raw titles (`events`, `review --show-titles`).
public enum TerminalText {
    /// `text` with the unsafe scalars replaced by spaces (one for one).
    public static func sanitized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse: " "
            default: scalar
            }
        }))
    }
}
