"""Fetching a thread by its address, politely and only what is new (docs/forum.md, section 1a).

The address a GM copies from the browser is mapped to the best source:

* したらば ``…/bbs/read.cgi/CAT/BOARD/KEY/`` → ``…/bbs/rawmode.cgi/CAT/BOARD/KEY/`` (EUC-JP), and
  the new posts with the ``N-`` suffix;
* a 2ch-compatible ``…/test/read.cgi/BOARD/KEY/`` → ``…/BOARD/dat/KEY.dat`` (CP932), with
  ``Range``; the read.cgi page when the board does not serve its dat (403/404);
* a ``.dat`` or ``rawmode.cgi`` address as it is; any other page read as a copied read.cgi page.

pbf keeps its copy in the campaign folder (``thread/``: the bytes and what the server said of
them) and asks for what is new: ``304`` nothing, ``206`` appended, ``416`` or a changed
beginning: the thread is fetched whole and pbf says so.

HTTP is the standard library's (urllib): a request at a time, with Range, conditional headers
and gzip written out here; no dependency to install for a feature most runs do not use. This
module is imported only when a thread is given by its address.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import field
from pathlib import Path
from typing import Any, Callable

from .. import PROJECT_URL, __version__
from ..errors import PbfError, Problem
from ..record import record

USER_AGENT = f"Monazilla/1.00 pbf/{__version__} (+{PROJECT_URL})"
MIN_INTERVAL = 60.0  # seconds between two requests for one thread: the norm of 2ch browsers
MAX_BODY = 32 * 1024 * 1024
CACHE_FOLDER = "thread"
THREADS_FILE = "threads.yaml"  # the campaign's threads (pbf new --thread, pbf thread)


@record
class Settings:
    """What the fetcher uses of the world; tests put in a clock and a sleep that do not wait."""

    timeout: float = 20.0
    backoff: tuple = (5.0, 20.0)  # waits before the second and third attempt
    interval: float = MIN_INTERVAL
    wall: Callable[[], float] = time.time
    sleep: Callable[[float], None] = time.sleep


SETTINGS = Settings()


def is_url(text: Any) -> bool:
    return isinstance(text, str) and text.strip().lower().startswith(("http://", "https://"))


# -- addresses ----------------------------------------------------------------------------------

@record(frozen=True)
class Address:
    given: str  # as the GM wrote it
    kind: str  # "shitaraba" | "dat" | "page"
    url: str  # what is fetched
    fallback: str | None  # a 2ch board's read.cgi page, when its dat is refused
    host: str
    slug: str  # the name of pbf's copy in thread/
    mapped: str  # how the address was read, for stderr: 「したらばの rawmode.cgi」 …


_SAFE = re.compile(r"[^0-9A-Za-z._-]+")


def _slug(host: str, *parts: str) -> str:
    text = "-".join(p for p in (host, *parts) if p)
    return _SAFE.sub("_", text).strip("._-")[:120] or "thread"


def parse_address(given: str) -> Address:
    """The address of a thread → where to fetch it from; a clear error for what is not one."""
    import hashlib
    from urllib.parse import urlsplit, urlunsplit

    text = given.strip()
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018  (a port that is not a number raises)
    except ValueError:
        raise PbfError(Problem("スレッドのアドレスが読めません。 / not a URL", text=text[:80])) from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise PbfError(Problem("スレッドのアドレスは http:// か https:// で始まるものにしてください。 / not an http URL",
                               text=text[:80]))
    base = f"{parts.scheme.lower()}://{parts.netloc}"
    segments = [s for s in parts.path.split("/")]
    inner = [s for s in segments if s]
    for i, seg in enumerate(inner):
        rest = inner[i + 1:]
        prefix = "/".join(inner[:i - 1])
        prefix = f"/{prefix}" if prefix else ""
        if seg in ("read.cgi", "rawmode.cgi") and i > 0 and inner[i - 1] == "bbs" and len(rest) >= 3 \
                and rest[2].isdigit():
            cat, board, key = rest[:3]
            url = f"{base}{prefix}/bbs/rawmode.cgi/{cat}/{board}/{key}/"
            return Address(text, "shitaraba", url, None, host, _slug(host, cat, board, key),
                           "したらばの rawmode.cgi（EUC-JP）")
        if seg == "read.cgi" and i > 0 and inner[i - 1] == "test" and len(rest) >= 2 and rest[1].isdigit():
            board, key = rest[:2]
            url = f"{base}{prefix}/{board}/dat/{key}.dat"
            page = f"{base}{prefix}/test/read.cgi/{board}/{key}/"
            return Address(text, "dat", url, page, host, _slug(host, board, key), "2ch互換の板の dat（CP932）")
    if parts.path.lower().endswith(".dat"):
        url = urlunsplit((parts.scheme.lower(), parts.netloc, parts.path, "", ""))
        return Address(text, "dat", url, None, host, _slug(host, *inner[-3:]), "dat")
    url = urlunsplit((parts.scheme.lower(), parts.netloc, parts.path or "/", parts.query, ""))
    digest = hashlib.sha256(url.encode("utf-8")).hexdigest()[:10]
    return Address(text, "page", url, None, host, _slug(host, *inner[-2:], digest), "ページ（read.cgi のコピーとして読む）")


# -- HTTP ---------------------------------------------------------------------------------------

@record
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    url: str


class _Network(Exception):
    """A failure worth a retry (no answer, a 5xx)."""


class _OtherHost(Exception):
    pass


_HOST_LOCKS: dict[str, Any] = {}


def _host_lock(host: str) -> Any:
    """One request in flight to a host, whatever else this process is doing (setdefault is
    atomic: two threads get the same lock)."""
    import threading

    return _HOST_LOCKS.setdefault(host, threading.Lock())


def _opener():  # type: ignore[no-untyped-def]
    import urllib.request
    from urllib.parse import urlsplit

    class SameHost(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
            old, new = urlsplit(req.full_url), urlsplit(newurl)
            if (new.hostname or "").lower() != (old.hostname or "").lower():
                raise _OtherHost(newurl)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return urllib.request.build_opener(SameHost())


def _get(url: str, headers: dict[str, str], host: str) -> Response:
    import gzip
    import socket
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, **headers})
    with _host_lock(host):
        try:
            with _opener().open(request, timeout=SETTINGS.timeout) as answer:
                status, got, body = answer.status, dict(answer.headers.items()), answer.read(MAX_BODY + 1)
                final = answer.geturl()
        except _OtherHost as exc:
            from urllib.parse import urlsplit

            raise PbfError(Problem(
                f"{url} は別のホスト（{urlsplit(str(exc)).hostname}）へ転送されました。pbf は別のホストへの転送には"
                "ついて行きません。 / redirected to another host",
                text=str(exc)[:100],
                hint="スレッドが移転したなら、新しいアドレスで pbf thread DIR URL としてください。")) from None
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read(MAX_BODY + 1)
            except (OSError, ValueError):
                body = b""
            status, got, final = exc.code, dict(exc.headers.items()) if exc.headers else {}, url
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, (socket.timeout, TimeoutError)) or "timed out" in str(reason):
                raise _Network(f"{SETTINGS.timeout:g}秒待っても返事がありません（タイムアウト）") from None
            raise _Network(f"つながりません（{reason}）") from None
    if len(body) > MAX_BODY:
        raise PbfError(f"{url} の返事が大きすぎます（{MAX_BODY // 1024 // 1024} MB 超）。スレッドではないようです。"
                       " / the answer is too large")
    if {k.lower(): v for k, v in got.items()}.get("content-encoding", "").lower() == "gzip" and body:
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError, ValueError):
            raise PbfError(f"{url} の返事（gzip）が壊れています。 / broken gzip") from None
    if status >= 500:
        raise _Network(f"サーバーのエラー（HTTP {status}）")
    return Response(status, {k.lower(): v for k, v in got.items()}, body, final)


_RETRY_HINT = "しばらくしてからもう一度実行するか、--offline で手元の写しを使ってください。"
_NO_COPY_HINT = "アドレスとネットワークを確かめて、しばらくしてからもう一度実行してください（手元の写しはまだありません）。"


def request(url: str, headers: dict[str, str], host: str, say: Callable[[str], None]) -> Response:
    """One request, again after a back-off on a network error or a 5xx; then a clear error."""
    waits = list(SETTINGS.backoff)
    while True:
        try:
            return _get(url, headers, host)
        except _Network as exc:
            if not waits:
                raise PbfError(Problem(
                    f"スレッドを取得できませんでした：{url}（{exc}）。 / could not fetch the thread",
                    hint=_RETRY_HINT)) from None
            wait = waits.pop(0)
            say(f"{url}：{exc}。{wait:g}秒後にもう一度取得します。 / retrying")
            SETTINGS.sleep(wait)


# -- the copy in the campaign folder -------------------------------------------------------------

@record
class Copy:
    data: bytes
    meta: dict[str, Any]


def _cache_paths(folder: Path, address: Address) -> tuple[Path, Path]:
    base = folder / CACHE_FOLDER
    return base / f"{address.slug}.dat", base / f"{address.slug}.yaml"


def load_copy(folder: Path, address: Address) -> Copy | None:
    from .. import yamlio

    data_path, meta_path = _cache_paths(folder, address)
    try:
        data = data_path.read_bytes()
        meta = yamlio.load_plain(meta_path.read_text("utf-8"), str(meta_path))
    except (OSError, UnicodeDecodeError, PbfError):
        return None
    if not isinstance(meta, dict) or meta.get("url") != address.url:
        return None
    if meta.get("size") != len(data):  # a run killed between the two writes: ask for all of it again
        meta = {"url": address.url, "kind": meta.get("kind"), "fetched_at": meta.get("fetched_at")}
    return Copy(data, meta)


def save_copy(folder: Path, address: Address, copy: Copy) -> None:
    from .. import yamlio
    from ..fsutil import atomic_write

    data_path, meta_path = _cache_paths(folder, address)
    data_path.parent.mkdir(exist_ok=True)
    atomic_write(data_path, copy.data)
    atomic_write(meta_path, yamlio.dump_data(copy.meta))


# -- fetching -----------------------------------------------------------------------------------

@record
class Fetched:
    data: bytes  # what the thread reader reads (a page as the text of a copy)
    encoding: str | None  # the encoding to read it in, when known
    source: dict[str, Any]  # for turn.yaml
    said: list[str] = field(default_factory=list)
    changed: bool = False  # the thread is not what the copy held (あぼーん, a moved dat)
    kind: str = "dat"


def _header(response: Response, name: str) -> str | None:
    return response.headers.get(name)


def _conditional(meta: dict[str, Any]) -> dict[str, str]:
    headers = {}
    if meta.get("last_modified"):
        headers["If-Modified-Since"] = str(meta["last_modified"])
    if meta.get("etag"):
        headers["If-None-Match"] = str(meta["etag"])
    return headers


def _looks_html(data: bytes) -> bool:
    head = data[:512].lstrip().lower()
    return head.startswith((b"<!doctype", b"<html", b"<head", b"<?xml", b"<body", b"<meta"))


def _kako(data: bytes) -> bool:
    return any("過去ログ倉庫".encode(enc) in data for enc in ("cp932", "euc-jp", "utf-8"))


def _kako_error(url: str) -> PbfError:
    return PbfError(Problem(f"このスレッドは過去ログ倉庫に入っています（{url}）。もう書き込めないスレッドです。"
                            " / the thread is in the board's archive (過去ログ倉庫)",
                            hint="次スレがあれば pbf thread DIR 次スレのURL --next で追加してください。"))


def _refuse_error_page(kind: str, url: str, response: Response) -> None:
    """したらば's ``ERROR`` and 2ch's 過去ログ倉庫: the board says the thread is not there; an
    HTML page where a dat was asked for is not a thread."""
    error = _header(response, "error")
    head = response.body.lstrip()[:200]
    if kind != "page" and (error or head.startswith(b"ERROR")):
        what = error or head.decode("ascii", "replace").splitlines()[0]
        raise PbfError(Problem(
            f"板がエラーを返しました（{what.strip()[:60]}）：{url}。スレッドがないか、アドレスが違います。"
            " / the board answered ERROR",
            hint="ブラウザでスレッドが開けるか、アドレス（板とスレッドの番号）を確かめてください。"))
    if kind != "page" and _looks_html(response.body):
        if _kako(response.body):
            raise _kako_error(url)
        raise PbfError(Problem(f"{url} はスレッドの dat ではありません（HTML のページが返ってきました）。 / not a dat",
                               hint="スレッドのアドレス（read.cgi のページ）を指定してください。"))


def _shitaraba_last(data: bytes) -> tuple[int, bytes] | None:
    """The number and the line of a したらば copy's last post."""
    lines = [line for line in data.splitlines(keepends=True) if line.strip()]
    if not lines:
        return None
    m = re.match(rb"(\d+)<>", lines[-1])
    return (int(m.group(1)), lines[-1]) if m else None


def _page_text(data: bytes, response_charset: str | None) -> bytes:
    """A read.cgi page (HTML) → the text a GM would get by copying it, UTF-8."""
    from .thread import decode_thread

    charset = response_charset
    if not charset:
        m = re.search(rb"<meta[^>]+charset\s*=\s*[\"']?([A-Za-z0-9_-]+)", data[:4096], re.I)
        charset = m.group(1).decode("ascii") if m else None
    text = None
    if charset:
        try:
            text = data.decode(_codec(charset))
        except (LookupError, UnicodeDecodeError):
            text = None
    if text is None:
        text, _ = decode_thread(data)
    return html_to_copy(text).encode("utf-8")


def _codec(name: str) -> str:
    low = name.lower().replace("_", "-")
    return {"shift-jis": "cp932", "sjis": "cp932", "x-sjis": "cp932", "windows-31j": "cp932",
            "euc-jp": "euc-jp", "x-euc-jp": "euc-jp"}.get(low, low)


def _charset(response: Response) -> str | None:
    m = re.search(r"charset\s*=\s*[\"']?([A-Za-z0-9_-]+)", response.headers.get("content-type", ""), re.I)
    return _codec(m.group(1)) if m else None


def html_to_copy(text: str) -> str:
    """The text of an HTML page as a browser's copy gives it: a line break at each block and
    ``<br>``, a space between inline parts, the mail field as ``[sage]`` after the name."""
    from html.parser import HTMLParser

    blocks = {"br", "dt", "dd", "div", "p", "li", "tr", "h1", "h2", "h3", "article", "section", "dl", "hr", "title"}

    class Copier(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.out: list[str] = []
            self.skip = 0
            self.mail: list[str | None] = []

        def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
            if tag in ("script", "style"):
                self.skip += 1
            elif tag in blocks:
                self.out.append("\n")
            elif tag == "a":
                href = dict(attrs).get("href") or ""
                self.mail.append(href[7:] if href.lower().startswith("mailto:") else None)
            elif tag == "span":
                self.out.append(" ")

        def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
            if tag in ("script", "style"):
                self.skip = max(0, self.skip - 1)
            elif tag in blocks and tag != "br":
                self.out.append("\n")
            elif tag == "a" and self.mail:
                mail = self.mail.pop()
                if mail:
                    self.out.append(f" [{mail}]")
            elif tag == "span":
                self.out.append(" ")

        def handle_data(self, data):  # type: ignore[no-untyped-def]
            if not self.skip:
                self.out.append(data.replace("\r", "").replace("\n", " "))

    copier = Copier()
    copier.feed(text)
    copier.close()
    lines = [" ".join(line.split()) for line in "".join(copier.out).split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def _stamp(zone: str) -> str:
    """When the thread was fetched, on the board's clock (PBF_NOW stands in for it)."""
    from .forum import board_now

    return board_now(zone).strftime("%Y-%m-%d %H:%M:%S")


def fetch(folder: Path, address: Address, *, offline: bool = False, wait: bool = False,
          say: Callable[[str], None] | None = None, zone: str = "JST") -> Fetched:
    """The thread at ``address``, from pbf's copy in ``folder`` brought up to date.

    Nothing is written unless what came back reads as a thread (the caller checks it and then
    calls :func:`keep`). ``wait``: within a minute of the last request, wait for the minute
    (``pbf turn``, ``pbf watch``) rather than use the copy as it is (``pbf status``)."""
    say = say or (lambda text: print("pbf: " + text, file=sys.stderr))
    copy = load_copy(folder, address)
    base = {"url": address.given, "fetched": address.url}
    if offline:
        if copy is None:
            raise PbfError(Problem(f"--offline ですが、{address.given} の手元の写しがありません。 / no copy to use offline",
                                   hint="一度 --offline なしで取得してください。"))
        return _from_copy(copy, address, base, "手元の写しをそのまま使いました（--offline）", said=[])
    said: list[str] = []
    if copy is not None and copy.meta.get("fetched_at") is not None:
        elapsed = SETTINGS.wall() - float(copy.meta["fetched_at"])
        if 0 <= elapsed < SETTINGS.interval:
            left = SETTINGS.interval - elapsed
            if not wait:
                return _from_copy(copy, address, base,
                                  f"前の取得から{int(elapsed)}秒です。板への負担を避けるため、{int(SETTINGS.interval)}秒"
                                  "たつまでは手元の写しを使います", said=[])
            say(f"前の取得から{int(elapsed)}秒です。{left:.0f}秒待ってから取得します（1スレッドに1分1回まで）。 / waiting")
            SETTINGS.sleep(left)
    kind = copy.meta.get("kind") if copy is not None and copy.meta.get("kind") else address.kind
    try:
        if kind == "shitaraba":
            got = _fetch_shitaraba(address, copy, say)
        elif kind == "dat":
            got = _fetch_dat(address, copy, say)
        else:
            got = _fetch_page(address, address.fallback if address.kind == "dat" else address.url, copy, say)
    except PbfError as exc:
        if copy is None and exc.problems[0].hint == _RETRY_HINT:  # no copy for --offline to use
            from dataclasses import replace

            raise PbfError(replace(exc.problems[0], hint=_NO_COPY_HINT)) from None
        raise
    got.source = {**base, **got.source, "at": _stamp(zone)}
    if got.source.get("_meta") is not None:  # the copy knows when it was fetched (--offline says it)
        got.source["_meta"]["at"] = got.source["at"]
    got.said = said + got.said
    return got


def _from_copy(copy: Copy, address: Address, base: dict[str, Any], why: str, said: list[str]) -> Fetched:
    kind = copy.meta.get("kind") or address.kind
    data = copy.data
    if kind == "page":
        data = _page_text(data, copy.meta.get("charset"))
    source = {**base, "fetched": copy.meta.get("source", address.url), "kind": kind, "answer": "copy",
              "at": copy.meta.get("at")}
    return Fetched(data, _expected(kind, copy.meta.get("charset")), source, said + [why], kind=kind)


def _expected(kind: str, charset: str | None) -> str | None:
    if kind == "page":
        return "utf-8"
    return charset or None


def _new_meta(address: Address, kind: str, url: str, response: Response, data: bytes, **extra: Any) -> dict[str, Any]:
    meta = {"url": address.url, "source": url, "kind": kind, "size": len(data), "fetched_at": SETTINGS.wall()}
    if _header(response, "last-modified"):
        meta["last_modified"] = _header(response, "last-modified")
    if _header(response, "etag"):
        meta["etag"] = _header(response, "etag")
    charset = _charset(response)
    if charset:
        meta["charset"] = charset
    meta.update(extra)
    return meta


def _touch(copy: Copy, response: Response | None) -> dict[str, Any]:
    meta = {**copy.meta, "fetched_at": SETTINGS.wall()}
    if response is not None:
        for name, key in (("last-modified", "last_modified"), ("etag", "etag")):
            if _header(response, name):
                meta[key] = _header(response, name)
    return meta


def _fetch_dat(address: Address, copy: Copy | None, say: Callable[[str], None]) -> Fetched:
    url = address.url
    if copy is not None and copy.meta.get("size") and copy.data.endswith(b"\n"):
        size = len(copy.data)
        # from one byte before the end (as 2ch browsers ask): that byte must still be the
        # copy's last line break, or the thread was rewritten
        headers = {"Range": f"bytes={size - 1}-", **_conditional(copy.meta)}
        response = request(url, headers, address.host, say)
        if response.status == 304:
            return _result(copy.data, _touch(copy, response), "dat", url, "304", "新しい書き込みはありません")
        if response.status == 206:
            _refuse_error_page("dat", url, response)
            start = re.match(r"bytes\s+(\d+)-", _header(response, "content-range") or "")
            if start and int(start.group(1)) == size - 1 and response.body[:1] == b"\n":
                data = copy.data + response.body[1:]
                meta = {**_touch(copy, response), "size": len(data)}
                new = response.body[1:].count(b"\n")
                return _result(data, meta, "dat", url, "206", f"新しい書き込み{new}件を追記しました（{len(data) - size}バイト）"
                               if new else "新しい書き込みはありません")
            return _whole_dat(address, copy, say, "スレッドの中身が手元の写しと違います（あぼーんか dat の差し替え）")
        if response.status == 416:
            return _whole_dat(address, copy, say, "スレッドが手元の写しより短くなりました（あぼーんか dat の差し替え）")
        if response.status == 200:
            return _full_dat(address, copy, response, say)
        if response.status in (403, 404) and address.fallback:
            return _fetch_page(address, address.fallback, None, say, refused=response.status)
        _http_refused(url, response)
    return _whole_dat(address, copy, say, None)


def _whole_dat(address: Address, copy: Copy | None, say: Callable[[str], None], why: str | None) -> Fetched:
    url = address.url
    if why:
        say(f"{why}。スレッドを全部取得し直します。 / the thread changed; fetching it whole")
    response = request(url, {"Accept-Encoding": "gzip"}, address.host, say)
    if response.status in (403, 404) and address.fallback:
        return _fetch_page(address, address.fallback, None, say, refused=response.status)
    if response.status != 200:
        _http_refused(url, response)
    got = _full_dat(address, copy if why is None else None, response, say)
    if why:
        got.changed = True
        got.said.insert(0, why + "。全部取得し直しました")
    return got


def _full_dat(address: Address, copy: Copy | None, response: Response, say: Callable[[str], None]) -> Fetched:
    url = address.url
    _refuse_error_page("dat", url, response)
    data = response.body
    if not data.strip():
        raise PbfError(f"{url} は空でした。スレッドではないようです。 / empty answer")
    meta = _new_meta(address, "dat", url, response, data)
    if copy is not None and not data.startswith(copy.data):
        got = _result(data, meta, "dat", url, "200", "スレッドの中身が手元の写しと違いました（あぼーんか dat の差し替え）。"
                      "全部取得し直しました")
        got.changed = True
        return got
    return _result(data, meta, "dat", url, "200", f"スレッドを取得しました（{len(data)}バイト）")


def _http_refused(url: str, response: Response) -> None:
    if response.status in (403, 404, 410):
        raise PbfError(Problem(
            f"スレッドがありません（HTTP {response.status}）：{url}。 / no thread at the address",
            hint="ブラウザでスレッドが開けるか、アドレスを確かめてください。"))
    raise PbfError(f"スレッドを取得できませんでした（HTTP {response.status}）：{url}。 / HTTP {response.status}")


def _result(data: bytes, meta: dict[str, Any], kind: str, url: str, answer: str, said: str) -> Fetched:
    fetched = Fetched(data, _expected(kind, meta.get("charset")), {"fetched": url, "kind": kind, "answer": answer},
                      [said], kind=kind)
    fetched.source["_meta"] = meta  # taken out by keep(): what to write when the thread reads
    return fetched


def _fetch_shitaraba(address: Address, copy: Copy | None, say: Callable[[str], None]) -> Fetched:
    url = address.url
    last = _shitaraba_last(copy.data) if copy is not None and copy.meta.get("size") else None
    if last is not None:
        number, line = last
        ask = f"{url}{number}-"  # from the copy's last post: it must come back the same
        response = request(ask, {"Accept-Encoding": "gzip"}, address.host, say)
        if response.status == 200:
            _refuse_error_page("shitaraba", ask, response)
            lines = [ln for ln in response.body.splitlines(keepends=True) if ln.strip()]
            if lines and lines[0].rstrip(b"\r\n") == line.rstrip(b"\r\n"):
                body = b"".join(ln if ln.endswith(b"\n") else ln + b"\n" for ln in lines[1:])
                base = copy.data if copy.data.endswith(b"\n") else copy.data + b"\n"
                data = base + body
                meta = {**_touch(copy, response), "size": len(data)}
                new = len(lines) - 1
                return _result(data, meta, "shitaraba", ask, "200",
                               f"新しい書き込み{new}件を追記しました（>>{number + 1}から）" if new else "新しい書き込みはありません")
            say("スレッドの中身が手元の写しと違います（あぼーんか削除）。スレッドを全部取得し直します。"
                " / the thread changed; fetching it whole")
            got = _whole_shitaraba(address, say)
            got.changed = True
            got.said.insert(0, "スレッドの中身が手元の写しと違いました（あぼーんか削除）。全部取得し直しました")
            return got
        if response.status in (403, 404, 410):
            _http_refused(ask, response)
        _http_refused(ask, response)
    return _whole_shitaraba(address, say)


def _whole_shitaraba(address: Address, say: Callable[[str], None]) -> Fetched:
    url = address.url
    response = request(url, {"Accept-Encoding": "gzip"}, address.host, say)
    if response.status != 200:
        _http_refused(url, response)
    _refuse_error_page("shitaraba", url, response)
    data = response.body
    if not data.strip():
        raise PbfError(Problem(f"{url} は空でした。スレッドがないようです。 / empty answer",
                               hint="ブラウザでスレッドが開けるか、アドレスを確かめてください。"))
    if not data.endswith(b"\n"):
        data += b"\n"
    meta = _new_meta(address, "shitaraba", url, response, data)
    meta["charset"] = meta.get("charset") or "euc-jp"
    return _result(data, meta, "shitaraba", url, "200", f"スレッドを取得しました（{len(data)}バイト）")


def _fetch_page(address: Address, url: str | None, copy: Copy | None, say: Callable[[str], None],
                refused: int | None = None) -> Fetched:
    url = url or address.url
    if refused:
        say(f"板が dat を出しませんでした（HTTP {refused}）。read.cgi のページを読みます。 / reading the read.cgi page")
    headers = {"Accept-Encoding": "gzip", **(_conditional(copy.meta) if copy is not None else {})}
    response = request(url, headers, address.host, say)
    if response.status == 304 and copy is not None:
        got = _result(copy.data, _touch(copy, response), "page", url, "304", "新しい書き込みはありません")
    elif response.status == 200:
        meta = _new_meta(address, "page", url, response, response.body)
        got = _result(response.body, meta, "page", url, "200", f"ページを取得しました（{len(response.body)}バイト）")
    else:
        _http_refused(url, response)
    if _kako(got.data) and b"<dt" not in got.data.lower() and b'class="post"' not in got.data:
        raise _kako_error(url)
    raw = got.data
    got.data = _page_text(raw, got.source["_meta"].get("charset"))
    got.source["_raw"] = raw
    got.encoding = "utf-8"
    if refused:
        got.said.insert(0, f"dat が取れなかったので（HTTP {refused}）、read.cgi のページを読みました")
    return got


def keep(folder: Path, address: Address, fetched: Fetched) -> None:
    """Write pbf's copy, once what was fetched has read as a thread."""
    meta = fetched.source.pop("_meta", None)
    raw = fetched.source.pop("_raw", None)
    if meta is None:
        return
    save_copy(folder, address, Copy(raw if raw is not None else fetched.data, meta))


def describe(address: Address, fetched: Fetched) -> str:
    """The line said on stderr: which source was read, and what came of it."""
    source = fetched.source
    what = {"shitaraba": "したらばの rawmode.cgi（EUC-JP）", "dat": "dat（CP932）",
            "page": "read.cgi のページ（コピーとして読む）"}.get(fetched.kind, fetched.kind)
    return f"スレッド：{address.given} → {what} {source.get('fetched')}：{'、'.join(fetched.said)}。"


# -- the campaign's threads ------------------------------------------------------------------------

def stored_threads(folder: Path) -> list[dict[str, Any]]:
    """``threads.yaml``: the campaign's threads in order (part 1, 2, … of a battle)."""
    from .. import yamlio

    path = Path(folder) / THREADS_FILE
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise PbfError(f"{THREADS_FILE} が読めません（{exc}）。 / cannot read {THREADS_FILE}") from None
    data = yamlio.load_plain(text, THREADS_FILE)
    threads = data.get("threads") if isinstance(data, dict) else None
    if not isinstance(threads, list) or not all(isinstance(t, dict) and is_url(t.get("url")) for t in threads):
        raise PbfError(Problem(f"{THREADS_FILE} の threads は、url を持つ表の並びにしてください。 / bad {THREADS_FILE}",
                               hint="pbf thread DIR URL で書き直せます。"))
    return threads


def store_thread(folder: Path, url: str, *, next_thread: bool = False, turn: int = 0) -> list[dict[str, Any]]:
    """Set the campaign's thread (``next_thread``: add the next one). Returns the threads."""
    from .. import yamlio
    from ..fsutil import atomic_write

    address = parse_address(url)
    threads = stored_threads(folder)
    if next_thread:
        if not threads:
            raise PbfError(Problem("--next は次スレの追加です。キャンペーンにまだスレッドがありません。 / no thread yet",
                                   hint="最初のスレッドは pbf thread DIR URL（--next なし）で登録します。"))
        if any(parse_address(t["url"]).url == address.url for t in threads):
            raise PbfError(f"{url} はもうこのキャンペーンのスレッドです。 / already one of the campaign's threads")
        threads = threads + [{"url": address.given, "part": len(threads) + 1, "from_turn": turn + 1}]
    else:
        if len(threads) > 1:
            raise PbfError(Problem("このキャンペーンには次スレがあります。スレッドを替えるのではなく、次スレを足してください。"
                                   " / the campaign has several threads",
                                   hint="pbf thread DIR URL --next"))
        threads = [{"url": address.given, "part": 1, "from_turn": 1}]
    atomic_write(Path(folder) / THREADS_FILE,
                 "# キャンペーンのスレッド（pbf thread が書きます）\n" + yamlio.dump_data({"threads": threads}))
    return threads


def current_url(folder: Path) -> str | None:
    threads = stored_threads(folder)
    return str(threads[-1]["url"]) if threads else None


def archive_name(fmt: str) -> str:
    return "thread.txt" if fmt == "copy" else "thread.dat"


def read_upto(data: bytes, fmt: str, last_post: int) -> bytes:
    """The thread's bytes up to the last post a turn read (its posts and all before them): a
    dat's first lines (a line is a post), a したらば dat's lines to that number; a copied page
    is kept whole (where a post ends in it is the reader's guess)."""
    if fmt == "copy":
        return data
    lines = data.splitlines(keepends=True)
    if fmt == "dat":
        return b"".join(lines[:last_post])
    kept = []
    for line in lines:
        m = re.match(rb"\s*(\d+)<>", line)
        if m and int(m.group(1)) > last_post:
            break
        kept.append(line)
    return b"".join(kept)
