#ifndef DICTEE_ICU_H
#define DICTEE_ICU_H
// A plain-C doorway to one ICU function (Debian libicu-dev). ICU's own headers cannot be imported
// into Swift next to Foundation's private copy of ICU (their enums clash), so this header exposes
// only C types. Only Sources/Ingest/WindowsZones.swift calls it.

/// Maps a Windows time zone name ("Romance Standard Time") to its IANA name ("Europe/Paris")
/// through CLDR's windowsZones table compiled into ICU (territory "001").
/// `windows_name` and `iana_out` are UTF-8; returns the length written (without NUL), or 0 when the
/// name is unknown or `capacity` is too small.
int dictee_icu_iana_for_windows_zone(const char *windows_name, char *iana_out, int capacity);

#endif
