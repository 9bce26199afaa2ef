#!/bin/sh
# What the worker says when Python has no grammalecte module.
echo '{"unavailable": "ModuleNotFoundError"}'
exit 3
