// libpsl (Debian libpsl-dev): the Public Suffix List, for Sources/Web/Site.swift only.
#include <libpsl.h>
