#!/bin/sh
# Ready, reads a request, never answers: `sleep` is a child of the shell and holds the pipes.
echo '{"ready": "fake"}'
read -r line
sleep 30
