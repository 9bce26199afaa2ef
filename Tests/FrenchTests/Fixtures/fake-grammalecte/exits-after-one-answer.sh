#!/bin/sh
# Answers its first request, then exits 1 on the second: every worker dies after one answer.
echo '{"ready": "fake"}'
read -r line
echo '{"iParagraph": 1, "lGrammarErrors": [], "lSpellingErrors": []}'
read -r line
exit 1
