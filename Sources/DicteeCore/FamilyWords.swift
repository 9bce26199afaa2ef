/// The family words a phrase may hold in lower case where a first name would go: "les vacances
/// chez mamie", "le dîner chez Mamie". One list for the privacy filter (captured after `chez`) and
/// for a parent's label (a name, not an unknown capitalised word).
public enum FamilyWords {
    /// Lower case: mamie, papi, mamy, papy, tata, tonton, marraine, parrain.
    public static let all: Set<String> = [
        "mamie", "papi", "mamy", "papy", "tata", "tonton", "marraine", "parrain",
    ]
}
