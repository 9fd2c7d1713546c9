"""A board on 127.0.0.1 for the fetching tests (pbf/fetch.py): the standard library's http.server
in a thread, on a random port, serving threads in each board's shape and encoding.

* したらば: ``/bbs/read.cgi/CAT/BOARD/KEY/`` (HTML) and ``/bbs/rawmode.cgi/CAT/BOARD/KEY/[N-]``,
  EUC-JP lines ``num<>name<>mail<>date<>body<>title<>id``; an unknown thread answers 200 with
  an ``ERROR`` header, as したらば does.
* 2ch-compatible: ``/BOARD/dat/KEY.dat``, CP932 lines ``name<>mail<>date ID:xxx<>body<>title``,
  with Last-Modified / If-Modified-Since → 304, ``Range: bytes=N-`` → 206 (416 past the end),
  gzip for a whole answer; ``/test/read.cgi/BOARD/KEY/`` as an HTML page.

``script[path]`` is a list of what to do first for a path (a status number, ``"slow"``,
``("redirect", url)``, ``("html", bytes)``); ``log`` holds every request with its headers.
"""

from __future__ import annotations

import gzip
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the client hung up mid-answer (pbf refusing a redirect): no traceback on stderr
        super().handle_error(request, client_address)


class Board:
    def __init__(self) -> None:
        self.dats: dict[str, list[str]] = {}  # "/BOARD/dat/KEY.dat" -> lines (text)
        self.shitaraba: dict[str, list[str]] = {}  # "CAT/BOARD/KEY" -> lines (text, with their numbers)
        self.modified: dict[str, float] = {}
        self.refuse_dat: set[str] = set()  # dat paths answered 403
        self.script: dict[str, list] = {}
        self.log: list[dict] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.slow = 3.0
        self.lock = threading.Lock()
        self.server = _Server(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "Board":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- content ---------------------------------------------------------------------------------

    def post_dat(self, path: str, *lines: str) -> None:
        self.dats.setdefault(path, []).extend(lines)
        self.modified[path] = self.modified.get(path, 1_700_000_000.0) + 60

    def post_shitaraba(self, key: str, *lines: str) -> None:
        self.shitaraba.setdefault(key, []).extend(lines)

    def dat_bytes(self, path: str) -> bytes:
        return "".join(line + "\n" for line in self.dats[path]).encode("cp932")

    def requests(self, path_start: str) -> list[dict]:
        return [r for r in self.log if r["path"].startswith(path_start)]


def _page(lines: list[str], title: str) -> bytes:
    out = [f"<html><head><meta charset=\"Shift_JIS\"><title>{title}</title></head><body><h1>{title}</h1><dl>"]
    for number, line in enumerate(lines, start=1):
        name, mail, date, body = line.split("<>")[:4]
        who = f"<a href=\"mailto:{mail}\"><b>{name}</b></a>" if mail else f"<b>{name}</b>"
        out.append(f"<dt>{number} ：{who}：{date}<dd>{body}<br><br>")
    out.append("</dl></body></html>")
    return "\n".join(out).encode("cp932")


def _handler(board: Board):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802
            with board.lock:
                board.in_flight += 1
                board.most_in_flight = max(board.most_in_flight, board.in_flight)
                board.log.append({"path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
                self._counted = True
            try:
                self._answer()
            finally:
                self._done()

        def _done(self) -> None:
            """The request is no longer in flight: counted before its answer is written, since the client may send
            its next request as soon as it has read this one (the count had raced the answer's last byte)."""
            with board.lock:
                if self._counted:
                    board.in_flight -= 1
                    self._counted = False

        def _send(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
            self._done()
            with board.lock:
                board.log[-1]["status"] = status
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _answer(self) -> None:
            path = self.path
            todo = board.script.get(path)
            if todo:
                action = todo.pop(0)
                if action == "slow":
                    time.sleep(board.slow)
                    return self._send(200, b"late\n")
                if isinstance(action, int):
                    return self._send(action, b"<html>error</html>", {"Content-Type": "text/html"})
                if action[0] == "redirect":
                    return self._send(302, b"", {"Location": action[1]})
                if action[0] == "html":
                    return self._send(200, action[1], {"Content-Type": "text/html; charset=Shift_JIS"})
            if path.endswith(".dat"):
                return self._dat(path)
            if path.startswith("/bbs/rawmode.cgi/"):
                return self._rawmode(path)
            if path.startswith("/test/read.cgi/"):
                board_name, key = path.split("/")[3:5]
                dat = f"/{board_name}/dat/{key}.dat"
                if dat in board.dats:
                    return self._send(200, _page(board.dats[dat], "スレ"), {"Content-Type": "text/html; charset=Shift_JIS"})
            return self._send(404, b"<html>not found</html>", {"Content-Type": "text/html"})

        def _dat(self, path: str) -> None:
            if path in board.refuse_dat:
                return self._send(403, b"<html>forbidden</html>", {"Content-Type": "text/html"})
            if path not in board.dats:
                return self._send(404, b"<html>not found</html>", {"Content-Type": "text/html"})
            body = board.dat_bytes(path)
            modified = formatdate(board.modified[path], usegmt=True)
            headers = {"Last-Modified": modified, "Content-Type": "text/plain"}
            if self.headers.get("If-Modified-Since") == modified:
                return self._send(304, b"", headers)
            wanted = self.headers.get("Range")
            if wanted:
                start = int(wanted.split("=")[1].split("-")[0])
                if start >= len(body):
                    return self._send(416, b"", {"Content-Range": f"bytes */{len(body)}"})
                return self._send(206, body[start:], {**headers, "Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"})
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                return self._send(200, gzip.compress(body), {**headers, "Content-Encoding": "gzip"})
            return self._send(200, body, headers)

        def _rawmode(self, path: str) -> None:
            parts = [p for p in path.split("/") if p][2:]
            key = "/".join(parts[:3])
            if key not in board.shitaraba:
                return self._send(200, b"", {"ERROR": "STORAGE IN", "Content-Type": "text/plain; charset=EUC-JP"})
            lines = board.shitaraba[key]
            if len(parts) > 3 and parts[3].endswith("-"):
                first = int(parts[3][:-1])
                lines = [line for line in lines if int(line.split("<>")[0]) >= first]
            body = "".join(line + "\n" for line in lines).encode("euc-jp")
            headers = {"Content-Type": "text/plain; charset=EUC-JP"}
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                return self._send(200, gzip.compress(body), {**headers, "Content-Encoding": "gzip"})
            return self._send(200, body, headers)

    return Handler
