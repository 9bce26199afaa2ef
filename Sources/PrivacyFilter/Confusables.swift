// The only file that calls ICU's spoof checker (Debian libicu-dev, through Sources/CConfusables).

internal import CConfusables

/// Unicode Technical Standard #39 skeletons: look-alike characters mapped to one prototype.
enum Confusables {
    /// The skeleton of `text` (ICU `uspoof_getSkeletonUTF8`), or `text` itself when ICU fails.
    static func skeleton(_ text: String) -> String {
        let capacity = text.utf8.count * 8 + 16
        var out = [CChar](repeating: 0, count: capacity)
        let length = dictee_confusable_skeleton(text, &out, Int32(capacity))
        guard length >= 0 else { return text }
        return String(decoding: out[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
