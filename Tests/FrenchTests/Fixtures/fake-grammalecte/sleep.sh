#!/bin/sh
# Never ready: `sleep` runs as a child of the shell and holds the pipes.
sleep 30
