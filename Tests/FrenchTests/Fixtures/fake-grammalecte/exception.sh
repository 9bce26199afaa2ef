#!/bin/sh
# Ready, then reports a Python exception for the first request, as the real worker does.
echo '{"ready": "fake"}'
read -r line
echo '{"iParagraph": 1, "error": "ValueError"}'
cat >/dev/null
