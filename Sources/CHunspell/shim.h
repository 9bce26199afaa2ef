// Hunspell's C API (Debian libhunspell-dev). Imported only by the French target (Hunspell.swift).
#include <hunspell/hunspell.h>
