"""A campaign's thread by its address (``pbf thread``, ``pbf watch``, ``--thread URL``;
docs/forum.md, section 1a): the thread fetched or read from the copy kept, the previous thread
while a turn's orders span two, and the posts an archived turn read that have changed since.
Imported only when a thread is given by its address (pbf/board/fetch.py with it)."""

from __future__ import annotations

import sys
from dataclasses import field
from pathlib import Path
from typing import Any, Callable

from ..board.fetch import Address, Fetched, archive_name, describe, fetch, is_url, keep, parse_address, stored_threads
from ..errors import PbfError, Problem
from ..record import record


# -- reading a campaign's thread by its address ---------------------------------------------------

@record
class ThreadInput:
    thread: Any  # what engine.thread_orders reads: a Path, or the bytes fetched
    encoding: str | None
    address: Address | None = None
    fetched: Fetched | None = None
    warnings: list[str] = field(default_factory=list)
    part: int | None = None  # which of the campaign's threads (threads.yaml), when it is one
    from_turn: int | None = None  # the first turn read from it

    @property
    def source(self) -> dict[str, Any] | None:
        if self.fetched is None:
            return None
        return {k: v for k, v in self.fetched.source.items() if not k.startswith("_") and v is not None}

    def data(self) -> bytes:
        if isinstance(self.thread, (bytes, bytearray)):
            return bytes(self.thread)
        from ..fsutil import read_bytes

        return read_bytes(Path(self.thread), str(self.thread))


def _read_fetched(fetched: Fetched, address: Address, encoding: str | None) -> tuple[Any, str | None]:
    from ..board.thread import decode_thread, load_thread

    enc = encoding or fetched.encoding
    if enc is None and fetched.kind == "dat":
        enc = "cp932"
    if enc is None and fetched.kind == "shitaraba":
        enc = "euc-jp"
    if enc and not encoding:
        try:
            fetched.data.decode(enc)
        except (UnicodeDecodeError, LookupError):
            enc = None  # not what the board's kind says: tell it from the bytes (or say why not)
    try:
        if enc is None:
            decode_thread(fetched.data)
        return load_thread(fetched.data, enc), enc
    except PbfError as exc:
        first = exc.problems[0]
        raise PbfError(Problem(f"{address.given} から取得したものがスレッドとして読めません：{first.message}",
                               line=first.line, text=first.text, hint=first.hint)) from None


def thread_input(campaign: Any, given: str | None, *, offline: bool = False, wait: bool = False,
                 encoding: str | None = None, say: Callable[[str], None] | None = None) -> ThreadInput:
    """``--thread`` as given (a file, a URL) or the campaign's stored thread, ready to read."""
    say = say or (lambda text: print("pbf: " + text, file=sys.stderr))
    if given is not None and not is_url(given):
        if offline:
            raise PbfError("--offline はスレッドをアドレス（URL）で読むときのものです。 / --offline needs a thread URL")
        return ThreadInput(Path(given), encoding)
    threads = stored_threads(campaign.path)
    url = given or (str(threads[-1]["url"]) if threads else None)
    if url is None:
        raise PbfError(Problem("スレッドが指定されていません。 / no thread given",
                               hint=f"--thread FILE か --thread URL を付けるか、pbf thread {campaign.path} URL で"
                                    "キャンペーンのスレッドを登録してください。"))
    address = parse_address(url)
    stored = next((t for t in threads if parse_address(str(t["url"])).url == address.url), None)
    zone = str(campaign.ctx.options.get("timezone", "JST") or "JST")
    fetched = fetch(campaign.path, address, offline=offline, wait=wait, say=say, zone=zone)
    if stored is not None and len(threads) > 1:
        fetched.source["part"] = int(stored.get("part", 1))
    thread, enc = _read_fetched(fetched, address, encoding)
    warnings = changed_posts(campaign, address, thread) if fetched.changed else []
    keep(campaign.path, address, fetched)
    say(describe(address, fetched))
    for warning in warnings:
        say(warning)
    part = int(stored.get("part", 1)) if stored is not None else None
    start = int(stored.get("from_turn", 1)) if stored is not None else None
    return ThreadInput(fetched.data, enc, address, fetched, warnings, part, start)


def previous_thread(campaign: Any, current: ThreadInput) -> dict[str, Any] | None:
    """The thread before ``current`` when the turn to come is the first read from ``current``
    (a player may have posted there before noticing the next thread)."""
    if not current.part or current.part < 2 or current.from_turn != campaign.turn + 1:
        return None
    threads = stored_threads(campaign.path)
    return next((t for t in threads if int(t.get("part", 1)) == current.part - 1), None)


class _InThread:
    """A submitted order, shown with its thread: 「Part1>>985」."""

    def __init__(self, order: Any, part: int):
        self._order, self._part = order, part

    def __getattr__(self, name: str) -> Any:
        return getattr(self._order, name)

    @property
    def source(self) -> str:
        return f"Part{self._part}>>{self._order.post}"

    def locate(self, problem: Problem) -> Problem:
        from dataclasses import replace

        o = self._order
        shifted = problem.shifted(o.line - 1, o.column_offset)
        return replace(shifted, player=shifted.player or o.player, source=self.source)


def merge_threads(campaign: Any, old: Any, new: Any, old_part: int, new_part: int) -> Any:
    """One turn's orders from two threads: each player's order from the thread where it was
    posted last (by the post's time; the new thread when the times cannot tell), every post
    shown with its thread (「Part2>>15」); turn.yaml's ``order_threads`` says which."""
    from dataclasses import replace

    from ..board.sources import OrderSource, OrderSources, ThreadOrders
    from ..board.thread import normalize_name

    names = {normalize_name(name): name for name in campaign.ctx.players}
    merged: dict[str, Any] = {}
    parts: dict[str, int] = {}
    taken_old: list[str] = []
    for player in new.collected.players:
        a, b = old.collected.orders.get(player), new.collected.orders.get(player)
        if a is not None and (b is None or (a.posted_at and b.posted_at and a.posted_at > b.posted_at)):
            merged[player], parts[player] = _InThread(a, old_part), old_part
            taken_old.append(player)
        elif b is not None:
            merged[player], parts[player] = _InThread(b, new_part), new_part
    collected = replace(new.collected, orders=merged)
    sources = {}
    for player, submitted in merged.items():
        name = names.get(player, player)
        sources[name] = OrderSource(name, submitted.text, submitted.locate, submitted.source, tuple(submitted.problems))
    meta = {**new.meta}
    meta["order_posts"] = {names.get(p, p): o.post for p, o in merged.items()}
    meta["order_threads"] = {names.get(p, p): parts[p] for p in merged}
    notes = list(new.notes)
    for player in taken_old:
        notes.append(Problem(f"{names.get(player, player)}の行動は前スレ（Part{old_part}>>{merged[player].post}）の書き込みです"
                             f"（次スレ Part{new_part} の書き込みより後か、次スレに行動がないため）。 / an order from the previous thread",
                             severity="note"))
    if notes:
        meta["notes"] = [n.format(public=True, japanese=True) for n in notes]
    return ThreadOrders(collected, collected.to_orders_file(), OrderSources(sources), meta, notes, new.read_upto,
                        new.deadline)


# -- a thread read again (pbf thread, pbf watch): the posts archived turns read ------------------

def changed_posts(campaign: Any, address: Address, thread: Any) -> list[str]:
    """The posts that an archived turn read from this thread and that are now different or
    gone: said loudly, naming the turn (the archive keeps what was read)."""
    from ..board.thread import load_thread
    from ..campaign.records import archived_meta
    from ..campaign.layout import turn_dir_name

    now = {p.number: p for p in thread.posts}
    out = []
    for turn in range(1, campaign.turn + 1):
        meta = archived_meta(campaign, turn).get("thread") or {}
        source = meta.get("source") or {}
        try:
            if not source.get("url") or parse_address(str(source["url"])).url != address.url:
                continue
        except PbfError:
            continue
        name = archive_name(str(meta.get("format") or ""))
        path = campaign.turn_dir(turn) / name
        if not path.is_file():
            continue
        try:
            old = load_thread(path.read_bytes(), meta.get("encoding"))
        except (PbfError, OSError):
            continue
        first, last = int(meta.get("first_post") or 1), int(meta.get("last_post") or 0)
        gone, changed = [], []
        for post in old.posts:
            if not first <= post.number <= last:
                continue
            new = now.get(post.number)
            if new is None:
                gone.append(post.number)
            elif (new.name, new.trip, new.date_text, new.body) != (post.name, post.trip, post.date_text, post.body):
                changed.append(post.number)
        where = f"history/{turn_dir_name(turn)}/{name}"
        if changed:
            out.append(f"注意：第{turn}ターンが読んだ {'、'.join(f'>>{n}' for n in changed)} が、今のスレッドでは変わっています"
                       f"（あぼーん・削除か編集）。第{turn}ターンの記録（{where}）には読んだときのものが残っています。"
                       " / a post an archived turn read has changed")
        if gone:
            out.append(f"注意：第{turn}ターンが読んだ {'、'.join(f'>>{n}' for n in gone)} が、今のスレッドにはありません。"
                       f"第{turn}ターンの記録（{where}）には読んだときのものが残っています。"
                       " / a post an archived turn read has vanished")
    return out
