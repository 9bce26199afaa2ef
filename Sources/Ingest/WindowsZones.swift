// The only file that calls ICU (Debian libicu-dev, through the C doorway in Sources/CICU): CLDR's
// windowsZones table, which maps the Windows time zone names Outlook and Exchange write into TZID
// ("Romance Standard Time") to IANA names ("Europe/Paris"). Source: Unicode CLDR
// supplemental/windowsZones.xml, as compiled into ICU.

internal import CICU

enum WindowsZones {
    /// The IANA name for a Windows zone name (territory "001", CLDR's default), or `nil`.
    static func ianaName(forWindowsName name: String) -> String? {
        guard !name.isEmpty, name.utf8.count < 120 else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        let length = dictee_icu_iana_for_windows_zone(name, &buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
