import DicteeCore
import Foundation
import Testing
@testable import Dictation
import French

/// Issue 13, item 4, second pass: the false refusals the library writers met and the gaps an
/// adversarial reader found. Each case refuses the bad example and accepts the close good one.
/// Development examples only (the held-out table is measured by Scripts/bench-heldout).
@Suite struct ValidatorAdversarialTests {
    static func moment(_ phrase: String, _ gender: Gender, _ head: String, friend: String? = nil, kind: String? = nil) -> MomentPhrase {
        MomentPhrase(phrase: phrase, grammar: PhraseGrammar(gender: gender, number: .singular, headNoun: head), friendName: friend, kind: kind)
    }
    static let piscine = ValidatorTests.piscine
    static let judo = moment("le cours de judo", .masculine, "cours")
    static let concert = moment("le concert", .masculine, "concert")
    static let anniversaireTom = moment("l'anniversaire de Tom", .masculine, "anniversaire", friend: "Tom")
    static let mamie = moment("le dîner chez Mamie", .masculine, "dîner", kind: "repas")
    static let foraine = moment("la fête foraine", .feminine, "fête")

    func findings(_ text: String, grade: Grade = .cm2, gender: Gender = .feminine, name: String = "Léa",
                  moment: MomentPhrase = piscine, date: MomentDate? = nil) throws -> [Finding] {
        let child = Child(firstName: name, gender: gender, grade: grade)
        var plan = DictationPlan(child: child, moment: moment, targets: [])
        plan.date = date
        return try TestValidator.shared().check(Draft(text: text), plan: plan)
    }
    func rules(_ text: String, grade: Grade = .cm2, gender: Gender = .feminine, name: String = "Léa",
               moment: MomentPhrase = piscine, date: MomentDate? = nil) throws -> Set<String> {
        Set(try findings(text, grade: grade, gender: gender, name: name, moment: moment, date: date).map(\.rule))
    }

    // The writers' refusals: a tennis lesson hits the ball, a judo lesson is done barefoot, a
    // fear told as overcome before the auxiliary ("n'a pas eu peur") is no fear.
    @Test func innocentUsesOfRegisterWordsAndNegatedFear() throws {
        #expect(try !rules("Samedi, Léa est allée à la piscine. Elle a frappé la balle avec sa main.").contains("registre"))
        #expect(try !rules("Samedi, Léa est allée à la piscine. Tout le monde a frappé des mains.").contains("registre"))
        #expect(try !rules("Samedi, Léa est allée à la piscine. Elle a marché pieds nus au bord du bassin.").contains("registre"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Un garçon a frappé son copain.").contains("registre"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Un garçon était nu.").contains("registre"))
        #expect(try !rules("Samedi, Léa est allée à la piscine. Elle n'a pas eu peur de plonger.").contains("sujet_sensible"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Elle a eu peur de plonger.").contains("sujet_sensible"))
    }

    // "et" between two adjectives of a noun is not a missing "est".
    @Test func twoAdjectivesOfANounAreNotEtEst() throws {
        #expect(try !rules("Samedi, Léa est allée à la piscine avec son ami, un garçon calme et attentif.", grade: .cm1).contains("et_est"))
        #expect(try rules("Samedi, Léa est allée à la piscine. La salle et sombre.", grade: .cm1).contains("et_est"))
    }

    // A participle alone after a comma is not a passé simple of the 1st person.
    @Test func aParticipleAloneIsNotJAssis() throws {
        #expect(try !rules("Samedi, Léa est allée à la piscine. Les enfants, assis au bord, regardaient l'eau.", grade: .cm1).contains("temps"))
        #expect(try rules("Samedi, Léa est allée à la piscine. J'assis la poupée au bord de l'eau.", grade: .cm1).contains("temps"))
    }

    // 1. "s'est tue" is taire; "a tué" is still tuer.
    @Test func taireIsNotTuer() throws {
        #expect(try !rules("Samedi, Léa est allée à la piscine. Elle s'est tue quand le maître a parlé.").contains("registre"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Le chasseur a tué un lapin.").contains("registre"))
    }

    // 2. A participle after its auxiliary, past adverbs, locutions and a passive "été".
    @Test(arguments: [
        ("Il a d'abord pris une douche.", false), ("Elle a rapidement appris à plonger.", false), ("Ils ont d'abord appris à flotter.", false),
        ("Nous avons été accueillis par le maître nageur.", false), ("Elle a tout de suite compris la brasse.", false),
        ("Il s'est vite assis au bord du bassin.", false), ("Elle est assise au bord du bassin.", false),
        ("Je pris une douche.", true),
    ])
    func participlesAfterAnAuxiliary(_ sentence: String, _ refused: Bool) throws {
        let temps = try findings("Samedi, Léa est allée à la piscine. " + sentence, grade: .ce2).filter { $0.step == .temps }
        #expect(temps.isEmpty != refused, "\(sentence): \(temps)")
    }

    // 3, 4. Impersonal "il" and a coordinated subject.
    @Test func impersonalIlAndCoordinatedSubjects() throws {
        for s in ["Il fallut attendre son tour.", "Il faut attendre son tour.", "Il pleuvait dehors.", "Il lui fallut du courage.",
                  "Il a fallu attendre longtemps.", "Il avait plu toute la nuit.", "Il s'agissait d'un grand bassin."] {
            #expect(try !rules("Samedi, Léa est allée à la piscine. " + s).contains("prenom_pronom"), "\(s)")
        }
        #expect(try rules("Samedi, Léa est allée à la piscine. Il nageait vite.").contains("prenom_pronom"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Il lui a parlé.").contains("prenom_pronom"))
        #expect(try !rules("Samedi, Léa est allée à la piscine. Ses amis et elle sont restés dans l'eau.").contains("accord_pronom"))
        #expect(try rules("Samedi, Léa est allée à la piscine. Elle est resté dans l'eau.").contains("accord_pronom"))
    }

    // 5. Grammalecte: the adjective of the noun before a complement; "avoir été" + adjective.
    @Test func grammalecteAgreementFalseAlarms() throws {
        func grammalecte(_ text: String, gender: Gender = .feminine, name: String = "Léa") throws -> [String] {
            try findings(text, gender: gender, name: name).map(\.rule).filter { $0.hasPrefix("grammalecte:") }
        }
        #expect(try grammalecte("Samedi, Léa est allée à la piscine. Elle a mangé une crème au chocolat très douce.").isEmpty)
        #expect(try grammalecte("Samedi, Tom est allé à la piscine. Tom a été très fier.", gender: .masculine, name: "Tom").isEmpty)
        #expect(try grammalecte("Samedi, Léa est allée à la piscine. Léa a été très fière.").isEmpty)
        // The same rules still report a real error.
        #expect(try !grammalecte("Samedi, Tom est allé à la piscine. Il a vu les grands arbre.", gender: .masculine, name: "Tom").isEmpty)
        #expect(try !grammalecte("Samedi, Tom est allé à la piscine. Il a été voir les poissons.", gender: .masculine, name: "Tom").isEmpty)
        #expect(try !rules("Samedi, Léa est allée à la piscine. Léa s'est fait mal au genou.").contains("prenom_accord"))
    }

    // 6, 9. Sensitive topics: by lemma and context.
    @Test(arguments: [
        ("Le public criait bravo.", false), ("Léa a appris à tomber sans se faire mal.", false), ("Léa n'avait pas peur.", false),
        ("Le chameau a deux bosses.", false), ("Tom était au coin de la rue.", false), ("Léa regarde la ville de là-haut.", false),
        ("Léa a bu un verre de lait.", false), ("Les enfants ont crié de joie.", false),
        ("La maîtresse a crié sur Tom.", true), ("Léa s'est fait mal.", true), ("Léa avait un peu peur.", true),
        ("Léa s'est fait une grosse bosse.", true), ("Léa a une bosse sur le front.", true), ("Tom a été mis au coin.", true),
        ("Sa mamie veille sur elle de là-haut.", true), ("Papa a bu un verre de rosé.", true),
        // The third adversarial run: fear, blows, mockery, a stranger, a theft, a death told softly.
        ("Elle tremblait de peur dans le grand bassin.", true), ("Un garçon lui a donné un coup dans le nez.", true),
        ("Les autres filles se sont moquées de son maillot.", true), ("Un inconnu lui a proposé des bonbons.", true),
        ("Un garçon a volé le goûter de Léa.", true), ("Un monsieur est tombé et il ne s'est jamais relevé.", true),
        ("Léa a bu la tasse.", true), ("Tom était mort de rire.", false), ("Léa a donné un coup de pied dans le ballon.", false),
        ("Léa a volé jusqu'au bord du bassin.", false),
    ])
    func sensitiveTopicsInContext(_ sentence: String, _ refused: Bool) throws {
        #expect(try rules("Samedi, Léa est allée à la piscine. " + sentence).contains("sujet_sensible") == refused, "\(sentence)")
    }

    // 10. Slang and anglicisms.
    @Test(arguments: [
        ("Le coach est gentil.", "anglicisme"), ("Léa est fan de natation.", "anglicisme"), ("C'était le feu !", "registre_familier"),
        ("Son maillot est trop stylé.", "registre_familier"), ("C'était grave bien.", "registre_familier"), ("Léa kiffe la piscine.", "registre_familier"),
        ("C'était trop bien.", "registre_familier"),
    ])
    func slang(_ sentence: String, _ rule: String) throws {
        #expect(try rules("Samedi, Léa est allée à la piscine. " + sentence).contains(rule), "\(sentence)")
    }

    @Test(arguments: ["L'entraîneur est gentil.", "Elle ne nage pas trop bien.", "C'était le feu d'artifice.", "Ce n'est pas grave.", "Léa a eu une grave chute dans l'eau.", "C'était génial !"])
    func notSlang(_ sentence: String) throws {
        #expect(try rules("Samedi, Léa est allée à la piscine. " + sentence).isDisjoint(with: ["anglicisme", "registre_familier"]), "\(sentence)")
    }

    // 7, 8. The family a moment names, a friend's parent, invented spouses, children and pets.
    @Test func familyTheMomentNames() throws {
        #expect(try !rules("Samedi, Léa a dîné chez Mamie. Sa grand-mère avait fait une tarte.", moment: Self.mamie).contains("moment_famille"))
        #expect(try rules("Samedi, Léa a dîné chez Mamie. Son grand-père avait fait une tarte.", moment: Self.mamie).contains("moment_famille"))
        let tom = "Samedi, Léa est allée à l'anniversaire de Tom. "
        #expect(try !rules(tom + "La maman de Tom avait fait un gâteau.", moment: Self.anniversaireTom).contains("moment_famille"))
        #expect(try !rules(tom + "Le papa de Tom a allumé les bougies.", moment: Self.anniversaireTom).contains("moment_famille"))
        #expect(try rules(tom + "Sa maman avait fait un gâteau.", moment: Self.anniversaireTom).contains("moment_famille"))
        #expect(try !rules("Samedi, Léa est allée à la fête foraine. Elle a mangé une barbe à papa.", moment: Self.foraine).contains("moment_famille"))
        #expect(try rules("Samedi, Léa est allée à la fête foraine. Elle a vu son papa.", moment: Self.foraine).contains("moment_famille"))
    }

    @Test(arguments: [
        ("Elle y est allée avec son mari.", true), ("Elle y est allée avec sa fille.", true), ("Elle y est allée avec son fils.", true),
        ("Elle y est allée avec son chien.", true), ("Elle y est allée avec ses chats.", true), ("Le chien de Tom courait partout.", true),
        ("Elle a vu un chien.", false), ("Une fille a gagné un ours.", false), ("Une femme vendait des bonbons.", false),
    ])
    func inventedSpousesChildrenAndPets(_ sentence: String, _ refused: Bool) throws {
        let text = "Samedi, Léa est allée à l'anniversaire de Tom. " + sentence
        #expect(try rules(text, moment: Self.anniversaireTom).contains("moment_famille") == refused, "\(sentence)")
    }

    // 11. Dates in other words.
    static let saturday = CalendarDate(year: 2026, month: 11, day: 28)
    static let lastSaturday = MomentDate(start: saturday, end: saturday, written: saturday.adding(days: 3), time: .past)

    @Test(arguments: [
        ("Le 29 novembre, Léa est allée à la piscine.", true), ("Le 28 novembre, Léa est allée à la piscine.", false),
        ("Il y a une semaine, Léa est allée à la piscine.", true), ("Il y a trois jours, Léa est allée à la piscine.", false),
        ("Il y a quelques jours, Léa est allée à la piscine.", false), ("Dans deux jours, Léa ira à la piscine.", true),
        ("À Noël, Léa est allée à la piscine.", true), ("Pour Noël, Léa a reçu un maillot pour la piscine.", true),
        ("Léa est allée à la piscine. Elle a chanté un chant de Noël.", false),
        ("Léa est allée à la piscine. La veille, elle avait préparé son sac. Le lendemain, elle était fatiguée.", false),
    ])
    func datesInOtherWords(_ text: String, _ refused: Bool) throws {
        #expect(try rules(text, moment: Self.piscine, date: Self.lastSaturday).contains("moment_date") == refused, "\(text)")
    }

    @Test func christmasInLateDecember() throws {
        let eve = CalendarDate(year: 2026, month: 12, day: 24)
        let date = MomentDate(start: eve, end: eve, written: Self.saturday.adding(days: 3), time: .upcoming)
        #expect(try !rules("À Noël, Léa ira à la piscine.", moment: Self.piscine, date: date).contains("moment_date"))
        #expect(try !rules("Le 24 décembre, Léa ira à la piscine.", moment: Self.piscine, date: date).contains("moment_date"))
    }

    // 12. A text about another moment; a seaside holiday.
    @Test func anotherMomentsWordsAndStays() throws {
        let birthday = "Samedi, Léa est allée au cours de judo. Elle a soufflé les bougies du gâteau. Elle a ouvert ses cadeaux. Il y avait des ballons partout. Elle a gagné un jeu."
        #expect(try rules(birthday, grade: .ce1, moment: Self.judo).contains("moment_sujet"))
        let judo = "Samedi, Léa est allée au cours de judo. Elle a mis son kimono et sa ceinture. Elle a appris à tomber sur le tapis. Le professeur était content de ses progrès."
        #expect(try !rules(judo, grade: .ce1, moment: Self.judo).contains("moment_sujet"))
        let sang = "Samedi, Léa est allée au concert. Tout le monde a chanté joyeux anniversaire. Elle a mangé du gâteau et reçu des cadeaux."
        #expect(try rules(sang, grade: .ce1, moment: Self.concert).contains("moment_sujet"))
        let played = "Samedi, Léa est allée au concert. Les musiciens ont joué du piano et du violon. Le public a applaudi."
        #expect(try !rules(played, grade: .ce1, moment: Self.concert).contains("moment_sujet"))
        let show = Self.moment("le spectacle", .masculine, "spectacle")
        let songs = "Samedi, Léa est allée au spectacle. Les enfants ont chanté des chansons et dansé autour du sapin. Le public a applaudi très fort."
        #expect(try !rules(songs, grade: .ce2, moment: show).contains("moment_sujet"))
        let vacances = MomentPhrase(phrase: "les vacances", grammar: PhraseGrammar(gender: .feminine, number: .plural, headNoun: "vacances"))
        let sea = "Pendant les vacances, Léa est allée à la mer. Elle a joué dans le sable et elle a nagé dans les vagues. Le soleil brillait."
        #expect(try !rules(sea, moment: vacances).contains("moment_sujet"))
        #expect(try rules("Pendant les vacances, Léa est restée chez elle. Elle a lu un livre.", moment: vacances).contains("moment_sujet"))
    }

    // The third adversarial run: homophones and the participle with avoir.
    @Test(arguments: [
        ("L'eau était chaude est elle a aimé ça.", "est_et"), ("Après le bain, elle et contente.", "et_est"),
        ("Les maillots son dans le sac.", "son_sont"), ("Léa a nagée avec ses amies.", "participe_avoir"),
        ("Léa a mangée une pomme.", "participe_avoir"),
    ])
    func homophonesAndParticiples(_ sentence: String, _ rule: String) throws {
        #expect(try rules("Samedi, Léa est allée à la piscine. " + sentence).contains(rule), "\(sentence)")
    }

    @Test(arguments: [
        "L'eau était chaude et elle a aimé ça.", "Après le bain, elle est contente.", "Le son du sifflet est fort.",
        "Les rôles qu'Inès avait imaginés étaient drôles.", "La pomme que Léa a mangée était rouge.", "Léa a nagé avec ses amies.",
    ])
    func homophonesAndParticiplesRight(_ sentence: String) throws {
        #expect(try rules("Samedi, Léa est allée à la piscine. " + sentence).isDisjoint(with: ["est_et", "et_est", "son_sont", "participe_avoir"]), "\(sentence)")
    }

    // Pets and siblings behind an adjective, a nanny; the parents of a class as a group.
    @Test func ownedBehindAnAdjectiveAndTheClassParents() throws {
        let base = "Samedi, Léa est allée à la piscine. "
        #expect(try rules(base + "Sa petite chienne l'attendait.").contains("moment_famille"))
        #expect(try rules(base + "Leur vieux chien dormait.").contains("moment_famille"))
        #expect(try rules(base + "Sa jumelle l'attendait.").contains("moment_famille"))
        #expect(try rules(base + "Sa nounou l'attendait.").contains("moment_famille"))
        #expect(try !rules(base + "Un petit chien courait au bord du bassin.").contains("moment_famille"))
        #expect(try !rules(base + "Les parents attendaient la classe devant la porte.").contains("moment_famille"))
        #expect(try rules(base + "Ses parents l'attendaient devant la porte.").contains("moment_famille"))
    }

    // A lesson with words of its own told with another moment's words only.
    @Test func aLessonToldWithAnotherActivity() throws {
        let swim = "Mercredi, Hugo est allé au cours de judo. Le professeur a emmené le groupe à la piscine. Hugo a plongé dans le grand bassin et il a nagé avec ses copains. L'eau était tiède."
        #expect(try rules(swim, grade: .cm1, gender: .masculine, name: "Hugo", moment: Self.judo).contains("moment_sujet"))
        let plain = "Mercredi, Hugo est allé au cours de judo. Il a fait beaucoup d'exercices avec le professeur. Le soir, il était fatigué et content."
        #expect(try !rules(plain, grade: .cm1, gender: .masculine, name: "Hugo", moment: Self.judo).contains("moment_sujet"))
    }
}
