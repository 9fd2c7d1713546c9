"""Speed figures for pbf, printed (never asserted).

    python benchmarks/bench.py              # 1,000 turns of each game, median of 5 runs
    python benchmarks/bench.py --quick      # a tiny size: checks that the script runs

The script builds its own long campaigns in a temporary folder: for each game, N turns of random
legal orders drawn from a fixed seed (so every run plays the same battles), with a copy of the
campaign kept at turn 10. Then it measures, in the same run:

* whole-process CPU time (user + system) of ``pbf turn --dry-run``, ``pbf check``, ``pbf show``
  and ``pbf status`` against the import floor ``python -c "import lark, jinja2, ruamel.yaml"``,
  the commands and the floor alternating, the median of R runs each, at turn 10 and at turn N;
  and of ``pbf replay`` over the whole campaign;
* in-process: writing a turn (``commit_turn``, wall time: the disk's flushes count) over the
  first ten turns and the last ten; parsing the orders and resolving, with and without
  rendering the post, per second (the best of five rounds of a second's budget); the same with the
  private notices rendered too (``run_turn`` renders them when they are first read: ``commit_turn``
  and ``pbf turn`` do, a replay does not); and parsing and
  resolving with every order new to pbf (pbf keeps each order text it has read, so a replay or a
  bot trying plots reads a text once: this row shows what a text never seen costs).

The child processes run without PYTHONDONTWRITEBYTECODE, as an installed pbf does (pip compiles
the package), with a cache folder of their own that one run of each command fills first.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pbf import campaign as campaigns
from pbf.turn.zero import new_campaign
from pbf.turn.orders import read_orders, sources_from_file
from pbf.turn.run import run_turn
from pbf.dice import Dice
from pbf.systems import get_system
from pbf.systems.base import Player

FLOOR = "import lark, jinja2, ruamel.yaml"


@dataclass
class Game:
    key: str
    title: str
    system: str
    players: list[Player]
    options: dict[str, Any]
    orders: Callable[["Game", random.Random, campaigns.Campaign, str], str]
    duel: bool = True  # the in-process goals are for two players


# -- random legal orders ------------------------------------------------------------------------

def alterego_order(game: Game, rng: random.Random, c: campaigns.Campaign, name: str) -> str:
    hand = list(c.state["fighters"][name].get("hand") or [])
    size = rng.choice((0, 1, 1, 2, 2, 3, 4, 5))
    return "".join(rng.sample(hand, min(size, len(hand))))


def rider_order(game: Game, rng: random.Random, c: campaigns.Campaign, name: str) -> str:
    fighter = c.state["fighters"][name]
    cards = c.ctx.data.cards
    held = [cards[card]["name"] for card, count in sorted(fighter["deck"].items()) if count > 0 and card in cards]
    others = [n for n in c.ctx.players if n != name]
    parts = [rng.choice(("近寄る", "離れる", "留まる", "近へ", "中へ", "遠へ"))]
    if held and rng.random() < 0.4:
        parts.append(rng.choice(held))
    if "ガードベント" in held and rng.random() < 0.3:
        parts.append("受動: 攻撃ならガードベント")
    if not game.duel:
        parts.append("攻撃: " + ", ".join(rng.sample(others, 2)))
    return " / ".join(parts)


def legal_order(game: Game, rng: random.Random, c: campaigns.Campaign, name: str) -> str:
    """A random order the game accepts now; else the empty order."""
    text = game.orders(game, rng, c, name)
    try:
        c.system.parse_order(text, name, c.state, c.ctx)
    except Exception:
        return ""
    return text


def orders_text(game: Game, rng: random.Random, c: campaigns.Campaign) -> str:
    return "".join(f"[{name}] {legal_order(game, rng, c, name)}\n" for name in c.ctx.players)


def thread_dat(c: campaigns.Campaign, text: str) -> bytes:
    """A board thread (.dat) in which each player posts this turn's order."""
    lines = ["GM<>sage<>2026/11/29(日) 21:00:00.00 ID:GmGm0001<>次のターンです。<>ベンチマーク"]
    for i, line in enumerate(text.splitlines(), start=1):
        name, _, order = line[1:].partition("] ")
        lines.append(f"{name}<>sage<>2026/11/29(日) 21:{i:02d}:00.00 ID:Pl{i:06d}<>【行動】 <br> {order}<>")
    return ("\n".join(lines) + "\n").encode("cp932")


# -- building the long campaigns ----------------------------------------------------------------

@dataclass
class Built:
    game: Game
    path: Path  # at turn N
    at_10: Path  # a copy at turn 10
    next_orders: dict[Path, Path] = field(default_factory=dict)  # campaign -> next turn's orders file
    threads: dict[Path, Path] = field(default_factory=dict)
    commit_first: list[float] = field(default_factory=list)  # seconds, turns 1-10
    commit_last: list[float] = field(default_factory=list)  # the last ten turns


def build(game: Game, root: Path, turns: int) -> Built:
    rng = random.Random(f"pbf-bench-{game.key}")
    path = root / game.key
    c = new_campaign(path, game.system, game.players, seed=f"bench-{game.key}", options=game.options)
    built = Built(game, path, root / f"{game.key}-turn10")
    for turn in range(1, turns + 1):
        record = run_turn(c, orders_text(game, rng, c))
        start = time.perf_counter()
        campaigns.commit_turn(c, record)
        elapsed = time.perf_counter() - start
        if turn <= 10:
            built.commit_first.append(elapsed)
        if turn > turns - 10:
            built.commit_last.append(elapsed)
        if c.state.get("winner") is not None:
            raise SystemExit(f"{game.title}: the battle ended at turn {turn}; the benchmark needs {turns} turns")
        if turn == 10:
            shutil.copytree(path, built.at_10)
            _next_turn(built, built.at_10, game, rng)
    _next_turn(built, path, game, rng)
    return built


def _next_turn(built: Built, path: Path, game: Game, rng: random.Random) -> None:
    c = campaigns.load(path)
    text = orders_text(game, rng, c)
    orders = path.parent / f"{path.name}-next.txt"
    orders.write_text(text, "utf-8")
    thread = path.parent / f"{path.name}-thread.dat"
    thread.write_bytes(thread_dat(c, text))
    built.next_orders[path] = orders
    built.threads[path] = thread


# -- whole-process figures ------------------------------------------------------------------------

def pbf_command() -> list[str]:
    script = Path(sys.executable).parent / "pbf"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from pbf.cli import run; sys.exit(run())"]


def child_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PBF_NO_CACHE")}
    env["PBF_CACHE_DIR"] = str(cache)
    return env


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr.decode('utf-8', 'replace')}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def side_by_side(commands: dict[str, list[str]], env: dict[str, str], runs: int, warm: bool) -> dict[str, float]:
    """Median CPU seconds of each command, the commands alternating run after run."""
    for command in commands.values() if warm else ():  # bytecode, pbf's cache
        cpu_seconds(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(cpu_seconds(command, env))
    return {name: statistics.median(values) for name, values in times.items()}


def process_figures(built: Built, env: dict[str, str], runs: int, warm: bool) -> dict[str, float]:
    pbf = pbf_command()
    commands: dict[str, list[str]] = {"floor": [sys.executable, "-c", FLOOR]}
    for label, path in (("10", built.at_10), ("N", built.path)):
        c = campaigns.load(path)
        player = next(iter(c.ctx.players))
        order = legal_order(built.game, random.Random(0), c, player) or "留まる" * (c.system.name == "rider")
        commands[f"turn@{label}"] = pbf + ["turn", str(path), "--orders", str(built.next_orders[path]), "--dry-run"]
        commands[f"check@{label}"] = pbf + ["check", str(path), "--player", player, order]
        commands[f"show@{label}"] = pbf + ["show", str(path)]
        commands[f"status@{label}"] = pbf + ["status", str(path), "--thread", str(built.threads[path])]
    figures = side_by_side(commands, env, runs, warm)
    figures["replay"] = cpu_seconds(pbf + ["replay", str(built.path)], env)
    return figures


# -- in-process figures ---------------------------------------------------------------------------

def samples(c: campaigns.Campaign, count: int) -> list[tuple[dict[str, Any], str, list[int]]]:
    """(state before, orders text, draws) of the campaign's first turns, from its archive."""
    out = []
    for turn in range(1, min(count, c.turn) + 1):
        before = campaigns.archived_yaml(c, turn - 1, "state.yaml")
        draws = campaigns.archived_yaml(c, turn, "dice.yaml")["draws"]
        out.append((before, campaigns.archived(c, turn, "orders.txt"), draws))
    return out


def per_second(work: Callable[[], int], budget: float, rounds: int = 5) -> float:
    """Turns per second: the best of ``rounds`` rounds sharing the budget (other work on the
    machine can only slow a round down, so the fastest is the closest to pbf's own cost)."""
    best = 0.0
    for _ in range(rounds):
        done, start = 0, time.perf_counter()
        while True:
            done += work()
            elapsed = time.perf_counter() - start
            if elapsed >= budget / rounds:
                break
        best = max(best, done / elapsed)
    return best


def inprocess_figures(built: Built, budget: float) -> dict[str, float]:
    c = campaigns.load(built.path)
    cases = samples(c, 200)
    system, ctx = c.system, c.ctx

    def parse_resolve() -> int:
        for state, text, draws in cases:
            read = read_orders(c, sources_from_file(c, text), state)
            system.resolve(state, read.orders, Dice.replay(draws), ctx)
        return len(cases)

    def parse_resolve_render() -> int:
        for state, text, draws in cases:
            run_turn(c, text, draws=draws, state=state)
        return len(cases)

    def with_notices() -> int:
        for state, text, draws in cases:
            dict(run_turn(c, text, draws=draws, state=state).notices)
        return len(cases)

    def parse_resolve_cold() -> int:
        for state, text, draws in cases:
            forget_orders()
            read = read_orders(c, sources_from_file(c, text), state)
            system.resolve(state, read.orders, Dice.replay(draws), ctx)
        return len(cases)

    parse_resolve(), parse_resolve_render()  # warm: the grammar, the templates
    return {"parse_resolve": per_second(parse_resolve, budget), "render": per_second(parse_resolve_render, budget),
            "parse_resolve_cold": per_second(parse_resolve_cold, budget), "notices": per_second(with_notices, budget)}


ODDS_ORDERS = {"rider": "近寄る / ソードベント / 隙狙い 1 / 超回避 1",
               "royale": "近寄る / ソードベント / 攻撃: 北岡, 刃 / 超回避 1"}


def odds_figures(built: Built, runs: int) -> dict[str, float]:
    """``pbf odds`` in-process (median of ``runs`` calls after a first one, wall time), on a fresh
    campaign of the game's fighters, so that every run measures the same question: the rider game
    at 中 with both riders' ソードベント vented, an order that moves, attacks with 隙狙い and answers
    with 超回避 (the tables included); Alter EGO, the first three cards of 美鈴's first hand against
    every plot of the opponent's 7-card hand read as open, and against a private hand (3,906 plots)
    with the best plots of the player's own 7 cards; and with 5-card hands (open), the best plots
    of the player's 5 cards. The opponent's plots' readings are kept
    between calls (as in a long-running bot); the first call reads them."""
    from pbf import odds

    game = built.game
    path = built.path.parent / f"{game.key}-odds"
    options = {**game.options, "hands": "open"} if game.system == "alterego" else game.options
    c = new_campaign(path, game.system, game.players, seed=f"bench-odds-{game.key}", options=options)
    name = game.players[0].name

    def timed(work: Callable[[], Any]) -> float:
        work()  # warm: the grammar, the readings
        times = []
        for _ in range(max(1, runs)):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    if game.system == "rider":
        c.state["distance"] = "中"
        for fighter in c.state["fighters"].values():
            fighter["vent"] = "sword_vent"
        text = ODDS_ORDERS[game.key]
        return {"odds": timed(lambda: odds.compute(c, name, text))}
    text = "".join(c.state["fighters"][name]["hand"][:3])
    from dataclasses import replace

    private = replace(c, ctx=replace(c.ctx, options={**c.ctx.options, "hands": "private"}))
    five = new_campaign(built.path.parent / f"{game.key}-odds-5", game.system, game.players,
                            seed=f"bench-odds-{game.key}", options={**options, "hand_size": 5})
    five_text = "".join(five.state["fighters"][name]["hand"][:3])
    return {"odds": timed(lambda: odds.compute(c, name, text, best=False)),
            "odds_five_best": timed(lambda: odds.compute(five, name, five_text, best=True)),
            "odds_private_best": timed(lambda: odds.compute(private, name, text, best=True))}


def forget_orders() -> None:
    """Forget the orders pbf has read (Alter EGO keeps each plot text it read and each plot's
    reading per character; the rider game, each order text's clauses): every order is then
    parsed by lark as if it were new."""
    from pbf.systems.alterego import plot, reading
    from pbf.systems.rider import orders

    plot.forget_plots()
    reading.forget_readings()
    orders.forget_orders()


# -- the table ------------------------------------------------------------------------------------

def games() -> list[Game]:
    return [
        Game("alterego", "Alter EGO", "alterego", [Player("美鈴", "meiling"), Player("楓", "kaede")],
             {"hp": 999}, alterego_order),
        Game("rider", "rider duel", "rider", [Player("城戸", "ryuki"), Player("蓮", "knight")],
             {"hp": 1_000_000}, rider_order),
        Game("royale", "rider royale (4)", "rider",
             [Player("城戸", "ryuki", team="東"), Player("蓮", "knight", team="東"),
              Player("北岡", "zolda", team="西"), Player("刃", "jinshu", team="西")],
             {"hp": 1_000_000}, rider_order, duel=False),
    ]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def table(results: list[tuple[Built, dict[str, float], dict[str, float]]], turns: int) -> list[str]:
    head = "| measure | " + " | ".join(b.game.title for b, _, _ in results) + " | goal |"
    rows = [head, "|" + "---|" * (len(results) + 2)]

    def row(measure: str, goal: str, cell: Callable[[Built, dict[str, float], dict[str, float]], str]) -> None:
        rows.append(f"| {measure} | " + " | ".join(cell(*r) for r in results) + f" | {goal} |")

    def ratio(command: str) -> Callable[[Built, dict[str, float], dict[str, float]], str]:
        return lambda b, p, i: f"{p[command] / p['floor']:.2f}× ({ms(p[command])})"

    row(f"`pbf turn C --orders F --dry-run` ÷ floor (turn {turns})", "≤ 1.3×", ratio("turn@N"))
    for name in ("check", "show", "status"):
        row(f"`pbf {name}` ÷ floor (turn {turns})", "≤ 1.2×", ratio(f"{name}@N"))
    row("import floor `python -c \"import lark, jinja2, ruamel.yaml\"`", "", lambda b, p, i: ms(p["floor"]))
    row("`commit_turn`, turns 1–10 (median, wall)", "≤ 10 ms", lambda b, p, i: ms(statistics.median(b.commit_first)))
    row(f"`commit_turn`, turns {turns - 9}–{turns} (median, wall)", "≤ 10 ms",
        lambda b, p, i: ms(statistics.median(b.commit_last)))
    row(f"`pbf replay` per turn ({turns} turns, whole process)", "≤ 2 ms",
        lambda b, p, i: f"{p['replay'] / turns * 1000:.2f} ms ({p['replay']:.2f} s)")
    row("parse + resolve, in-process", "≥ 20,000 / ≥ 5,000 turns/s",
        lambda b, p, i: f"{i['parse_resolve']:,.0f} turns/s")
    row("parse + resolve + render, in-process", "≥ 5,000 / ≥ 2,000 turns/s",
        lambda b, p, i: f"{i['render']:,.0f} turns/s")
    row("parse + resolve + render, and the private notices rendered (as `pbf turn` does)", "",
        lambda b, p, i: f"{i['notices']:,.0f} turns/s")
    row("parse + resolve, in-process, every order text new to pbf", "",
        lambda b, p, i: f"{i['parse_resolve_cold']:,.0f} turns/s")
    row("`odds` in-process: Alter EGO plot against every plot of a 7-card hand / a rider order", "≤ 200 ms / ≤ 20 ms",
        lambda b, p, i: ms(i["odds"]))
    row("`odds` in-process: Alter EGO 5-card hands (open), with the best plots of the player's hand", "< 1 s",
        lambda b, p, i: ms(i["odds_five_best"]) if "odds_five_best" in i else "–")
    row("`odds` in-process: Alter EGO against a private 7-card hand (3,906 plots), with the best plots", "",
        lambda b, p, i: ms(i["odds_private_best"]) if "odds_private_best" in i else "–")
    row(f"turn {turns} ÷ turn 10: `turn` / `show` / `status`", "≤ 1.2",
        lambda b, p, i: " / ".join(f"{p[f'{n}@N'] / p[f'{n}@10']:.2f}" for n in ("turn", "show", "status")))
    return rows


# -- the NPC and pbf balance (docs/npc.md) ---------------------------------------------------------

NPC_GAMES = (("Alter EGO", "alterego", ("meiling", "kaede")), ("rider duel", "rider", ("ryuki", "knight")))


def npc_figures(root: Path, env: dict[str, str], runs: int, quick: bool) -> list[str]:
    """The NPC's decision per turn at each level (in-process, the median over the first turns of a
    seeded battle), a whole `pbf turn --dry-run` with an NPC at each level against the same
    campaign without one (CPU time), and pbf balance's battles per second."""
    from pbf import balance
    from pbf.npc import decide

    pbf = pbf_command()
    levels = ("random", "normal", "hard")
    cols: list[dict[str, str]] = []
    for title, system_name, (a, b) in NPC_GAMES:
        system = get_system(system_name)
        data = system.load_data(None)
        ctx = balance.context(system, data, a, b)
        state = system.new_state(ctx, Dice.seeded("bench-npc", 0, ""))
        states = []
        for turn in range(2 if quick else 6):  # the states of a battle's first turns (normal against random)
            states.append(state)
            orders = {"A": system.parse_order(decide(system, ctx, state, "bench-npc", "A", "normal").text, "A", state, ctx),
                      "B": system.parse_order(decide(system, ctx, state, "bench-npc", "B", "random").text, "B", state, ctx)}
            state = system.resolve(state, orders, Dice.seeded("bench-npc", turn + 1, str(turn)), ctx)[0]
            if state.get("winner") is not None:
                break
        col: dict[str, str] = {}
        for level in levels:
            took = []
            for st in states:  # CPU time of this process: the machine may be shared
                t = time.process_time()
                decide(system, ctx, st, "bench-npc", "A", level)
                took.append(time.process_time() - t)
            col[f"decide {level}"] = ms(statistics.median(took))
        commands = {}
        for level in (None, *levels):
            path = root / "npc" / f"{system_name}-{level or 'none'}"
            players = [Player("甲", a), Player("乙", b, npc=level)]
            new_campaign(path, system_name, players, seed="bench-npc")
            orders = path / "orders.txt"
            orders.write_text("", "utf-8")
            commands[level or "none"] = pbf + ["turn", str(path), "--orders", str(orders), "--dry-run"]
        # pbf's NPC cache emptied before every run: the turn's own decision and the next turn's
        # (for the post's commitment) are both searched; in play the first is usually cached
        npc_cache = Path(env["PBF_CACHE_DIR"])
        commands = {k: ["sh", "-c", f'rm -rf "{npc_cache}"/*/npc; exec "$@"', "sh", *v] for k, v in commands.items()}
        cpu = side_by_side(commands, env, runs, warm=not quick)
        for level in levels:
            col[f"turn {level}"] = f"{cpu[level] * 1000:.0f} ms (+{(cpu[level] - cpu['none']) * 1000:.0f} ms)"
        for level in ("random", "normal"):
            count, t = 0, time.process_time()
            while count < (1 if quick else 3) or time.process_time() - t < (0.1 if quick else 3.0):
                balance.battle(system, ctx, f"bench:{count}", {"A": level, "B": level})
                count += 1
            col[f"balance {level}"] = f"{count / (time.process_time() - t):.2f} battles/s (CPU)"
        cols.append(col)
    head = "| NPC and balance | " + " | ".join(t for t, _, _ in NPC_GAMES) + " | rider royale (4) | goal |"
    rows = [head, "|" + "---|" * (len(NPC_GAMES) + 3)]
    goals = {"decide normal": "", "decide hard": "", "turn normal": "≤ 200 ms", "turn hard": "≤ 1 s"}
    labels = {f"decide {lv}": f"NPC decision per turn, `{lv}`, in-process (median CPU)" for lv in levels}
    labels.update({f"turn {lv}": f"`pbf turn --dry-run` with an NPC `{lv}`, its cache emptied: two searches (CPU; + over no NPC)"
                   for lv in levels})
    labels.update({f"balance {lv}": f"`pbf balance` battles per second, `{lv}` against `{lv}`" for lv in ("random", "normal")})
    for key, label in labels.items():
        rows.append(f"| {label} | " + " | ".join(c[key] for c in cols) + f" | — | {goals.get(key, '')} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="pbf's speed figures (printed, never asserted)")
    parser.add_argument("--turns", type=int, default=1000, help="turns of each game's long campaign (default 1000)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command, alternating (default 5)")
    parser.add_argument("--quick", action="store_true", help="a tiny size: 12 turns, 1 run, no warm-up run")
    parser.add_argument("--npc-only", action="store_true", help="only the table of the NPC and pbf balance")
    args = parser.parse_args(argv)
    if args.npc_only:
        with tempfile.TemporaryDirectory(prefix="pbf-bench-") as tmp:
            rows = npc_figures(Path(tmp), child_env(Path(tmp) / "cache"), 1 if args.quick else args.runs, args.quick)
        print("\n".join(rows))
        return 0
    turns, runs, budget = (12, 1, 0.05) if args.quick else (max(args.turns, 11), args.runs, 1.0)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbf-bench-") as tmp:
        root = Path(tmp)
        env = child_env(root / "cache")
        results = []
        for game in games():
            built = build(game, root / "campaigns", turns)
            print(f"{game.title}: {turns} turns built", file=sys.stderr)
            figures = process_figures(built, env, runs, warm=not args.quick)
            results.append((built, figures, {**inprocess_figures(built, budget), **odds_figures(built, runs)}))
        npc_rows = npc_figures(root, env, runs, args.quick)
    cpu = os.cpu_count()
    print(f"pbf benchmarks: Python {platform.python_version()}, {platform.system()} {platform.machine()}, "
          f"{cpu} CPUs; {turns} turns of each game; whole-process CPU time, median of {runs} runs")
    print()
    print("\n".join(table(results, turns)))
    print()
    print("\n".join(npc_rows))
    print()
    print(f"(the two in-process goals are for the duels; {time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
