#!/usr/bin/python3
"""Changes a test CalDAV server over plain HTTP (Python standard library only), for dictee's
CalDAV tests: the harness must not use the code under test.

usage:
  caldav-admin.py BASE USER PASSWORD mkcalendar PATH DISPLAYNAME COMPONENTS   (VEVENT,VTODO)
  caldav-admin.py BASE USER PASSWORD put PATH UID SUMMARY    (prints the ETag)
  caldav-admin.py BASE USER PASSWORD put-file PATH FILE   (a whole VCALENDAR from FILE; prints the ETag)
  caldav-admin.py BASE USER PASSWORD delete PATH
  caldav-admin.py BASE USER PASSWORD fill-whole COLLECTION COUNT DISPLAYNAME
      one PUT of a whole VCALENDAR on the collection (Radicale replaces the collection's items)
  caldav-admin.py BASE USER PASSWORD fill-each COLLECTION COUNT
      one PUT per event on one kept-alive connection
BASE is http://127.0.0.1:PORT. Exit 0 on success, 1 with the status and body on stderr.
"""
import base64
import http.client
import sys
import urllib.parse
from xml.sax.saxutils import escape


def event(uid, summary, index=0):
    day = 1 + index % 28
    hour = index % 24
    return (
        "BEGIN:VEVENT\r\n"
        f"UID:{uid}\r\n"
        "DTSTAMP:20250101T000000Z\r\n"
        f"DTSTART:202503{day:02d}T{hour:02d}0000Z\r\n"
        f"DTEND:202503{day:02d}T{hour:02d}3000Z\r\n"
        f"SUMMARY:{summary}\r\n"
        "END:VEVENT\r\n"
    )


def calendar(body, name=None):
    head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//dictee tests//EN\r\n"
    if name:
        head += f"X-WR-CALNAME:{name}\r\n"
    return head + body + "END:VCALENDAR\r\n"


class Server:
    def __init__(self, base, user, password):
        url = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def send(self, method, path, body=None, headers=None, ok=(200, 201, 204, 207)):
        all_headers = {"Authorization": self.auth}
        all_headers.update(headers or {})
        data = body.encode() if isinstance(body, str) else body
        self.connection.request(method, path, body=data, headers=all_headers)
        response = self.connection.getresponse()
        content = response.read()
        if response.status not in ok:
            sys.stderr.write(f"{method} {path}: {response.status} {content[:500]!r}\n")
            sys.exit(1)
        return response


def main():
    base, user, password, command = sys.argv[1:5]
    args = sys.argv[5:]
    server = Server(base, user, password)
    if command == "mkcalendar":
        path, name, components = args
        comps = "".join(f'<C:comp name="{c}"/>' for c in components.split(","))
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            '<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>'
            f"<D:displayname>{escape(name)}</D:displayname>"
            f"<C:supported-calendar-component-set>{comps}</C:supported-calendar-component-set>"
            "</D:prop></D:set></C:mkcalendar>"
        )
        server.send("MKCALENDAR", path, body, {"Content-Type": "application/xml; charset=utf-8"})
    elif command == "put":
        path, uid, summary = args
        response = server.send("PUT", path, calendar(event(uid, summary)),
                               {"Content-Type": "text/calendar; charset=utf-8"})
        print(response.getheader("ETag") or "")
    elif command == "put-file":
        path, file = args
        with open(file, "rb") as f:
            body = f.read()
        response = server.send("PUT", path, body, {"Content-Type": "text/calendar; charset=utf-8"})
        print(response.getheader("ETag") or "")
    elif command == "delete":
        (path,) = args
        server.send("DELETE", path)
    elif command == "fill-whole":
        path, count, name = args
        body = "".join(event(f"bulk-{i}@dictee.test", f"Event {i}", i) for i in range(int(count)))
        server.send("PUT", path, calendar(body, name), {"Content-Type": "text/calendar; charset=utf-8"})
    elif command == "fill-each":
        path, count = args
        for i in range(int(count)):
            uid = f"bulk-{i}@dictee.test"
            server.send("PUT", f"{path.rstrip('/')}/{uid}.ics", calendar(event(uid, f"Event {i}", i)),
                        {"Content-Type": "text/calendar; charset=utf-8"})
    else:
        sys.stderr.write(f"unknown command {command}\n")
        sys.exit(64)


if __name__ == "__main__":
    main()
