import DicteeCore
import Testing

@Suite("EventReference: short UID hashes for logs")
struct EventReferenceTests {
    @Test("stable, short, and never the UID itself")
    func shape() {
        let uid = "anniv-de-tom-2026@google.com"
        let ref = EventReference(uid: uid)
        #expect(ref == EventReference(uid: uid))
        #expect(ref.description.hasPrefix("ev-"))
        #expect(ref.description.count == 15)
        #expect(EventReference(ref.description) == ref)
        #expect(EventReference("ev-xyz") == nil)
        #expect(!ref.description.contains("tom"))
        #expect(ref != EventReference(uid: uid + "x"))
    }

    @Test("diagnostics show the reference, not the UID")
    func diagnostic() {
        let d = Diagnostic(
            severity: .error, location: SourceLocation(file: "a.ics", line: 12),
            uid: "secret-title-uid", code: "invalid-date", message: "dtstart is not a real date")
        #expect(d.description.hasPrefix("a.ics:12: error: dtstart is not a real date (ev-"))
        #expect(!d.description.contains("secret"))
    }
}
