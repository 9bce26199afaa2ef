#!/bin/sh
echo 'boom' >&2; echo 'second line' >&2; exit 3
