#!/usr/bin/env python3
"""A loopback HTTP server for the end-to-end tests, from the machine's python3 (standard library only).

Serves DIRECTORY on 127.0.0.1 at a free port, prints "port N" on its first line, and exits when its standard input
reaches end-of-file: the test process holds the write end of that pipe, so the server ends with the test process
however that ends (normal exit, crash, kill), and a test run leaves no server behind.

Besides files it answers GET /status/CODE with that HTTP status and a small HTML body (e.g. /status/500), so tests can
load a CMP URL that fails the way a broken CDN does, GET /echo-cookies with the request's Cookie header as text
(what the server saw on the very first request of a page), GET /redirect?to=URL with a 302 to URL (a CMP URL that
moved: to another host, or within the same origin), and GET /gpc-echo[?frame=URL] with a page that records the
request's Sec-GPC header as the server received it and what its first script sees of navigator.globalPrivacyControl,
with an iframe of URL when given (see gpc_echo).
"""
import functools
import html
import http.server
import json
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
        if self.path.startswith("/gpc-echo"):
            self.gpc_echo()
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

    def gpc_echo(self):
        """A page whose first script records `report` = {secGPC: the Sec-GPC header this request carried (null when
        absent), navigatorGPC: navigator.globalPrivacyControl (or "absent"), accessor: whether it is a getter on
        Navigator.prototype}. In a frame it posts {gpcFrame: report} to its parent; the top page keeps its own report
        in window.__gpcReport and the frame's in window.__gpcFrame."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        frame = query.get("frame", [None])[0]
        header = json.dumps(self.headers.get("Sec-GPC")).replace("<", "\\u003c")
        iframe = f'<iframe src="{html.escape(frame, quote=True)}"></iframe>' if frame else ""
        body = f"""<!doctype html><meta charset="utf-8"><title>gpc echo</title>
<script>
(function () {{
  var d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'globalPrivacyControl');
  var report = {{ secGPC: {header},
    navigatorGPC: 'globalPrivacyControl' in navigator ? navigator.globalPrivacyControl : 'absent',
    accessor: !!(d && typeof d.get === 'function' && d.set === undefined) }};
  if (window.parent !== window) {{ window.parent.postMessage({{ gpcFrame: report }}, '*'); return; }}
  window.__gpcReport = report; window.__gpcFrame = null;
  window.addEventListener('message', function (e) {{ if (e.data && e.data.gpcFrame) {{ window.__gpcFrame = e.data.gpcFrame; }} }});
}})();
</script>
<p>gpc echo</p>{iframe}
""".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

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
