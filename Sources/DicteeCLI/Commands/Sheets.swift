import Dictation
import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee sheets --child NAME [--next N] --html PATH`: the child's next N dictations, dealt
    /// and served as N picks of card 1 would be (`Desk.nextReady`), printed in one A4 page (the
    /// children's pages, then the parent's: `DictationSheet.html(_:)`).
    ///
    /// stdout: one line per dictation served (`id  day  moment`), then `wrote PATH`.
    /// Exit status: 0 written (a warning when fewer than N were ready), 64 usage or unknown child,
    /// 65 no dictation to offer, 69 the lexicon or the French dictionary is missing, 74 the page
    /// cannot be written (checked before anything is served).
    struct Sheets: Command {
        static let name = "sheets"
        static var summary: String { tr("the next dictations of a child, served and printed in one A4 page") }
        static let options = OptionSpec(valued: ["child", "next", "html"] + TimeOptions.names, flags: [])
        static var help: String { tr("help.sheets", defaultCount, maximumCount) }

        /// `--next` when it is not given: a school week.
        static let defaultCount = 5
        /// The most `--next` accepts.
        static let maximumCount = 20

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage(tr("sheets takes no argument besides its options"), hint: "dictee sheets --child Léa --next 5 --html semaine.html")
            }
            var count = defaultCount
            if let given = arguments.values["next"] {
                guard let n = Int(given), (1...maximumCount).contains(n) else {
                    throw .usage(tr("--next needs a number of dictations, 1 to %ld", maximumCount), hint: "dictee sheets --child Léa --next 5 --html semaine.html")
                }
                count = n
            }
            guard let path = arguments.values["html"], !path.isEmpty else {
                throw .usage(tr("--html PATH is needed: the page to write"), hint: "dictee sheets --child Léa --next 5 --html semaine.html")
            }
            // Everything that could fail after the dictations are served is checked first: the
            // page's path and the validator the mots donnés need.
            let target = try PageFile.target(path)
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let validator = try household { () throws(HouseholdError) in try Validators.forWords(environment: context.environment) }
            let served = try household { () throws(HouseholdError) in
                try Desk.nextReady(for: child, count: count, store, now: now, zone: zone, makeSession: { () throws(HouseholdError) in
                    try Desk.librarySession(environment: context.environment, warn: { output.warning($0) })
                })
            }
            if served.isEmpty {
                throw .data(tr("no dictation to print: no approved moment the child did not have yet"),
                            hint: tr("run 'dictee ingest FILE' with a recent calendar, and 'dictee review' to label the events waiting for you"))
            }
            let sheets = served.map { Desk.printable($0, child: child, store, zone: zone, validator: validator) }
            try PageFile.write(DictationSheet.html(sheets), toTarget: target)
            for d in served {
                output.line(String(d.id) + "  " + Language.current.shortDay(zone.date(of: d.start)) + "  " + d.moment)
            }
            output.line(tr("wrote %@", path))
            if served.count < count {
                output.warning(tr("only %ld of the %ld dictations asked for could be dealt; label more events with 'dictee review'", served.count, count))
            }
            output.hint(tr("the dictations are served: once the child has written one, 'dictee grade ID'"))
            return .ok
        }
    }
}
