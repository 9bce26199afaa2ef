#!/usr/bin/env python3
"""A stand-in OpenAI-compatible server for dictee's tests: records every request body.

usage: recording-server.py PORT_FILE LOG_FILE

Listens on 127.0.0.1 (a free port, written to PORT_FILE), appends each POST body as one line to
LOG_FILE, and answers chat completions with a short valid answer the validator refuses (so that
dictee makes its five attempts), /extras/tokenize with a token count of one per three bytes, and
GET /v1/models with a model list. Standard library only.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

port_file, log_file = sys.argv[1], sys.argv[2]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply(200, {"object": "list", "data": [{"id": "recording", "object": "model"}]})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(log_file, "ab") as f:
            f.write(body.replace(b"\n", b" ") + b"\n")
        if self.path.endswith("/extras/tokenize"):
            text = json.loads(body).get("input", "")
            self.reply(200, {"tokens": [0] * (len(text.encode()) // 3 + 1)})
        elif self.path.endswith("/chat/completions"):
            answer = {"titre": "Test", "phrases": ["Bonjour."]}
            self.reply(200, {"id": "x", "object": "chat.completion",
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": json.dumps(answer)}}],
                             "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})
        else:
            self.reply(404, {"error": {"message": "not found"}})


server = HTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
