#ifndef DICTEE_CONFUSABLES_H
#define DICTEE_CONFUSABLES_H
// A plain-C doorway to ICU's spoof checker (Debian libicu-dev): the Unicode TS #39 "skeleton" of a
// string, which maps look-alike characters (Cyrillic о, Greek ο, mathematical 𝐨...) to one
// prototype, so that a disqualifier written with look-alikes is still recognised. Only
// Sources/PrivacyFilter/Confusables.swift calls it.

/// Writes the skeleton of the UTF-8 string `text` into `out` (UTF-8, NUL-terminated).
/// Returns the length written, or -1 when ICU fails or `capacity` is too small.
int dictee_confusable_skeleton(const char *text, char *out, int capacity);

#endif
