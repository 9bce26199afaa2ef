#!/bin/sh
# 1 MB on stderr before the greeting, then one empty answer per request line.
head -c 1000000 /dev/zero | tr '\000' x >&2
echo '{"ready": "fake"}'
i=0
while read -r line; do
    i=$((i + 1))
    echo "{\"iParagraph\": $i, \"lGrammarErrors\": [], \"lSpellingErrors\": []}"
done
