import Dictation
import DicteeCore
import Foundation
import Ingest
import Store

/// A child's progress over the last weeks, as one self-contained HTML page (`dictee report`):
/// per skill, its state at the end of each week (replayed with the live rule: ``SkillTimeline``)
/// and, per graded dictation that practised it, its sites as circles (filled: missed); then the
/// dictations served in the period with their dates and moments.
///
/// Self-contained: no script, no font, no link, no image file, nothing fetched; the drawings are
/// inline SVG; a `Content-Security-Policy: default-src 'none'` meta (styles inline only) makes the
/// browser refuse any load. No total score, no average, no percentage anywhere (Docs/domain.md §1).
/// The texts follow `Language.current`; the state names are the pedagogy's (``Desk/label(_:)``).
///
/// - Warning: the page holds the child's first name and moment phrases; it is for the family.
public struct ProgressPage: Sendable {
    /// The child.
    public var child: Child
    /// The Monday of each week shown, oldest first.
    public var weeks: [CalendarDate]
    /// The last day of the period ("now" in the zone).
    public var lastDay: CalendarDate
    /// The skills shown (taught at the child's grade, or met in a graded dictation), in skill
    /// order, one state per week.
    public var timelines: [SkillTimeline]
    /// The dictations served in the period, newest first.
    public var dictations: [DictationRecord]
    /// The zone the days are read in.
    public var zone: CalendarZone
    /// When the period starts (the first Monday, midnight in `zone`), seconds since the epoch.
    public var periodStart: Int64

    /// The page of `child` for the `weeks` weeks (Monday to Sunday) up to the one holding `now`.
    /// - Parameters:
    ///   - weeks: 1 or more.
    ///   - now: seconds since the epoch; gradings after it are left out.
    /// - Throws: `HouseholdError.state`.
    public static func make(child: Child, _ store: StateStore, zone: CalendarZone, now: Int64, weeks: Int) throws(HouseholdError) -> ProgressPage {
        guard let childID = child.id else { throw .state(.unknownChild) }
        let today = zone.date(at: now)
        let weekday = ((today.daysSinceEpoch + 3) % 7 + 7) % 7  // Monday 0 (1970-01-01 was a Thursday)
        let thisMonday = today.adding(days: -weekday)
        let count = max(1, weeks)
        let mondays = (0..<count).map { thisMonday.adding(days: -7 * (count - 1 - $0)) }
        let start = zone.seconds(of: .date(mondays[0]))
        // A week's state is the one at its end (the next Monday), or now for the current week.
        let boundaries = mondays.map { monday in
            Date(timeIntervalSince1970: TimeInterval(min(zone.seconds(of: .date(monday.adding(days: 7))), now + 1)))
        }
        let history: [SkillExposure]
        let served: [DictationRecord]
        do {
            history = try store.exposures(childID: childID).filter { $0.gradedAt.timeIntervalSince1970 <= TimeInterval(now) }
            served = try store.history(childID: childID, since: Date(timeIntervalSince1970: TimeInterval(start)))
                .filter { ($0.servedAt?.timeIntervalSince1970 ?? 0) <= TimeInterval(now) }
        } catch {
            throw .state(error)
        }
        let timelines = SkillTimeline.build(history, boundaries: boundaries)
            .filter { $0.skill.isTaught(at: child.grade) || !$0.exposures.isEmpty }
        return ProgressPage(child: child, weeks: mondays, lastDay: today, timelines: timelines, dictations: served,
                            zone: zone, periodStart: start)
    }

    /// What separates skills in a list: `; ` (` ; ` in French), since a label may hold commas
    /// ("m devant m, b, p").
    public static var skillSeparator: String { tr("; ") }

    /// The skills a dictation trained, by label, `skillSeparator` between them.
    public static func trainedSummary(_ d: DictationRecord) -> String {
        d.trainedSkills.isEmpty ? tr("no trap site") : d.trainedSkills.map(\.label).joined(separator: skillSeparator)
    }

    /// What a served dictation's sites missed say, in the current language: `homophones a / à (2);
    /// lettres muettes finales (1)`; "no site missed"; "not graded" before the grading. The one
    /// wording of `dictee history` and of the page.
    public static func missedSummary(_ d: DictationRecord) -> String {
        guard let missed = d.missedBySkill else { return tr("not graded") }
        if missed.isEmpty { return tr("no site missed") }
        return missed.map { "\($0.skill.label) (\($0.count))" }.joined(separator: skillSeparator)
    }

    /// The day a dictation was served, in the zone (its creation day if it has none).
    public func servedDay(_ d: DictationRecord) -> CalendarDate { zone.date(of: d.servedAt ?? d.createdAt) }

    // MARK: Drawing

    /// Fill colours of the states (grey, blue, orange, green), printed as they are.
    static func colour(_ state: SkillState) -> String {
        switch state {
        case .nonVu: "#e4e4e4"
        case .enCours: "#a9d4ee"
        case .fragile: "#f4c05a"
        case .maitrise: "#8fcf8a"
        }
    }

    /// Width of one week in the drawings, in CSS pixels.
    var cell: Int { weeks.count <= 10 ? 84 : max(24, 840 / weeks.count) }

    /// One skill's drawing: a band of weeks coloured by state (named when there is room), the
    /// graded dictations of the week as groups of circles, one per site (filled: missed), and the
    /// weeks' Mondays below.
    func svg(_ t: SkillTimeline) -> String {
        let e = MarkupText.escaped
        let language = Language.current
        let width = cell * weeks.count
        let height = 84
        var parts: [String] = []
        for (k, monday) in weeks.enumerated() {
            let x = k * cell
            let state = t.states[k]
            parts.append("<rect x=\"\(x + 1)\" y=\"0\" width=\"\(cell - 2)\" height=\"26\" rx=\"3\" fill=\"\(Self.colour(state))\">"
                         + "<title>" + e(tr("week of %@: %@", language.shortDay(monday), Desk.label(state))) + "</title></rect>")
            if cell >= 60 {
                parts.append("<text x=\"\(x + cell / 2)\" y=\"17\" text-anchor=\"middle\" class=\"etat\">" + e(Desk.label(state)) + "</text>")
            }
            // The graded dictations of this week that practised the skill.
            let from = zone.seconds(of: .date(monday)), to = zone.seconds(of: .date(monday.adding(days: 7)))
            var cursor = x + 5, row = 0
            for exposure in t.exposures {
                let at = Int64(exposure.gradedAt.timeIntervalSince1970.rounded(.down))
                guard at >= from, at < to else { continue }
                let span = exposure.sites * 9
                if cursor + span > x + cell - 2, cursor > x + 5 { cursor = x + 5; row += 1 }
                guard row < 3 else { break }
                let y = 38 + row * 11
                let label = language.isSingular(exposure.errors)
                    ? tr("%@: %ld site missed", language.shortDay(zone.date(of: exposure.gradedAt)), exposure.errors)
                    : tr("%@: %ld sites missed", language.shortDay(zone.date(of: exposure.gradedAt)), exposure.errors)
                var circles = "<g><title>" + e(label) + "</title>"
                for s in 0..<exposure.sites {
                    let missed = s < exposure.errors
                    circles += "<circle cx=\"\(cursor + s * 9 + 4)\" cy=\"\(y)\" r=\"3.5\" class=\"\(missed ? "rate" : "juste")\"/>"
                }
                parts.append(circles + "</g>")
                cursor += span + 7
            }
            parts.append("<text x=\"\(x + 3)\" y=\"\(height - 4)\" class=\"semaine\">" + e(language.shortDay(monday)) + "</text>")
        }
        return "<svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">"
            + parts.joined() + "</svg>"
    }

    /// The whole page: a heading, the legend, one drawing per skill, the table of dictations.
    public func html() -> String {
        let e = MarkupText.escaped
        let language = Language.current
        let title = tr("Progress of %@", child.firstName)
        let period = weeks.count == 1 ? tr("The week up to %@", language.longDay(lastDay))
            : tr("The %ld weeks up to %@", weeks.count, language.longDay(lastDay))
        let legend = [SkillState.nonVu, .enCours, .fragile, .maitrise].map { state in
            "<span class=\"cle\"><svg width=\"14\" height=\"14\"><rect width=\"14\" height=\"14\" rx=\"3\" fill=\"\(Self.colour(state))\"/></svg> "
                + e(Desk.label(state)) + "</span>"
        }.joined(separator: "\n")
            + "\n<span class=\"cle\"><svg width=\"10\" height=\"10\"><circle cx=\"5\" cy=\"5\" r=\"3.5\" class=\"rate\"/></svg> " + e(tr("site missed")) + "</span>"
            + "\n<span class=\"cle\"><svg width=\"10\" height=\"10\"><circle cx=\"5\" cy=\"5\" r=\"3.5\" class=\"juste\"/></svg> " + e(tr("site written right")) + "</span>"
        let skills = timelines.map { t in
            "<section class=\"competence\">\n<h3>" + e(t.skill.label) + "</h3>\n" + svg(t) + "\n</section>"
        }.joined(separator: "\n")
        let rows = dictations.map { d in
            "<tr><td>" + e(language.shortDay(servedDay(d))) + "</td><td>" + e(d.moment) + "</td><td>"
                + e(Self.trainedSummary(d)).replacingOccurrences(of: e(Self.skillSeparator), with: "<br>") + "</td><td>"
                + e(Self.missedSummary(d)).replacingOccurrences(of: e(Self.skillSeparator), with: "<br>") + "</td></tr>"
        }.joined(separator: "\n")
        let table = dictations.isEmpty ? "<p>" + e(tr("No dictation was served in this period.")) + "</p>"
            : "<table>\n<thead><tr><th>" + e(tr("Day")) + "</th><th>" + e(tr("Moment")) + "</th><th>" + e(tr("Skills practised"))
                + "</th><th>" + e(tr("Sites missed")) + "</th></tr></thead>\n<tbody>\n" + rows + "\n</tbody>\n</table>"
        return """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>\(e(title))</title>
        <style>
        @page { size: A4; margin: 1.5cm; }
        body { font-family: sans-serif; color: #000; background: #fff; margin: 16px; max-width: 900px; }
        h1 { font-size: 22pt; margin: 0 0 4px 0; }
        h2 { font-size: 15pt; margin: 22px 0 8px 0; }
        h3 { font-size: 11pt; font-weight: normal; margin: 10px 0 2px 0; }
        .periode, .aide { font-size: 11pt; margin: 0 0 8px 0; }
        .cle { font-size: 10pt; margin-right: 14px; white-space: nowrap; }
        .competence { break-inside: avoid; page-break-inside: avoid; }
        svg { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        .etat { font-size: 10px; fill: #000; }
        .semaine { font-size: 9px; fill: #555; }
        .rate { fill: #c0392b; stroke: #c0392b; stroke-width: 1; }
        .juste { fill: #fff; stroke: #555; stroke-width: 1; }
        table { border-collapse: collapse; font-size: 10pt; }
        th, td { border: 1px solid #999; padding: 3px 6px; text-align: left; vertical-align: top; }
        </style>
        </head>
        <body>
        <h1>\(e(title))</h1>
        <p class="periode">\(e(child.grade.rawValue + " · " + period))</p>
        <h2>\(e(tr("Skills, week by week")))</h2>
        <p class="aide">\(e(tr("Each band is a week, coloured by the skill's state at its end. Under it, one group of circles per graded dictation that practised the skill, one circle per site.")))</p>
        <p>\(legend)</p>
        \(skills)
        <h2>\(e(tr("Dictations of the period")))</h2>
        \(table)
        </body>
        </html>

        """
    }
}
