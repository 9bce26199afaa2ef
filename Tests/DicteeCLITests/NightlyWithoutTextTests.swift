import DicteeCore
@testable import DicteeCLI
import Foundation
import Household
import Testing

/// Issue 12: `dictee nightly` names each moment left without a text, by its date in words and its
/// event reference (never a title or a phrase), with what to do about it.
@Suite struct NightlyWithoutTextTests {
    func rendered(_ m: MomentWithoutText) -> (out: String, err: String) {
        final class Box: @unchecked Sendable { var out = ""; var err = "" }
        let box = Box()
        Dictee.Nightly.RunLog(output: OutputSink(out: { box.out += $0 }, err: { box.err += $0 })).render(.withoutText(m))
        return (box.out, box.err)
    }

    static let event = EventReference(uid: "label-event@example.org")
    static let date = CalendarDate(year: 2026, month: 11, day: 28)

    @Test func aLabelWithoutATextIsNamedWithItsDateAndReferenceAndAKindHint() {
        let r = rendered(MomentWithoutText(childID: 2, event: Self.event, date: Self.date, isLabel: true, textsFit: true))
        #expect(r.out.isEmpty)
        #expect(r.err.contains("child 2: no text for the moment of Saturday 28 November 2026 (\(Self.event)): no library text that fits it passed the validator"), "\(r.err)")
        #expect(r.err.contains("hint: find the label of \(Self.event) with 'dictee suggestions list --all', take it back ('dictee suggestions unlabel ID')"), "\(r.err)")
        #expect(r.err.contains("e.g. --kind sortie"))
        #expect(r.err.contains("or reject it once taken back ('dictee suggestions reject ID')"))
    }

    @Test func aWhitelistMomentWithoutATextPointsAtTheValidator() {
        let r = rendered(MomentWithoutText(childID: 1, event: Self.event, date: Self.date, isLabel: false, textsFit: true))
        #expect(r.err.contains("child 1: no text for the moment of Saturday 28 November 2026 (\(Self.event))"))
        #expect(r.err.contains("hint: check the validator on a text: dictee check"), "\(r.err)")
        let none = rendered(MomentWithoutText(childID: 1, event: Self.event, date: Self.date, isLabel: false, textsFit: false))
        #expect(none.err.contains("no library text fits it"))
    }

    @Test func inFrenchTheDateAndTheHintAreFrench() {
        let r = Language.$current.withValue(.french) {
            rendered(MomentWithoutText(childID: 2, event: Self.event, date: Self.date, isLabel: false, textsFit: false))
        }
        #expect(r.err.contains("enfant 2 : pas de texte pour le moment du samedi 28 novembre 2026 (\(Self.event))"), "\(r.err)")
    }
}
