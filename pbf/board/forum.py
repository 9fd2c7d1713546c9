"""Which posts of a thread are a turn's orders (docs/forum.md).

:func:`collect_orders` takes the posts of :func:`pbf.thread.read_thread` and the registered
players and returns a :class:`Collected`: each player's winning order (with the post it came
from, so that an error can say 「>>12の3行目」), the late posts (遅刻), the suspected
impersonations (なりすまし) and, in commit–reveal mode, the commitments that failed.

Rulings
-------

Players and trips
    ``players`` maps a name to a trip (without ``◆``) or ``None``. Names are compared after
    :func:`pbf.thread.normalize_name` (NFKC, trimmed, whitespace collapsed); trips exactly. A
    player without a registered trip is anyone posting under that name. A post under a
    registered player's name with a wrong or missing trip is ignored and reported as an
    :class:`Impersonation` (every such post in the window, order or not). Posts under other names
    are chat.

The window
    ``since=N`` starts the window at post N (inclusive). Otherwise the window starts after
    the later of two points: the last post the previous turn read (``after``: the archive keeps
    it, so a turn is never taken twice from the same posts, even before its results post is
    pasted), and the previous turn's results post. A results post is a post whose last non-blank
    line is the footer of :func:`results_marker_line` (``［pbf］第3ターン結果``, part numbers may
    follow; the opening post's ``［pbf］バトル開始`` counts as turn 0). With ``current_turn`` given,
    the results post that counts is the *first* one for that turn — a post split into parts
    opens the window at its first part, so posts made between the parts are read — and results
    posts of later turns (left in the thread by ``pbf undo``) are chat. Without it, the last
    results post counts. When ``gm=(name, trip)`` is given, only that poster's posts count as
    results posts, so a player cannot move the window by posting the footer. Results posts are
    never orders. The window always runs to the end of the thread.

Orders
    Where the order starts in a post is :func:`pbf.markers.read_post` (``pbf check`` on a pasted
    post uses the same function; docs/forum.md, section 3 has every shape and ruling). In short:
    the order is the text after the *last* marker that begins a line (default ``【行動】``,
    compared after NFKC; a colon after it is part of it; ``【 行動 】``, ``［行動］``, ``行動：``
    and ``【プロット】`` read too, with a note), to the end of the post; without one, after the
    last marker in mid-line that heads the rest of its line (with a note); after the battle's
    end, for a game with ``epilogue_words``, a line beginning ``イベントファイナル:`` is an order
    by itself. An anchor at the marker or at the start of the order (``>>12``) is passed over with
    a note; an earlier marker of the post is said as not read. Lines beginning with ``>`` (quotes,
    not anchors) never carry a marker, and a marker used as a word in a sentence
    (``【行動】は行の先頭に…``) is chat. The notes are :attr:`SubmittedOrder.notes` and come out in
    :meth:`Collected.notes` (the receipts' ※ lines, the turn's notes). A marker with nothing after
    it is an order post whose :attr:`SubmittedOrder.problems` say so (「【行動】の後ろに行動が
    ありません」): an error, never the empty order. Within the window each player's *last* order
    post wins; the earlier ones are listed in :attr:`SubmittedOrder.superseded`.

Warnings (never silent)
    :attr:`Collected.warnings` says, per player, why a post of theirs in the window gave no order:
    a marker used as a word in a sentence, a marker in mid-line with nothing after it on the line,
    or none of their posts has the marker at all (they are then 未提出 for a reason they can see).
    When no registered player posted in the window at all, one warning without a player says so
    (a wrong thread, a wrong window, or names that do not match).

Deadline
    :func:`parse_deadline` reads ``YYYY-MM-DD HH:MM`` (``/`` also accepted, full-width digits
    via NFKC) as naive board time (JST). Deadlines have minute precision and the deadline minute
    is included: with ``21:00`` a post stamped ``21:00:59.99`` is on time, ``21:01:00.00`` late.
    Later order posts by registered players are ignored and listed as :class:`LatePost`; a post
    without a time (an unparseable date) is treated as late when a deadline is given.

Commit–reveal (``orders="commit"``)
    A player posts ``【コミット】HEX`` — ``HEX`` the SHA-256 of ``ORDER + "\\n" + SALT`` in
    UTF-8 — and later ``【公開】ORDER SALT``. SALT is the last whitespace-separated token of
    the reveal; ORDER is everything before it (it may contain spaces and line breaks). ORDER is
    canonicalised before hashing (:func:`canonical_order`: line breaks as ``\\n``, trailing
    whitespace of each line and leading/trailing blank space removed) on both sides, so board
    reformatting does not break it; nothing else is changed (no NFKC).

    * The commit that counts is the player's last well-formed commit in the window posted by
      ``deadline`` (the plot deadline). Later commits are late; malformed ones (not 64 hex
      digits after NFKC) are reported and ignored.
    * The reveal that counts is any reveal by the player in the window (by ``reveal_deadline``
      if given) that matches the commit that counts. Only one order can match a commitment, so
      a mistyped reveal followed by a correct one is fine, and a player cannot change the order.
    * No commit, no reveal, or no matching reveal → the player has no order (treated as
      missing) and a :class:`CommitIssue` says why. Plain ``【行動】`` posts are chat in this mode.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from ..errors import PbfError, Problem
from .markers import OPENING_MARKER, RESULTS_PREFIX, opening_marker_line, results_marker_line
from .markers import Found, read_post
from .markers import order_text as _marker_text
from ..record import record

if TYPE_CHECKING:  # thread.py is imported where a thread is read (start-up of pbf turn --orders)
    from .thread import Post

__all__ = [
    "ORDER_MARKER",
    "COMMIT_MARKER",
    "REVEAL_MARKER",
    "RESULTS_PREFIX",
    "SubmittedOrder",
    "LatePost",
    "Impersonation",
    "CommitIssue",
    "Collected",
    "collect_orders",
    "results_marker_line",
    "results_turn",
    "parse_deadline",
    "parse_timezone",
    "deadline_string",
    "normalize_deadline",
    "deadline_label",
    "board_now",
    "time_left",
    "CLOCK_VARIABLE",
    "is_late",
    "opening_marker_line",
    "canonical_order",
    "commitment",
    "make_commit",
    "make_salt",
    "parse_reveal",
]

ORDER_MARKER = "【行動】"
COMMIT_MARKER = "【コミット】"
REVEAL_MARKER = "【公開】"


# -- results posts -------------------------------------------------------------------------------
# The markers pbf writes (RESULTS_PREFIX, OPENING_MARKER, results_marker_line, opening_marker_line)
# live in pbf/markers.py, which a turn imports without this module (start-up); they are forum's
# names too.


@lru_cache(maxsize=8)  # a thread's every post is asked, with the same prefix
def _results_re(prefix: str) -> re.Pattern[str]:
    norm = unicodedata.normalize("NFKC", prefix).strip()
    return re.compile(
        r"^\s*" + re.escape(norm) + r"\s*(?:第\s*(\d{1,9})\s*ターン結果|" + re.escape(OPENING_MARKER) + r")"
        r"(?:\s*\(\s*\d+\s*/\s*\d+\s*\))?\s*$"
    )


def results_turn(post: Post, prefix: str = RESULTS_PREFIX) -> int | None:
    """The turn number if ``post`` is a pbf results post (footer on its last non-blank line)."""
    last = next((line for line in reversed(post.body.split("\n")) if line.strip()), None)
    if last is None:
        return None
    m = _results_re(prefix).match(unicodedata.normalize("NFKC", last))
    if not m:
        return None
    return int(m.group(1)) if m.group(1) else 0


# -- deadlines -------------------------------------------------------------------------------------

_DEADLINE = r"^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+|T)(\d{1,2}):(\d{2})$"  # through re's cache: rarely needed


def parse_deadline(text: str) -> datetime:
    """``"2026-11-29 21:00"`` → a naive datetime in board time (JST)."""
    norm = " ".join(unicodedata.normalize("NFKC", text).split())
    m = re.match(_DEADLINE, norm)
    if not m:
        raise PbfError(
            Problem(
                "締切の書き方が読めません。「YYYY-MM-DD HH:MM」（掲示板の時刻、日本時間）で書いてください。"
                " / the deadline must look like 2026-11-29 21:00",
                text=text,
                hint="例：--deadline \"2026-11-29 21:00\"",
            )
        )
    year, month, day, hour, minute = (int(g) for g in m.groups())
    if not 2000 <= year <= 2999:  # the late check adds a minute: 9999-12-31 23:59 would overflow
        raise PbfError(Problem("締切の年は2000〜2999年です。 / the deadline's year is out of range", text=text[:40]))
    try:
        return datetime(year, month, day, hour, minute)
    except ValueError:
        raise PbfError(
            Problem("締切の日付か時刻がありえない値です。 / no such date or time", text=text)
        ) from None


def normalize_deadline(text: str) -> str:
    """A deadline as written by a GM → how pbf stores it (``2026-12-05 22:00``), checked."""
    return deadline_string(parse_deadline(text))


_WEEKDAYS = "月火水木金土日"
_TZ = r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$"
_JAPAN = ("JST", "ASIA/TOKYO", "JAPAN")  # the same clock: a label never names it


def parse_timezone(text: str) -> tzinfo:
    """The board's clock (option ``timezone``): ``JST``, ``UTC``, an offset such as ``+09:00``,
    or a zone name of the IANA database (``Asia/Tokyo``, ``Europe/London``: with daylight
    saving) through the standard library's :mod:`zoneinfo`."""
    return _zone(unicodedata.normalize("NFKC", str(text)).strip())


@lru_cache(maxsize=8)
def _zone(norm: str) -> tzinfo:
    upper = norm.upper()
    if upper == "JST":
        return timezone(timedelta(hours=9), "JST")
    if upper in ("UTC", "GMT", "Z"):
        return timezone.utc
    m = re.match(_TZ, upper)
    if m and int(m[2]) <= 14 and int(m[3] or 0) < 60:
        offset = timedelta(hours=int(m[2]), minutes=int(m[3] or 0))
        return timezone(-offset if m[1] == "-" else offset)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*", norm):
        return _zoneinfo(norm)
    raise PbfError(
        Problem("timezone は JST、UTC、+09:00 のような時差か、Asia/Tokyo のようなタイムゾーン名です。"
                " / timezone must be JST, UTC, ±HH:MM or a zone name", text=norm)
    )


def _zoneinfo(name: str) -> tzinfo:
    """A zone of the IANA database by name (letter case aside); a clear message when the
    machine has no such database (Windows without the tzdata package)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    known = available_timezones()
    if not known:
        raise PbfError(
            Problem(
                f"timezone「{name}」を引けません：この PC にはタイムゾーンのデータ（IANA）がありません。"
                " / no time zone database on this machine",
                hint="pip install tzdata で入ります（Windows 用の pbf は一緒に入れます）。"
                     "JST や +09:00 のような時差なら、データがなくても使えます（夏時間はありません）。",
            )
        )
    found = {n.lower(): n for n in known}.get(name.lower())
    if found:
        return ZoneInfo(found)
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=3)
    raise PbfError(
        Problem(
            f"timezone「{name}」というタイムゾーンはありません。 / unknown time zone",
            hint=("近いもの：" + "、".join(close)) if close else "例：Asia/Tokyo、Europe/London、+09:00",
        )
    )


def deadline_string(deadline: datetime) -> str:
    """How a deadline is stored: ``2026-12-05 22:00``."""
    return deadline.strftime("%Y-%m-%d %H:%M")


def deadline_label(deadline: datetime, timezone: str = "JST", year: bool = False) -> str:
    """How a post shows a deadline: ``12/5(土) 22:00`` (the zone only when it is not JST);
    ``year``: ``2026/12/5(土) 22:00``, as ``pbf deadline`` confirms it."""
    label = f"{deadline.month}/{deadline.day}({_WEEKDAYS[deadline.weekday()]}) {deadline:%H:%M}"
    if year:
        label = f"{deadline.year}/{label}"
    zone = unicodedata.normalize("NFKC", str(timezone)).strip()
    return label if zone.upper() in _JAPAN else f"{label}（{zone}）"


def is_late(posted_at: datetime | None, deadline: datetime | None) -> bool:
    """Late = stamped after the deadline's minute; unknown time counts as late."""
    if deadline is None:
        return False
    if posted_at is None:
        return True
    if posted_at.tzinfo is not None:
        posted_at = posted_at.replace(tzinfo=None)
    return posted_at >= deadline.replace(second=0, microsecond=0) + timedelta(minutes=1)


# -- the clock ---------------------------------------------------------------------------------------

CLOCK_VARIABLE = "PBF_NOW"  # board time for scripts and tests: "YYYY-MM-DD HH:MM[:SS]" (docs/forum.md)
_CLOCK = r"^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+|T)(\d{1,2}):(\d{2})(?::(\d{2}))?$"


def board_now(zone: str = "JST") -> datetime:
    """Now on the board's clock (``zone``: the campaign's timezone), naive like the board's
    timestamps. The environment variable ``PBF_NOW`` (board time) stands in for the clock."""
    given = os.environ.get(CLOCK_VARIABLE, "")
    if given.strip():
        norm = " ".join(unicodedata.normalize("NFKC", given).split())
        m = re.match(_CLOCK, norm)
        try:
            if not m:
                raise ValueError
            return datetime(*(int(g or 0) for g in m.groups()))
        except ValueError:
            raise PbfError(
                Problem(
                    f"環境変数 {CLOCK_VARIABLE} の日時が読めません（板の時刻で「YYYY-MM-DD HH:MM」か「YYYY-MM-DD HH:MM:SS」）。"
                    f" / {CLOCK_VARIABLE} must look like 2026-12-08 22:01",
                    text=given[:40],
                    hint=f"時計を差し替えないなら {CLOCK_VARIABLE} を消してください（unset {CLOCK_VARIABLE}）。",
                )
            ) from None
    return datetime.now(parse_timezone(zone)).replace(tzinfo=None)


def time_left(now: datetime, deadline: datetime, zone: str = "JST") -> str | None:
    """From ``now`` to the deadline, in words: ``あと1日2時間3分`` (whole minutes, rounded up;
    across a change of daylight saving the real time, not the clock's); None within the
    deadline's own minute (a post is still on time until its end)."""
    tz = parse_timezone(zone)
    left = deadline.replace(tzinfo=tz).astimezone(timezone.utc) - now.replace(tzinfo=tz).astimezone(timezone.utc)
    seconds = int(left.total_seconds() + 0.999999)
    if seconds <= 0:
        return None
    minutes = -(-seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return "あと" + (f"{days}日" if days else "") + (f"{hours}時間" if hours else "") + (f"{minutes}分" if minutes else "")


# -- commit–reveal ------------------------------------------------------------------------------


def canonical_order(order: str) -> str:
    """The order as hashed: ``\\n`` line breaks, no trailing spaces, trimmed."""
    lines = order.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()


def commitment(order: str, salt: str) -> str:
    """SHA-256 hex of ``canonical_order(order) + "\\n" + salt`` (UTF-8)."""
    return hashlib.sha256((canonical_order(order) + "\n" + salt).encode("utf-8")).hexdigest()


def make_salt() -> str:
    """A fresh salt: 16 hex digits from :mod:`secrets` (ASCII, survives any board)."""
    import secrets  # here: only a player making a commitment needs it

    return secrets.token_hex(8)


def make_commit(
    order: str,
    salt: str | None = None,
    commit_marker: str = COMMIT_MARKER,
    reveal_marker: str = REVEAL_MARKER,
) -> tuple[str, str]:
    """``(commit_line, reveal_line)`` for ``pbf commit``: post the first now, the second later."""
    order = canonical_order(order)
    if not order:
        raise PbfError("コミットする行動が空です。 / the order is empty")
    if salt is None:
        salt = make_salt()
    if not salt or any(ch.isspace() for ch in salt):
        raise PbfError("ソルトは空白を含まない文字列にしてください。 / the salt must be one word")
    return f"{commit_marker}{commitment(order, salt)}", f"{reveal_marker}{order} {salt}"


def parse_reveal(text: str) -> tuple[str, str] | None:
    """The text after 【公開】 → ``(order, salt)``; ``None`` when there is no salt."""
    text = canonical_order(text)
    m = re.match(r"^(.*?)\s+(\S+)$", text, re.DOTALL)
    if not m or not m.group(1).strip():
        return None
    return canonical_order(m.group(1)), m.group(2)


# -- results of collecting ------------------------------------------------------------------------


@record
class SubmittedOrder:
    """A player's winning order and where it came from."""

    player: str
    text: str
    post: int  # the post number it came from
    line: int  # line of the post's body where ``text`` starts (1-based)
    column_offset: int  # characters before ``text`` on that line (the marker, spaces)
    posted_at: datetime | None = None
    superseded: list[int] = field(default_factory=list)  # earlier order posts in the window
    commit_post: int | None = None  # commit mode: the commit that counted
    # what finding the order passed over or read in another shape (an anchor, 【 行動 】, a marker
    # in mid-line), and what leaves nothing to read (an empty marker): in the post's own lines,
    # with the player and the post (pbf.markers.Found)
    notes: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def source(self) -> str:
        return f">>{self.post}"

    def locate(self, problem: Problem) -> Problem:
        """A problem relative to :attr:`text` → relative to the post's body (「>>12の3行目」)."""
        shifted = problem.shifted(self.line - 1, self.column_offset)
        return replace(shifted, player=shifted.player or self.player, source=self.source)

    def where(self, line: int | None = None) -> str:
        """``>>12の3行目`` for a line of :attr:`text` (or the first)."""
        return f">>{self.post}の{self.line + (line or 1) - 1}行目"


@record(frozen=True)
class LatePost:
    """An order (or commit / reveal) post after the deadline: ignored."""

    player: str
    post: int
    posted_at: datetime | None
    kind: Literal["order", "commit", "reveal"] = "order"

    def problem(self) -> Problem:
        when = self.posted_at.strftime("%Y/%m/%d %H:%M:%S") if self.posted_at else "時刻不明"
        what = {"order": "行動", "commit": "コミット", "reveal": "公開"}[self.kind]
        return Problem(f">>{self.post}の{what}は締切後（{when}）のため無効です（遅刻）。 / late", player=self.player)


@record(frozen=True)
class Impersonation:
    """A post under a registered player's name whose trip is wrong or missing: ignored."""

    post: int
    player: str
    trip: str | None  # what the post showed
    has_order: bool

    def problem(self) -> Problem:
        shown = f"◆{self.trip}" if self.trip else "トリップなし"
        return Problem(
            f">>{self.post}は名前が同じですがトリップが違うため（{shown}）無視しました（なりすましの疑い）。"
            " / wrong or missing trip: suspected impersonation",
            player=self.player,
        )


@record(frozen=True)
class CommitIssue:
    """Why a player's commit–reveal gave no order (or a post that was not understood)."""

    player: str
    reason: Literal["no_commit", "no_reveal", "mismatch", "bad_commit", "bad_reveal"]
    post: int | None = None

    _MESSAGES = {
        "no_commit": "締切までのコミットがないため、公開された行動は無効です。 / no commitment",
        "no_reveal": "コミットに対する公開がありません。 / no reveal",
        "mismatch": "公開された行動とソルトがコミットと一致しません。 / the reveal does not match the commitment",
        "bad_commit": "コミットは【コミット】の後にSHA-256の16進数64桁を書いてください。 / malformed commitment",
        "bad_reveal": "公開は「【公開】行動 ソルト」の形で書いてください（ソルトがありません）。 / no salt in the reveal",
    }

    @property
    def missing(self) -> bool:
        """Whether the issue left the player without an order (bad_* are only warnings)."""
        return self.reason in ("no_commit", "no_reveal", "mismatch")

    def problem(self) -> Problem:
        where = f">>{self.post}：" if self.post else ""
        return Problem(where + self._MESSAGES[self.reason], player=self.player)


@record
class Collected:
    """What :func:`collect_orders` found in the window."""

    players: list[str]  # registered names, normalised, in the given order
    orders: dict[str, SubmittedOrder]  # player → winning order (only players who have one)
    window_start: int  # first post number of the window
    window_end: int  # last post number of the thread (window_start - 1 if the window is empty)
    results_post: int | None = None  # the results post the window starts after
    results_turn: int | None = None  # its turn number
    late: list[LatePost] = field(default_factory=list)
    impersonations: list[Impersonation] = field(default_factory=list)
    commit_issues: list[CommitIssue] = field(default_factory=list)
    chat: list[int] = field(default_factory=list)  # posts in the window that are not orders
    warnings: list[Problem] = field(default_factory=list)  # why a player's posts gave no order
    committed: dict[str, int] = field(default_factory=dict)  # commit mode: player → commit post, no reveal yet
    player_posts: dict[str, list[int]] = field(default_factory=dict)  # every post by each player in the window

    @property
    def missing(self) -> list[str]:
        """Players without an accepted order (未提出), in registration order."""
        return [p for p in self.players if p not in self.orders]

    def notes(self, player: str | None = None, reveals_pending: bool = False) -> list[Problem]:
        """Every remark for the receipts (遅刻, なりすまし, commit–reveal, warnings), post order.
        ``reveals_pending``: before the reveals, a commitment without one is no remark."""
        items: list[tuple[int, Problem]] = []
        for late in self.late:
            items.append((late.post, late.problem()))
        for imp in self.impersonations:
            items.append((imp.post, imp.problem()))
        for issue in self.commit_issues:
            if not (reveals_pending and issue.reason == "no_reveal"):
                items.append((issue.post or 0, issue.problem()))
        for warning in self.warnings:
            items.append((_post_of(warning), warning))
        for order in self.orders.values():
            items.extend((order.post, note) for note in order.notes)
        items.sort(key=lambda item: item[0])
        return [p for _, p in items if player is None or p.player == player]

    def to_orders_file(self) -> str:
        """The accepted orders as an orders file (``【NAME】`` headers, ``# >>N`` comments)."""
        out: list[str] = []
        for player in self.players:
            order = self.orders.get(player)
            if order is None:
                out.append(f"# 【{player}】未提出")
                continue
            out.append(f"# {order.source}")
            out.append(f"【{player}】")
            out.extend(order.text.split("\n"))
        return "\n".join(out) + "\n"


# -- collecting -------------------------------------------------------------------------------------


def _post_of(problem: Problem) -> int:
    m = re.match(r">>(\d+)", problem.source or "")
    return int(m.group(1)) if m else 0


def _placed(found: Found, name: str, post: Post) -> dict[str, list[Problem]]:
    """A found order's notes and problems with the player and the post they are about."""
    return {
        "notes": [replace(n, player=name, source=post.anchor) for n in found.notes],
        "problems": [replace(p, player=name, source=post.anchor) for p in found.problems],
    }


def collect_orders(
    posts: list[Post],
    players: "dict[str, str | None]",
    marker: str = ORDER_MARKER,
    since: int | None = None,
    deadline: datetime | None = None,
    results_marker: str = RESULTS_PREFIX,
    orders: Literal["plain", "commit"] = "plain",
    gm: "tuple[str, str | None] | None" = None,
    commit_marker: str = COMMIT_MARKER,
    reveal_marker: str = REVEAL_MARKER,
    reveal_deadline: datetime | None = None,
    after: int | None = None,
    current_turn: int | None = None,
    epilogue: tuple[str, ...] = (),
) -> Collected:
    """The turn's orders from the thread's posts (see the module docstring for the rulings).

    ``epilogue``: after the battle's end, the words whose line is an order without the marker
    (the rider game's イベントファイナル; :func:`pbf.markers.read_post`)."""
    from .thread import normalize_name

    if orders not in ("plain", "commit"):
        raise ValueError(f"orders must be 'plain' or 'commit', not {orders!r}")
    registered: dict[str, str | None] = {}
    for name, trip in players.items():
        key = normalize_name(name)
        registered[key] = trip.lstrip("◆").strip() if trip else None

    last_number = posts[-1].number if posts else 0

    def is_results(post: Post) -> int | None:
        if gm is not None:
            gm_name, gm_trip = gm
            if normalize_name(post.name) != normalize_name(gm_name):
                return None
            if gm_trip and post.trip != gm_trip.lstrip("◆").strip():
                return None
        return results_turn(post, results_marker)

    results_post = None
    turn_of_results = None
    for post in posts:
        turn = is_results(post)
        if turn is None:
            continue
        if current_turn is None:
            results_post, turn_of_results = post.number, turn
        elif turn == current_turn:
            if turn_of_results != current_turn:  # the first part of this turn's results post
                results_post, turn_of_results = post.number, turn
        elif turn < current_turn and turn_of_results != current_turn:
            results_post, turn_of_results = post.number, turn
    if since is not None:
        if since < 1:
            raise PbfError(Problem(f"--since は1以上のレス番号です（{since}）。 / --since must be at least 1"))
        if since > last_number:
            raise PbfError(
                Problem(
                    f"--since {since} はスレッドの最後のレス（{last_number}）より後です。 / --since is past the end",
                    hint="レス番号とスレッドのファイルを確かめてください。",
                )
            )
        start = since
    else:
        start = results_post + 1 if results_post is not None else 1
        if after is not None:
            start = max(start, after + 1)

    window = [p for p in posts if p.number >= start]
    collected = Collected(
        players=list(registered),
        orders={},
        window_start=start,
        window_end=last_number if window else start - 1,
        results_post=results_post,
        results_turn=turn_of_results,
    )

    # who wrote each post
    authored: list[tuple[str, Post]] = []
    for post in window:
        if is_results(post) is not None:
            collected.chat.append(post.number)
            continue
        name = normalize_name(post.name)
        if name not in registered:
            collected.chat.append(post.number)
            continue
        want = registered[name]
        if want is not None and post.trip != want:
            has_order = any(
                _marker_text(post.body, m) is not None for m in (marker, commit_marker, reveal_marker)
            )
            collected.impersonations.append(Impersonation(post.number, name, post.trip, has_order))
            continue
        authored.append((name, post))

    for name, post in authored:
        collected.player_posts.setdefault(name, []).append(post.number)
    if orders == "plain":
        _collect_plain(collected, authored, marker, deadline, epilogue)
        markers = [marker]
    else:
        _collect_commit(collected, authored, commit_marker, reveal_marker, deadline, reveal_deadline)
        markers, epilogue = [commit_marker, reveal_marker], ()
    collected.orders = {p: collected.orders[p] for p in collected.players if p in collected.orders}
    _warn(collected, authored, markers, epilogue)
    return collected


def _warn(collected: Collected, authored: list[tuple[str, Post]], markers: list[str],
          epilogue: tuple[str, ...] = ()) -> None:
    """Why a registered player's posts in the window gave no order (docstring: Warnings)."""
    shown = "・".join(markers)
    answered = set(collected.orders) | set(collected.committed)
    answered |= {late.player for late in collected.late} | {issue.player for issue in collected.commit_issues}
    silent: dict[str, list[int]] = {}
    for name, post in authored:
        readings = [read_post(post.body, m, epilogue) for m in markers]
        if any(r.found is not None for r in readings):
            continue  # an order, a commitment or a reveal: read by the collectors
        unread = next((r.unread for r in readings if r.unread is not None), None)
        if unread is None:
            silent.setdefault(name, []).append(post.number)
            continue
        # a marker that was seen and not taken (used as a word in a sentence, nothing after it)
        collected.warnings.append(replace(unread, player=name, source=post.anchor))
        answered.add(name)
    for name, numbers in silent.items():
        if name in answered:
            continue
        anchors = "、".join(f">>{n}" for n in numbers)
        collected.warnings.append(
            Problem(
                f"書き込み（{anchors}）に{shown}がないため、雑談として扱いました。",
                player=name,
                source=f">>{numbers[0]}",
            )
        )
    if not authored and not collected.impersonations and collected.window_end >= collected.window_start:
        collected.warnings.append(
            Problem(
                "読み込んだ範囲に参加者の書き込みが一つもありません。スレッドのファイル、"
                "--since の番号、参加者の名前（とトリップ）を確かめてください。"
            )
        )


def _collect_plain(collected: Collected, authored: list[tuple[str, Post]], marker: str, deadline,
                   epilogue: tuple[str, ...] = ()) -> None:
    history: dict[str, list[int]] = {}
    for name, post in authored:
        found = _marker_text(post.body, marker, epilogue)
        if found is None:
            collected.chat.append(post.number)
            continue
        if is_late(post.posted_at, deadline):
            collected.late.append(LatePost(name, post.number, post.posted_at, "order"))
            continue
        earlier = history.setdefault(name, [])
        if name in collected.orders:
            earlier.append(collected.orders[name].post)
        collected.orders[name] = SubmittedOrder(
            player=name,
            text=found.text,
            post=post.number,
            line=found.line,
            column_offset=found.column_offset,
            posted_at=post.posted_at,
            superseded=list(earlier),
            **_placed(found, name, post),
        )
    collected.chat.sort()


def _collect_commit(
    collected: Collected,
    authored: list[tuple[str, Post]],
    commit_marker: str,
    reveal_marker: str,
    deadline,
    reveal_deadline,
) -> None:
    commits: dict[str, tuple[str, Post]] = {}  # player → (hex, post) of the commit that counts
    reveals: dict[str, list[tuple[Post, Found]]] = {}
    for name, post in authored:
        commit = _marker_text(post.body, commit_marker)
        reveal = _marker_text(post.body, reveal_marker)
        if commit is None and reveal is None:
            collected.chat.append(post.number)
            continue
        if commit is not None:
            if is_late(post.posted_at, deadline):
                collected.late.append(LatePost(name, post.number, post.posted_at, "commit"))
            else:
                digest = "".join(unicodedata.normalize("NFKC", commit.text).split()).lower()
                if re.fullmatch(r"[0-9a-f]{64}", digest):
                    commits[name] = (digest, post)
                else:
                    collected.commit_issues.append(CommitIssue(name, "bad_commit", post.number))
        if reveal is not None:
            if is_late(post.posted_at, reveal_deadline):
                collected.late.append(LatePost(name, post.number, post.posted_at, "reveal"))
            else:
                reveals.setdefault(name, []).append((post, reveal))

    for name in collected.players:
        commit = commits.get(name)
        player_reveals = reveals.get(name, [])
        if commit is None:
            if player_reveals:
                collected.commit_issues.append(CommitIssue(name, "no_commit", player_reveals[-1][0].number))
            continue
        digest, commit_post = commit
        if not player_reveals:
            collected.committed[name] = commit_post.number
            collected.commit_issues.append(CommitIssue(name, "no_reveal", commit_post.number))
            continue
        winner = None
        for post, found in player_reveals:
            parsed = parse_reveal(found.text)
            if parsed is None:
                collected.commit_issues.append(CommitIssue(name, "bad_reveal", post.number))
                continue
            order, salt = parsed
            if commitment(order, salt) == digest:
                winner = (post, order, found)
        if winner is None:
            last_reveal = player_reveals[-1][0]
            collected.commit_issues.append(CommitIssue(name, "mismatch", last_reveal.number))
            continue
        post, order, found = winner
        collected.orders[name] = SubmittedOrder(
            player=name,
            text=order,
            post=post.number,
            line=found.line,
            column_offset=found.column_offset,
            posted_at=post.posted_at,
            superseded=[p.number for p, _ in player_reveals if p.number != post.number],
            commit_post=commit_post.number,
            notes=_placed(found, name, post)["notes"],
        )
    collected.chat.sort()
