#!/bin/sh
# 1 MB on stderr before anything on stdout, then about 150 kB of JSON on stdout.
head -c 1000000 /dev/zero | tr '\000' x >&2
awk 'BEGIN { printf "{\"data\": ["; for (i = 1; i <= 2000; i++) printf "%s{\"iParagraph\": %d, \"lGrammarErrors\": [], \"lSpellingErrors\": []}", (i > 1 ? "," : ""), i; print "]}" }'
