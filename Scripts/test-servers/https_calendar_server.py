#!/usr/bin/env python3
"""A calendar server for dictee's subscription tests: https (or plain http), standard library only.

usage: https_calendar_server.py --root DIR --state DIR [--cert PEM --key PEM]

Listens on 127.0.0.1, a free port, written to STATE/port once the socket listens. Without --cert
it speaks plain http. It exits when its standard input closes (the test process died or stopped
it), so it never outlives the test even after a SIGKILL of the test runner.

Paths:
  /cal/NAME            the file ROOT/NAME, with ETag and Last-Modified; 304 to a matching
                       If-None-Match (or, without it, If-Modified-Since not older than the file);
                       gzip when Accept-Encoding offers it
  /redirect/NAME       302 to /cal/NAME (same host)
  /chain/N/NAME        302 to /chain/N-1/NAME ... /chain/1/NAME 302 to /cal/NAME: N redirects
  /to-http/HOST/NAME   302 to http://HOST:PORT/cal/NAME (a downgrade to plain http)
  /flaky/NAME          503 the first time this path is asked, then as /cal/NAME
  /status/CODE         an empty answer with that status (404, 410...)
  /html                200 with a sign-in HTML page
  /slow/SECONDS/NAME   waits, then as /cal/NAME
  /_stats              JSON: {"counts": {path: n}, "requests": [...]} (not itself counted)

Every request but /_stats is recorded (method, path, status, headers in order, whether the body
went gzipped) in STATE/stats.json before the answer is sent, so a client that has its answer
can read the file.
"""
import argparse
import email.utils
import gzip
import hashlib
import json
import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--root", required=True)
parser.add_argument("--state", required=True)
parser.add_argument("--cert")
parser.add_argument("--key")
args = parser.parse_args()

lock = threading.Lock()
counts = {}
requests = []

SIGN_IN = b"""<!DOCTYPE html>
<html><head><title>Sign in</title></head>
<body><form method="post" action="/login"><input name="user"><input type="password" name="password"></form></body></html>
"""


def record(entry):
    with lock:
        counts[entry["path"]] = counts.get(entry["path"], 0) + 1
        requests.append(entry)
        data = json.dumps({"counts": counts, "requests": requests}).encode()
        tmp = os.path.join(args.state, "stats.json.tmp")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(args.state, "stats.json"))


def seen(path):
    with lock:
        return counts.get(path, 0)


class Handler(BaseHTTPRequestHandler):
    server_version = "calendar-test"
    sys_version = ""

    def log_message(self, *a):
        pass

    def answer(self, status, headers=(), body=b"", gzipped=False):
        record({"method": self.command, "path": self.path, "status": status,
                "headers": [[k, v] for k, v in self.headers.items()], "gzip": gzipped})
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def calendar(self, name):
        path = os.path.join(args.root, name)
        if "/" in name or name.startswith(".") or not os.path.isfile(path):
            return self.answer(404)
        with open(path, "rb") as f:
            data = f.read()
        mtime = int(os.stat(path).st_mtime)
        etag = '"%s"' % hashlib.sha1(data).hexdigest()
        validators = [("ETag", etag), ("Last-Modified", email.utils.formatdate(mtime, usegmt=True))]
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if inm is not None:
            if etag in [t.strip() for t in inm.split(",")] or inm.strip() == "*":
                return self.answer(304, validators)
        elif ims is not None:
            try:
                if int(email.utils.parsedate_to_datetime(ims).timestamp()) >= mtime:
                    return self.answer(304, validators)
            except (TypeError, ValueError):
                pass
        headers = [("Content-Type", "text/calendar; charset=utf-8"), ("Vary", "Accept-Encoding")] + validators
        if "gzip" in self.headers.get("Accept-Encoding", ""):
            return self.answer(200, headers + [("Content-Encoding", "gzip")], gzip.compress(data), gzipped=True)
        return self.answer(200, headers, data)

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        kind, rest = parts[0], parts[1:]
        if kind == "_stats":
            with lock:
                body = json.dumps({"counts": counts, "requests": requests}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif kind == "cal" and len(rest) == 1:
            self.calendar(rest[0])
        elif kind == "redirect" and len(rest) == 1:
            self.answer(302, [("Location", "/cal/" + rest[0])])
        elif kind == "chain" and len(rest) == 2 and rest[0].isdigit():
            n = int(rest[0])
            self.answer(302, [("Location", "/chain/%d/%s" % (n - 1, rest[1]) if n > 1 else "/cal/" + rest[1])])
        elif kind == "to-http" and len(rest) == 2:
            port = self.server.server_address[1]
            self.answer(302, [("Location", "http://%s:%d/cal/%s" % (rest[0], port, rest[1]))])
        elif kind == "flaky" and len(rest) == 1:
            if seen(self.path) == 0:
                self.answer(503)
            else:
                self.calendar(rest[0])
        elif kind == "status" and len(rest) == 1 and rest[0].isdigit():
            self.answer(int(rest[0]))
        elif kind == "html":
            self.answer(200, [("Content-Type", "text/html; charset=utf-8")], SIGN_IN)
        elif kind == "slow" and len(rest) == 2:
            time.sleep(float(rest[0]))
            self.calendar(rest[1])
        else:
            self.answer(404)

    do_HEAD = do_GET


class Server(ThreadingHTTPServer):
    daemon_threads = True
    context = None

    def finish_request(self, request, client_address):
        # The TLS handshake in the request's own thread: a client that refuses the certificate
        # does not stall the accept loop.
        if self.context is not None:
            try:
                request = self.context.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return
        super().finish_request(request, client_address)

    def handle_error(self, request, client_address):
        pass


def watch_stdin():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


server = Server(("127.0.0.1", 0), Handler)
if args.cert:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.context = context
threading.Thread(target=watch_stdin, daemon=True).start()
port_file = os.path.join(args.state, "port")
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_file + ".tmp", port_file)
server.serve_forever()
