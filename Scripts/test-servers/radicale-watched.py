#!/usr/bin/python3
"""Radicale (Debian `radicale`) for dictee's CalDAV tests: its server with the configuration file
CONFIG, without fsync (throwaway storage; an option Radicale takes from code only), which exits by
itself when the process that started it goes away (a crashed test run leaves no server behind).

usage: radicale-watched.py CONFIG
"""
import os
import sys
import threading
import time


def watch_parent(parent):
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(0.5)


threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
from radicale import config, log, server  # noqa: E402

log.setup()
configuration = config.load([(sys.argv[1], False)])
configuration.update({"storage": {"_filesystem_fsync": "False"}}, "dictee tests", privileged=True)
log.set_level(configuration.get("logging", "level"))
server.serve(configuration)
