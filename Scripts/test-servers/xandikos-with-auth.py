#!/usr/bin/python3
"""Xandikos (Debian `xandikos`) behind HTTP Basic authentication, for dictee's CalDAV tests.

Xandikos has no authentication of its own; this serves its aiohttp app with a middleware that
answers 401 unless the request carries USER:PASSWORD. Loopback only. Exits by itself when the
process that started it goes away (a crashed test run leaves no server behind).

usage: xandikos-with-auth.py DIRECTORY PORT USER PASSWORD
"""
import base64
import logging
import os
import sys
import threading
import time

from aiohttp import web
from xandikos.web import WELLKNOWN_DAV_PATHS, XandikosApp, XandikosBackend


def watch_parent(parent):
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(0.5)


def main():
    directory, port, user, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    logging.basicConfig(level=logging.WARNING)
    principal = "/" + user
    backend = XandikosBackend(directory)
    backend._mark_as_principal(principal)
    os.makedirs(directory, exist_ok=True)
    if not os.path.isdir(os.path.join(directory, user)):
        backend.create_principal(principal, create_defaults=True)
    dav = XandikosApp(backend, current_user_principal=principal, strict=True)
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    @web.middleware
    async def basic_auth(request, handler):
        if request.headers.get("Authorization") != expected:
            return web.Response(status=401, text="authentication required",
                                headers={"WWW-Authenticate": 'Basic realm="xandikos"'})
        return await handler(request)

    async def handle(request):
        return await dav.aiohttp_handler(request, "/")

    async def to_root(request):
        raise web.HTTPFound("/")

    app = web.Application(middlewares=[basic_auth], client_max_size=64 << 20)
    for path in WELLKNOWN_DAV_PATHS:
        app.router.add_route("*", path, to_root)
    app.router.add_route("*", "/{path_info:.*}", handle)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


if __name__ == "__main__":
    main()
