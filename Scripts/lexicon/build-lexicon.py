#!/usr/bin/env python3
"""Converts Lexique 3.83 (Lexique383.txt) into the table that Sources/French/Lexicon.swift maps.

Usage: build-lexicon.py LEXIQUE383_TXT OUTPUT_BIN

Source: Lexique 3.83, Boris New & Christophe Pallier, http://www.lexique.org, licence CC BY-SA 4.0
(the output is a derived work and stays CC BY-SA 4.0; credit the authors when redistributing it).
Input: ISO-8859-1, tab-separated, one header row, 35 columns of which we keep 1_ortho 2_phon 3_lemme
4_cgram 5_genre 6_nombre 7_freqlemfilms2 8_freqlemlivres 9_freqfilms2 10_freqlivres 11_infover
(decimal commas; infover quoted, e.g. "ind:pre:3s;ind:pre:1s;"). Python 3 standard library only.

Every data row of Lexique becomes one analysis record (142,694 rows in 3.83), in Lexique's order
within a form. Strings are NFC UTF-8. Two corrections, both reported in the record's flags:
- Lexique 3.83 writes `vrai` and `faux` (ortho and lemme) as VRAI and FAUX, a spreadsheet's booleans;
  they are stored lower-cased (flag bit 1).
- 8 rows have an empty cgram (`à tue-tête`, `team`, ...); when column 29_cgramortho names exactly one
  category, that category is stored (flag bit 0); otherwise the code stays 0 (no category).

Binary layout, version 1. Little-endian; every section starts on a 4-byte boundary; all offsets are
bytes from the start of the file unless said otherwise; u32 = unsigned 32-bit integer.

  header, 64 bytes
     0  magic        8 bytes  b"DLEXIQUE"
     8  version      u32      1
    12  header size  u32      64
    16  file size    u32      total bytes (a truncated copy fails this check)
    20  form count   u32      F, unique forms
    24  row count    u32      R, analysis records (Lexique data rows)
    28  tag count    u32      T, entries of the cgram tag table
    32  form index   u32      offset of (F + 1) pairs (u32 form byte offset, u32 first row)
    36  form blob    u32      offset of the form bytes
    40  form blob    u32      size in bytes
    44  rows         u32      offset of R records of 36 bytes
    48  string pool  u32      offset of the lemma / phon / infover bytes
    52  string pool  u32      size in bytes
    56  tag table    u32      offset of T entries of 8 bytes (ASCII, NUL-padded)
    60  reserved     u32      0

  form index: pair i = (start of form i in the form blob, index of its first row). Forms are unique,
    sorted by their UTF-8 bytes (unsigned byte order); form i is blob[start(i) ..< start(i+1)] and its
    rows are rows[first(i) ..< first(i+1)]; pair F is the sentinel (form blob size, R). Every form
    has at least one byte and one row. Lookup = binary search over the pairs.
  form blob: the forms' UTF-8 bytes, concatenated in sorted order, no separators.
  row record, 36 bytes:
     0  lemma offset    u32  into the string pool     12  lemma length    u8
     4  phon offset     u32  into the string pool     13  phon length     u8
     8  infover offset  u32  into the string pool     14  infover length  u8
    15  cgram code      u8   index into the tag table (0 = empty)
    16  gender          u8   0 none, 1 m, 2 f          17  number  u8  0 none, 1 s, 2 p
    18  flags           u8   bit 0 cgram from cgramortho, bit 1 VRAI/FAUX lower-cased
    19  reserved        u8   0
    20  freqlemfilms2   f32  per million words        24  freqlemlivres   f32
    28  freqfilms2      f32                           32  freqlivres      f32
  string pool: deduplicated UTF-8 strings, no separators (lengths live in the records). infover is
    Lexique's value without its quotes, verbatim (`inf;;inf;` repeats included), empty for non-verbs.
  tag table: entry k is the cgram tag with code k (`ADJ`, `ADJ:dem`, ... `VER`); entry 0 is empty.
"""

import os
import struct
import sys
import unicodedata

MAGIC = b"DLEXIQUE"
VERSION = 1
HEADER = struct.Struct("<8s14I")  # magic, version, header size, file size, counts, offsets, reserved
ROW = struct.Struct("<3I4B4B4f")
PAIR = struct.Struct("<2I")
TAG_WIDTH = 8
TAGS = [
    "", "ADJ", "ADJ:dem", "ADJ:ind", "ADJ:int", "ADJ:num", "ADJ:pos", "ADV", "ART:def", "ART:ind",
    "AUX", "CON", "LIA", "NOM", "ONO", "PRE", "PRO:dem", "PRO:ind", "PRO:int", "PRO:per", "PRO:pos",
    "PRO:rel", "VER",
]
EXPECTED_COLUMNS = [
    "1_ortho", "2_phon", "3_lemme", "4_cgram", "5_genre", "6_nombre", "7_freqlemfilms2",
    "8_freqlemlivres", "9_freqfilms2", "10_freqlivres", "11_infover",
]
CGRAMORTHO = "29_cgramortho"
GENDERS = {"": 0, "m": 1, "f": 2}
NUMBERS = {"": 0, "s": 1, "p": 2}
SPREADSHEET_BOOLEANS = {"VRAI": "vrai", "FAUX": "faux"}
FLAG_CGRAM_FROM_CGRAMORTHO = 1
FLAG_LOWERED_BOOLEAN = 2

assert HEADER.size == 64 and ROW.size == 36 and PAIR.size == 8
assert all(len(tag) < TAG_WIDTH for tag in TAGS)


class InputError(Exception):
    pass


def align4(buffer):
    buffer.extend(b"\0" * (-len(buffer) % 4))


def frequency(text, line, column):
    try:
        return float(text.replace(",", "."))
    except ValueError:
        raise InputError(f"line {line}: {column} is not a number: {text!r}") from None


def read_rows(path):
    """Yields (form, phon, lemma, cgram code, gender, number, flags, infover, 4 frequencies)."""
    with open(path, encoding="iso-8859-1", newline="") as handle:
        header = handle.readline().rstrip("\n").split("\t")
        if header[: len(EXPECTED_COLUMNS)] != EXPECTED_COLUMNS or CGRAMORTHO not in header:
            raise InputError(f"line 1: not Lexique 3.83's header: {header[:11]}")
        cgramortho_column = header.index(CGRAMORTHO)
        for line, text in enumerate(handle, start=2):
            text = text.rstrip("\n")
            if not text:
                continue
            fields = text.split("\t")
            if len(fields) != len(header):
                raise InputError(f"line {line}: {len(fields)} columns, expected {len(header)}")
            ortho, phon, lemma, cgram, genre, nombre = fields[:6]
            infover = fields[10]
            flags = 0
            if ortho in SPREADSHEET_BOOLEANS or lemma in SPREADSHEET_BOOLEANS:
                ortho = SPREADSHEET_BOOLEANS.get(ortho, ortho)
                lemma = SPREADSHEET_BOOLEANS.get(lemma, lemma)
                flags |= FLAG_LOWERED_BOOLEAN
            if not cgram:
                guess = fields[cgramortho_column]
                if guess in TAGS:
                    cgram = guess
                    flags |= FLAG_CGRAM_FROM_CGRAMORTHO
            if cgram not in TAGS:
                raise InputError(f"line {line}: unknown cgram {cgram!r}")
            if genre not in GENDERS or nombre not in NUMBERS:
                raise InputError(f"line {line}: unknown genre/nombre {genre!r}/{nombre!r}")
            if infover:
                if len(infover) < 2 or infover[0] != '"' or infover[-1] != '"':
                    raise InputError(f"line {line}: infover is not quoted: {infover!r}")
                infover = infover[1:-1]
            if not ortho or not lemma:
                raise InputError(f"line {line}: empty ortho or lemme")
            frequencies = [frequency(fields[i], line, EXPECTED_COLUMNS[i]) for i in range(6, 10)]
            yield (
                unicodedata.normalize("NFC", ortho), unicodedata.normalize("NFC", phon),
                unicodedata.normalize("NFC", lemma), TAGS.index(cgram), GENDERS[genre],
                NUMBERS[nombre], flags, infover, frequencies,
            )


def build(rows):
    by_form = {}
    for row in rows:
        by_form.setdefault(row[0].encode("utf-8"), []).append(row)  # keeps Lexique's order
    forms = sorted(by_form)

    pool = bytearray()
    pooled = {}

    def intern(text):
        data = text.encode("utf-8")
        if len(data) > 255:
            raise InputError(f"string longer than 255 bytes: {text[:40]!r}...")
        if data not in pooled:
            pooled[data] = len(pool)
            pool.extend(data)
        return pooled[data], len(data)

    index = bytearray()
    blob = bytearray()
    records = bytearray()
    row_count = 0
    for form in forms:
        index += PAIR.pack(len(blob), row_count)
        blob += form
        for _, phon, lemma, code, gender, number, flags, infover, freqs in by_form[form]:
            lemma_at, lemma_length = intern(lemma)
            phon_at, phon_length = intern(phon)
            infover_at, infover_length = intern(infover)
            records += ROW.pack(
                lemma_at, phon_at, infover_at, lemma_length, phon_length, infover_length, code,
                gender, number, flags, 0, *freqs,
            )
            row_count += 1
    index += PAIR.pack(len(blob), row_count)

    tags = b"".join(tag.encode("ascii").ljust(TAG_WIDTH, b"\0") for tag in TAGS)
    body = bytearray()
    offsets = {}
    for name, section in (("index", index), ("blob", blob), ("rows", records), ("pool", pool),
                          ("tags", tags)):
        offsets[name] = HEADER.size + len(body)
        body += section
        align4(body)
    file_size = HEADER.size + len(body)
    if file_size >= 1 << 32:
        raise InputError("the table would exceed 4 GiB")
    header = HEADER.pack(
        MAGIC, VERSION, HEADER.size, file_size, len(forms), row_count, len(TAGS),
        offsets["index"], offsets["blob"], len(blob), offsets["rows"], offsets["pool"], len(pool),
        offsets["tags"], 0,
    )
    return header + bytes(body), len(forms), row_count


def main(argv):
    if len(argv) != 3:
        print("usage: build-lexicon.py LEXIQUE383_TXT OUTPUT_BIN", file=sys.stderr)
        return 64
    source, output = argv[1], argv[2]
    try:
        data, form_count, row_count = build(read_rows(source))
    except OSError as error:
        print(f"build-lexicon: {source}: {error.strerror or error}", file=sys.stderr)
        return 66
    except InputError as error:
        print(f"build-lexicon: {source}: {error}", file=sys.stderr)
        return 65
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    temporary = f"{output}.tmp{os.getpid()}"
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, output)  # readers never see a half-written table
    print(f"build-lexicon: {output}: {row_count} rows, {form_count} forms, {len(data)} bytes",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
