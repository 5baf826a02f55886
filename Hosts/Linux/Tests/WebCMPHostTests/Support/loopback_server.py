#!/usr/bin/env python3
"""A loopback HTTP server for the end-to-end tests, from the machine's python3 (standard library only).

Serves DIRECTORY on 127.0.0.1 at a free port, prints "port N" on its first line, and exits when its standard input
reaches end-of-file: the test process holds the write end of that pipe, so the server ends with the test process
however that ends (normal exit, crash, kill), and a test run leaves no server behind.

Besides files it answers GET /status/CODE with that HTTP status and a small HTML body (e.g. /status/500), so tests can
load a CMP URL that fails the way a broken CDN does, GET /echo-cookies with the request's Cookie header as text
(what the server saw on the very first request of a page), and GET /redirect?to=URL with a 302 to URL (a CMP URL that
moved: to another host, or within the same origin).
"""
import functools
import http.server
import sys
import threading
import urllib.parse


class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/status/"):
            code = self.path[len("/status/"):].split("?")[0]
            status = int(code) if code.isdigit() and 200 <= int(code) <= 599 else 400
            body = f"<!doctype html><title>{status}</title><p>status {status}</p>".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/redirect?"):
            target = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("to", ["/"])[0]
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path.startswith("/echo-cookies"):
            body = (self.headers.get("Cookie") or "").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format, *args):
        pass


def main():
    directory = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=directory))
    server.daemon_threads = True
    print(f"port {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.buffer.read()  # returns at end-of-file: the test process is gone
    server.shutdown()


if __name__ == "__main__":
    main()
