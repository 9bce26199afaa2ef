import DicteeCore
import Foundation
import Store
import Household
import Ingest

/// What the child and dictation commands start from, parsed once.
enum DeskOptions {
    /// The child commands (cards, pick, skills): the state (which must exist), the child of
    /// `--child`, the zone of stored dates (`--tz`, else the last ingest's), and "now" (`--now`,
    /// else the clock).
    static func openChild(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
        -> (store: StateStore, child: Child, zone: CalendarZone, now: Int64)
    {
        guard let name = arguments.values["child"], !name.isEmpty else { throw .usage(tr("--child NAME is needed")) }
        let store = try StateOptions.open(context, create: false)
        let child = try household { () throws(HouseholdError) in try Desk.child(named: name, store) }
        let zone = try TimeOptions.storedZone(arguments, store, context)
        return (store, child, zone, try TimeOptions.now(arguments, context, in: zone))
    }

    /// The dictation commands (show, grade): the state, dictation `ID` (the one positional
    /// argument) with its child, and the zone of stored dates.
    static func openDictation(_ arguments: ParsedArguments, _ context: CommandContext, command: String) throws(CommandFailure)
        -> (store: StateStore, dictation: DictationRecord, child: Child, zone: CalendarZone)
    {
        guard arguments.positionals.count == 1, let id = Int64(arguments.positionals[0]), id > 0 else {
            throw .usage(tr("%@ needs one dictation id (a number, as 'dictee pick' prints it)", command), hint: "dictee \(command) 12")
        }
        let store = try StateOptions.open(context, create: false)
        let (dictation, child) = try household { () throws(HouseholdError) in try Desk.dictation(id, store) }
        return (store, dictation, child, try TimeOptions.storedZone(arguments, store, context))
    }

}
