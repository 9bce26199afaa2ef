import DicteeCore
import Foundation
import French

/// One dictation as the parent and the child see it: the text to read aloud with its trap sites
/// marked and numbered, a clean copy for the correction, and a printable A4 page.
///
/// There is deliberately no total anywhere (Docs/domain.md §1: no score): the parent gets the marks and
/// the numbered list of what to look at, never a count of errors over sites, a fraction or a
/// percentage.
///
/// - Warning: every rendering contains the child's first name and the moment phrase; print them or
///   show them to the family, never write them to a log.
public struct DictationSheet: Sendable, Hashable {
    /// The dictation's row id in the state database.
    public var id: Int64
    /// The title shown above the text, e.g. `La sortie piscine`.
    public var title: String
    /// The dictation text; paragraphs are separated by `"\n"`.
    public var text: String
    /// The trap sites, numbered 1, 2, 3… in this array's order. Their `start`/`end` are Unicode
    /// scalar offsets into ``text`` (half-open); a site whose range is empty or outside the text is
    /// listed but not marked.
    public var sites: [TrapSite]
    /// The child the dictation was written for (first name and grade are shown).
    public var child: Child
    /// The canonical moment phrase, e.g. `la sortie piscine`.
    public var moment: String
    /// The date, already formatted for display, e.g. `samedi 28 novembre 2026`.
    public var date: String
    /// The moment's day without the year, e.g. `samedi 28 novembre`: page 1 says
    /// `Léa — Dictée sur le moment du samedi 28 novembre`. Empty: `date` is used.
    public var day: String
    /// The "mots donnés" to write on the board before dictating, in text order
    /// (`Validator.motsDonnes(draft:plan:)`): names, the moment's words, words above the grade.
    /// `nil` when they were not computed (the grading view): the line is left out.
    public var motsDonnes: [String]?

    /// A sheet for one stored dictation.
    /// - Parameters:
    ///   - id: the dictation's row id in the state database.
    ///   - title: the title, e.g. `La sortie piscine`.
    ///   - text: the text, paragraphs separated by `"\n"`.
    ///   - sites: the trap sites, numbered from 1 in this order; Unicode scalar offsets into `text`.
    ///   - child: the child the dictation is for.
    ///   - moment: the canonical moment phrase, e.g. `la sortie piscine`.
    ///   - date: the date formatted for display, e.g. `samedi 28 novembre 2026`.
    ///   - day: the date without the year, e.g. `samedi 28 novembre` (empty: `date` is used).
    ///   - motsDonnes: the words to write on the board before dictating, in text order; `nil`
    ///     leaves the line out.
    public init(id: Int64, title: String, text: String, sites: [TrapSite], child: Child, moment: String, date: String,
                day: String = "", motsDonnes: [String]? = nil) {
        self.id = id
        self.title = title
        self.text = text
        self.sites = sites
        self.child = child
        self.moment = moment
        self.date = date
        self.day = day
        self.motsDonnes = motsDonnes
    }

    /// The text for the parent to read aloud, trap sites marked, with whose dictation it is, the
    /// words to give, how to dictate and the numbered trap list.
    ///
    /// Shape, with a left margin of two spaces and lines wrapped at ``screenWidth`` columns (a
    /// wrapped line goes on under its first word): `Léa — Dictée sur le moment du samedi 28 novembre`; the title;
    /// `CE1 · la sortie piscine`; a blank line; `Mots donnés : Léa, piscine, maillot` (or
    /// ``noGivenWord``; no line when ``motsDonnes`` is `nil`); the ``howToDictate`` line; a blank line; the text, indented by four
    /// spaces, with each marked span in brackets followed by its numbers in superscript digits
    /// (`Léa [a]¹ mis [son]² maillot.`), overlapping or identical spans merged into one bracket
    /// over their union with ascending numbers joined by `˒` (`[sont]³˒⁴`); a blank line; one line
    /// per site (`¹ a — homophones a / à : « a », pas « à »`). Ends with a newline. Control
    /// characters in the title and text (other than line feed and tab) are dropped, so the output
    /// cannot drive the terminal.
    /// - Parameters:
    ///   - color: `true` for ANSI escapes (marked spans bold and underlined, numbers in cyan);
    ///     `false` for plain text without a single escape character. The caller decides (TTY, no
    ///     `NO_COLOR`).
    /// - Returns: the sheet as lines of text, ending with `"\n"`.
    public func readAloud(color: Bool) -> String {
        let cyan = color ? "\u{1B}[36m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        let safe = Self.terminalSafe
        var out = ""
        func add(_ line: String, indent: String = Self.margin, hanging: String = Self.margin + "  ") {
            out += Self.wrap(line, width: Self.screenWidth, indent: indent, hanging: hanging).joined(separator: "\n") + "\n"
        }
        add(safe(heading))
        add(safe(title))
        add(safe(metaLine))
        out += "\n"
        if motsDonnes != nil { add(safe(givenWordsLine)) }
        add(Self.howToDictate)
        out += "\n"
        for paragraph in markedText(color: color).split(separator: "\n", omittingEmptySubsequences: false) {
            add(String(paragraph), indent: Self.margin + Self.margin, hanging: Self.margin + Self.margin)
        }
        out += "\n"
        if sites.isEmpty {
            add(Self.noTrap)
        }
        for (i, site) in sites.enumerated() {
            add(cyan + Self.superscript([i + 1]) + reset + " " + safe(Self.describe(site)))
        }
        return out
    }

    /// The text with its trap sites in brackets and numbered, not wrapped: the body of
    /// ``readAloud(color:)`` (paragraphs separated by `"\n"`, control characters dropped).
    /// - Parameter color: ANSI escapes (bold and underlined spans, cyan numbers) or none.
    /// - Returns: the marked text, without a final newline.
    public func markedText(color: Bool) -> String {
        let bold = color ? "\u{1B}[1;4m" : ""
        let cyan = color ? "\u{1B}[36m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        var body = ""
        for piece in pieces() {
            let shown = Self.terminalSafe(piece.text)
            if piece.numbers.isEmpty {
                body += shown
            } else {
                body += "[" + bold + shown + reset + "]" + cyan + Self.superscript(piece.numbers) + reset
            }
        }
        return body
    }

    /// A clean copy for the child's correction afterwards: title and text only, no marks, no list.
    /// - Returns: the title, a blank line, the text and a final `"\n"` (control characters other
    ///   than line feed and tab dropped).
    public func cleanCopy() -> String {
        Self.terminalSafe(title) + "\n\n" + Self.terminalSafe(text) + "\n"
    }

    /// A printable A4 HTML page: ``html(_:)`` of this sheet alone.
    /// - Returns: the whole document, ending with `"\n"`.
    public func html() -> String { Self.html([self]) }

    /// A printable A4 HTML page for one or several dictations, one per printed sheet: every
    /// child's page first, in the order given, then every parent's page, in the same order (the
    /// parent keeps the whole pile of children's sheets together and dictates from the others).
    ///
    /// A standalone HTML5 document (`lang="fr"`, UTF-8). A child's page (`<section
    /// class="enfant">`) says whose dictation it is and its date (`Léa — Dictée sur le moment du
    /// samedi 28 novembre`), then has the title and the text in large type (20 pt, one `<p>` per
    /// paragraph), in French whatever the language: the sheet is the child's. A parent's page
    /// (`<section class="parent">`) has the same heading, grade and moment, the mots donnés to
    /// write on the board, how to dictate, the text with the trap sites in `<mark>` followed by
    /// `<sup>` numbers, and the numbered trap list as an `<ol>` (same lines as
    /// ``readAloud(color:)``); its labels follow `Language.current` (`lang="en"` on the section in
    /// English). Every section but the first starts a new printed page (CSS `break-before: page`),
    /// so `n` sheets make `2n` printed pages and `2n - 1` page breaks. All text is HTML-escaped
    /// (`& < > " '`).
    ///
    /// - Warning: the page refers to nothing outside itself (no link, script, font, image or URL), so
    ///   it works offline and opening it never calls out. It holds the children's first names.
    /// - Parameter sheets: the dictations, in the order they are printed; an empty array gives a
    ///   page with no section.
    /// - Returns: the whole document, ending with `"\n"`.
    public static func html(_ sheets: [DictationSheet]) -> String {
        let e = escapeHTML
        let title = sheets.count == 1 ? sheets[0].title : "Dictées : " + sheets.map(\.title).joined(separator: " · ")
        let children = sheets.map(\.childPage).joined(separator: "\n")
        let parents = sheets.map(\.parentPage).joined(separator: "\n")
        return """
        <!DOCTYPE html>
        <html lang="fr">
        <head>
        <meta charset="utf-8">
        <title>\(e(title))</title>
        <style>
        @page { size: A4; margin: 2cm; }
        body { font-family: "Andika", "Luciole", "DejaVu Sans", sans-serif; color: #000; background: #fff; margin: 0; }
        h1 { font-size: 26pt; margin: 0 0 1cm 0; }
        h2 { font-size: 18pt; margin: 0 0 0.5cm 0; }
        .texte p { font-size: 20pt; line-height: 2; margin: 0 0 0.8em 0; }
        .enfant + .enfant, .parent { break-before: page; page-break-before: always; }
        .qui { font-size: 14pt; margin: 0 0 0.6cm 0; }
        .parent .meta { font-size: 12pt; margin: 0 0 0.6cm 0; }
        .parent .donnes { font-size: 14pt; border: 1px solid #000; padding: 0.3cm 0.5cm; margin: 0 0 0.4cm 0; }
        .parent .dicter { font-size: 12pt; margin: 0 0 0.6cm 0; }
        .parent .marque p { font-size: 14pt; line-height: 1.9; margin: 0 0 0.6em 0; }
        .parent ol { font-size: 12pt; line-height: 1.6; }
        mark { background: #fff0a0; font-weight: bold; text-decoration: underline; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        sup { font-size: 0.6em; color: #006080; }
        </style>
        </head>
        <body>
        \(children)
        \(parents)
        </body>
        </html>

        """
    }

    /// The child's page of ``html(_:)``: heading, title and text, in French.
    var childPage: String {
        let e = Self.escapeHTML
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { "<p>" + e(String($0)) + "</p>" }
            .joined(separator: "\n")
        return """
        <section class="enfant">
        <p class="qui">\(e(heading))</p>
        <h1>\(e(title))</h1>
        <div class="texte">
        \(paragraphs)
        </div>
        </section>
        """
    }

    /// The parent's page of ``html(_:)``: labels in `Language.current`, the text and the trap list
    /// as they are (French).
    var parentPage: String {
        let e = Self.escapeHTML
        var marked = ""
        for piece in pieces() {
            if piece.numbers.isEmpty {
                marked += e(piece.text).replacingOccurrences(of: "\n", with: "</p>\n<p>")
            } else {
                let numbers = piece.numbers.map(String.init).joined(separator: "˒")
                marked += "<mark>" + e(piece.text).replacingOccurrences(of: "\n", with: "<br>") + "</mark><sup>" + numbers + "</sup>"
            }
        }
        marked = ("<p>" + marked + "</p>").replacingOccurrences(of: "<p></p>\n", with: "")
            .replacingOccurrences(of: "\n<p></p>", with: "")
        let list = sites.isEmpty
            ? "<p>" + e(tr("No trap found in this text.")) + "</p>"
            : "<ol>\n" + sites.map { "<li>" + e(Self.describe($0)) + "</li>" }.joined(separator: "\n") + "\n</ol>"
        var given = ""
        if let motsDonnes {
            let line = motsDonnes.isEmpty ? tr("Words given: none.") : tr("Words given: %@", motsDonnes.joined(separator: ", "))
            given = "<p class=\"donnes\">" + e(line) + "</p>\n"
        }
        let lang = Language.current == .french ? "" : " lang=\"" + Language.current.rawValue + "\""
        return """
        <section class="parent"\(lang)>
        <h2>\(e(tr("For the parent: the traps to check")))</h2>
        <p class="meta">\(e(heading + " · " + metaLine))</p>
        \(given)<p class="dicter">\(e(tr("How to dictate: read the whole text first; then dictate in groups of words, each group read twice; read the whole text again; then the child reads it over.")))</p>
        <div class="marque">
        \(marked)
        </div>
        \(list)
        </section>
        """
    }
}

extension DictationSheet {
    /// One run of the text: unmarked (`numbers` empty) or one merged bracket with its site numbers.
    struct Piece: Equatable {
        var text: String
        var numbers: [Int]
    }

    /// The list line when there is no site.
    static let noTrap = "Aucun piège repéré dans ce texte."

    /// The list line when no word is given.
    static let noGivenWord = "Mots donnés : aucun."

    /// How to dictate, the way teachers do (Éduscol, "La dictée", cycle 2 and 3 guidance).
    static let howToDictate = "Pour dicter : lire d'abord tout le texte ; dicter ensuite par groupes de mots, chaque groupe lu deux fois ; relire tout le texte ; puis l'enfant se relit."

    /// The left margin of the screen view.
    static let margin = "  "

    /// The widest line of the screen view, in columns (margin included).
    static let screenWidth = 78

    /// `Léa — Dictée sur le moment du samedi 28 novembre`: whose dictation it is and the
    /// moment's day (said as the moment's, not as the day the dictation is given: a text about
    /// next Saturday is dictated before it).
    var heading: String {
        let when = day.isEmpty ? date : day
        let dictee = when.isEmpty ? "Dictée" : "Dictée sur le moment du " + when
        return child.firstName.isEmpty ? dictee : child.firstName + " — " + dictee
    }

    /// `CE1 · la sortie piscine`, empty parts left out (the date is on the heading).
    var metaLine: String {
        [child.grade.rawValue, moment].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// `Mots donnés : Léa, piscine, maillot` (to write on the board before dictating).
    var givenWordsLine: String {
        guard let motsDonnes, !motsDonnes.isEmpty else { return Self.noGivenWord }
        return "Mots donnés : " + motsDonnes.joined(separator: ", ")
    }

    /// Columns a string takes on a terminal: its characters, ANSI escape sequences (`ESC [ … m`)
    /// left out.
    static func visibleWidth(_ s: String) -> Int {
        var width = 0
        var inEscape = false
        for c in s {
            if inEscape {
                if c == "m" { inEscape = false }
            } else if c == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    /// One line cut at spaces into lines of at most `width` columns (a longer word stays whole):
    /// the first starts with `indent`, the others with `hanging`. French typography: a line never
    /// ends with `«` nor starts with `»`, `:`, `;`, `!` or `?`.
    static func wrap(_ line: String, width: Int, indent: String, hanging: String) -> [String] {
        var words: [String] = []
        var glueNext = false
        for raw in line.split(separator: " ", omittingEmptySubsequences: true) {
            let word = String(raw)
            if glueNext, let last = words.popLast() {
                words.append(last + " " + word)
            } else if !words.isEmpty, ["»", ":", ";", "!", "?"].contains(word) {
                words[words.count - 1] += " " + word
            } else {
                words.append(word)
            }
            glueNext = word == "«"
        }
        var lines: [String] = []
        var current = indent
        var used = visibleWidth(indent)
        var empty = true
        for word in words {
            let w = visibleWidth(String(word))
            if !empty, used + 1 + w > width {
                lines.append(current)
                current = hanging
                used = visibleWidth(hanging)
                empty = true
            }
            if !empty { current += " "; used += 1 }
            current += word
            used += w
            empty = false
        }
        lines.append(empty ? "" : current)
        return lines
    }

    /// The text cut into unmarked runs and marked spans, in order. Sites with an empty range or one
    /// outside `0...scalarCount` are left out; sites whose ranges overlap (share at least one
    /// scalar) are merged into one span over their union, numbers ascending. Adjacent spans that
    /// only touch stay separate.
    func pieces() -> [Piece] {
        let scalars = Array(text.unicodeScalars)
        let valid = sites.enumerated()
            .filter { $0.element.start >= 0 && $0.element.start < $0.element.end && $0.element.end <= scalars.count }
            .map { (range: $0.element.start..<$0.element.end, number: $0.offset + 1) }
            .sorted { ($0.range.lowerBound, $0.number) < ($1.range.lowerBound, $1.number) }
        var groups: [(range: Range<Int>, numbers: [Int])] = []
        for site in valid {
            if let last = groups.last, site.range.lowerBound < last.range.upperBound {
                groups[groups.count - 1] = (last.range.lowerBound..<max(last.range.upperBound, site.range.upperBound),
                                            (last.numbers + [site.number]).sorted())
            } else {
                groups.append((site.range, [site.number]))
            }
        }
        func slice(_ r: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[r])
            return String(view)
        }
        var out: [Piece] = []
        var cursor = 0
        for g in groups {
            if cursor < g.range.lowerBound { out.append(Piece(text: slice(cursor..<g.range.lowerBound), numbers: [])) }
            out.append(Piece(text: slice(g.range), numbers: g.numbers))
            cursor = g.range.upperBound
        }
        if cursor < scalars.count { out.append(Piece(text: slice(cursor..<scalars.count), numbers: [])) }
        return out
    }

    /// One trap-list line without its number: `a — homophones a / à : « a », pas « à »` for a
    /// homophone (alternatives joined with ` ni `), `grand — lettres muettes finales` otherwise.
    static func describe(_ site: TrapSite) -> String {
        var line = site.word + " — " + site.skill.label
        if let choice = site.choice {
            line += " : « " + choice + " »"
            if !site.alternatives.isEmpty {
                line += ", pas " + site.alternatives.map { "« " + $0 + " »" }.joined(separator: " ni ")
            }
        }
        return line
    }

    /// Site numbers in superscript digits joined by `˒`: `[3, 4]` → `³˒⁴`, `[12]` → `¹²`.
    static func superscript(_ numbers: [Int]) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return numbers.map { n in
            String(String(n).map { digits[$0.wholeNumberValue!] })
        }.joined(separator: "˒")
    }

    /// Drops C0 controls except line feed and tab, DEL and C1 controls (ESC among them).
    static func terminalSafe(_ s: String) -> String {
        var view = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v == 0x0A || v == 0x09 || !(v < 0x20 || (0x7F...0x9F).contains(v)) { view.append(u) }
        }
        return String(view)
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` for HTML text and attribute values (`MarkupText`).
    static func escapeHTML(_ s: String) -> String { MarkupText.escaped(s) }
}
