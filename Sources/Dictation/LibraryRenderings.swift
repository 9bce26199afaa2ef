import DicteeCore
import French

/// One library text rendered for one child and one moment, with the plan it must satisfy.
public struct LibraryRendering: Sendable {
    public var text: LibraryText
    public var draft: Draft
    public var plan: DictationPlan
}

extension Library {
    /// The children every library text is proven for: both genders, and names that start with a
    /// consonant, a vowel (Inès: "d'Inès") and a mute h (Hugo: "d'Hugo").
    public static let sampleChildren: [(firstName: String, gender: Gender)] = [
        ("Léa", .feminine), ("Inès", .feminine), ("Tom", .masculine), ("Hugo", .masculine),
    ]

    /// The friend's name used for phrases with a name slot ("l'anniversaire de Jules").
    public static let sampleFriend = "Jules"

    /// Every rendering the library must get right: each text, for each sample child (at the
    /// text's grade), for each canonical phrase that fits the text's kinds, and for phrases with
    /// a name slot both without and with a friend's name.
    /// - Parameters:
    ///   - phrases: the whitelist's canonical phrases with their grammar and name slot (`de`,
    ///     `chez` or `nil`).
    ///   - sitesPerTarget: trap sites required per skill of the text.
    /// - Throws: a `LibraryError` when a text cannot be rendered.
    public func renderings(phrases: [(phrase: String, grammar: PhraseGrammar, slot: String?)], sitesPerTarget: Int = 2)
        throws -> [LibraryRendering]
    {
        var moments: [(MomentPhrase, Set<String>)] = []
        for p in phrases {
            let kinds = kinds(of: p.phrase)
            moments.append((MomentPhrase(phrase: p.phrase, grammar: p.grammar), kinds))
            if let slot = p.slot {
                moments.append((MomentPhrase(phrase: "\(p.phrase) \(slot) \(Library.sampleFriend)", grammar: p.grammar,
                                             friendName: Library.sampleFriend), kinds))
            }
        }
        var out: [LibraryRendering] = []
        for text in texts {
            for (moment, kinds) in moments where text.fits(kinds) {
                for (name, gender) in Library.sampleChildren {
                    let child = Child(firstName: name, gender: gender, grade: text.grade)
                    let rendered = try text.render(firstName: name, gender: gender, moment: moment)
                    out.append(LibraryRendering(
                        text: text, draft: Draft(text: rendered),
                        plan: DictationPlan(child: child, moment: moment, targets: text.skills, sitesPerTarget: sitesPerTarget)))
                }
            }
        }
        return out
    }
}
