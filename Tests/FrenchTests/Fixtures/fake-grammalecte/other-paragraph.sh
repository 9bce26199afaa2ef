#!/bin/sh
echo '{"data": [{"iParagraph": 2, "lGrammarErrors": [], "lSpellingErrors": []}]}'
