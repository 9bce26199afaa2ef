import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee report --child NAME --html PATH [--weeks N]`: a self-contained progress page
    /// (``ProgressPage``): per skill, its state week by week and the sites missed per graded
    /// dictation; the dictations of the period. No score, nothing fetched.
    /// Exit status: 0 written, 64 usage, 65 no state, 74 the page cannot be written.
    struct Report: Command {
        static let name = "report"
        static var summary: String { tr("summary.report") }
        static let options = OptionSpec(valued: ["child", "html", "weeks"] + TimeOptions.names, flags: [])
        static let defaultWeeks = 8
        static var help: String { tr("help.report", defaultWeeks) }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            guard arguments.positionals.isEmpty else { throw .usage(tr("report takes no argument besides --child NAME and --html PATH")) }
            guard let path = arguments.values["html"], !path.isEmpty else {
                throw .usage(tr("--html PATH is needed: the file to write the page to"), hint: "dictee report --child Léa --html progres.html")
            }
            var weeks = defaultWeeks
            if let text = arguments.values["weeks"] {
                guard let n = Int(text), (1...52).contains(n) else {
                    throw .usage(tr("--weeks: '%@' is not a number of weeks from 1 to 52", text))
                }
                weeks = n
            }
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let page = try household { () throws(HouseholdError) in
                try ProgressPage.make(child: child, store, zone: zone, now: now, weeks: weeks)
            }
            try PageFile.write(page.html(), to: path)
            context.output.line(tr("wrote %@", path))
            return .ok
        }
    }
}
