#!/bin/sh
# Ready, then an answer that is not JSON.
echo '{"ready": "fake"}'
read -r line
echo 'this is not JSON'
cat >/dev/null
