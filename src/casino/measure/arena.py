"""The arena: bots play each other on mirrored deals, and the results are measured.

Luck is most of a card game, so the arena plays every deal twice: a *mirrored
pair* is two games of ``Match(rules, seed=s, first_dealer=d)`` with the bots'
seats swapped. ``Match`` draws every round's deck from its seed in turn, and
nothing else draws from that generator, so both games see the same deck in
every round they both reach; what one bot was dealt in the first game, the
other is dealt in the second. The per-round deck digests in each game record
let anyone check this from the result file.

Fairness to the bots:

* a bot gets ``pos.observation(seat)`` and nothing more, except a bot whose
  class says ``sees_all = True`` (the ``oracle`` twins, which measure what
  perfect information is worth): it gets ``choose_full(position, limit)``;
* each seat gets its own bot instance (so partners, or two seats of the same
  bot, share no memory), seeded from the game seed, the mirror and the seat:
  a run reproduces exactly whatever ``--jobs`` is;
* a move is timed with ``time.perf_counter`` around the bot's call; forced
  moves (one legal move, which :meth:`Bot.choose` returns without thinking)
  are not timed, since they would only flatter the median.

Seating: side A takes the even seats and B the odd ones in the first game of a
pair, the other way round in the second. With two players that is a plain
swap; with four in partnerships the sides are the partnerships. With three, or
four each for themselves, each bot plays alternate seats (A B A / A B A B) and
the swap gives each side the other's seats; that is playable and
reproducible, but the sides then differ in number of seats within a game, so
only the two-player and partnership numbers are meant as strength measures.

What is measured per game: the winner's side (``None`` if the round cap was
hit: counted half), the final totals, the number of rounds, each round's points
by side and its margin (A minus B, turned for penalty scoring so that positive
always favours A), and the think time of every decision. Summaries are in
:mod:`casino.measure.stats`: Wilson intervals on games won, a cluster interval on the
margin per round (the mirrored pair is the independent unit), Bradley–Terry
Elo with bootstrap intervals over mirrored pairs.

Long runs: a :class:`Journal` keeps every finished mirrored pair in a file as it
is played, so a run that is cut short resumes where it stopped, and a run can
grow (the same command with more games plays only the new pairs, since
:func:`game_seeds` of a longer run starts with the same deals).
:func:`merge_results` adds up the result files of separate runs.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import itertools
import json
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from casino import __version__
from casino.bots import Bot, Limit, check_name, level_of, make_bot
from casino.engine.match import Match
from casino.engine.rules import Rules, rules_from_json
from casino.engine.scheme import scheme
from casino.measure.stats import (
    Estimate,
    Ratings,
    bootstrap_elo,
    percentile,
    ratio_interval,
    wilson,
)

#: A game that reaches this many rounds without a winner stops, undecided.
MAX_ROUNDS = 50
#: Virtual wins added each way to every pairing for the ratings: keeps them finite
#: when a bot won or lost every game (no maximum-likelihood estimate exists then);
#: against hundreds of real games it moves a rating by a few points at most.
RATING_PRIOR = 0.5
#: The bot that rates 1000 when it takes part.
DEFAULT_ANCHOR = "greedy"
FORMAT = "casino-arena/1"
#: The format of a :class:`Journal`'s lines.
JOURNAL_FORMAT = "casino-arena-pair/1"

Side = Literal["A", "B"]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, the same in every process and Python run
    (``hash()`` of a string is salted per process; SHA-256 is not)."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seeds(seed: int, count: int) -> list[int]:
    """``count`` deal seeds from one run seed; a longer run starts with the same deals."""
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(count)]


def deck_digest(deck: Sequence[int]) -> str:
    """A short fingerprint of a round's deck (to check mirrored deals from the JSON)."""
    return hashlib.sha256(bytes(deck)).hexdigest()[:12]


def limit_json(limit: Limit) -> dict[str, float | int | None]:
    """A bot's limit as the result file gives it (a limit left open is null)."""
    return {"seconds": limit.seconds, "iterations": limit.iterations}


# ----------------------------------------------------------------------
# One game


@dataclass
class GameRecord:
    """One game of a mirrored pair, as seen from the pairing's sides A and B."""

    seed: int
    #: 0: A sits at the even seats; 1: A sits at the odd seats.
    mirror: int
    first_dealer: int
    #: The side at each seat.
    seats: list[Side]
    #: The side that won, or None when the round cap stopped the game.
    winner: Side | None
    #: Final game totals by seat.
    scores: list[int]
    rounds: int
    #: Per round: [points of A, points of B].
    points: list[list[int]]
    #: Per round: A's points minus B's, turned for penalty scoring (positive favours A).
    margins: list[int]
    #: Per round: a digest of the deck dealt.
    decks: list[str]
    moves: int
    #: Think time in seconds of every decision, by side.
    think: dict[str, list[float]] = field(default_factory=dict)

    def score(self, side: Side = "A") -> float:
        """1 for a win of ``side``, 0 for a loss, ½ for an undecided game."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == side else 0.0

    @staticmethod
    def from_json(obj: dict[str, Any]) -> GameRecord:
        """A game back from :meth:`to_json` (think times only if they were kept whole)."""
        think = {s: [float(t) for t in ts] for s, ts in obj.get("think", {}).items()
                 if isinstance(ts, list)}
        return GameRecord(
            seed=obj["seed"], mirror=obj["mirror"], first_dealer=obj["first_dealer"],
            seats=list(obj["seats"]), winner=obj["winner"], scores=list(obj["scores"]),
            rounds=obj["rounds"], points=[list(p) for p in obj["points"]],
            margins=list(obj["margins"]), decks=list(obj["decks"]), moves=obj["moves"],
            think=think)

    def to_json(self, times: bool = True) -> dict[str, Any]:
        """The game as the result file keeps it, enough to replay it (decks and moves); with
        ``times`` every think time, else only their count, total and longest (a long run's
        file stays small)."""
        out: dict[str, Any] = {
            "seed": self.seed, "mirror": self.mirror, "first_dealer": self.first_dealer,
            "seats": self.seats, "winner": self.winner, "scores": self.scores,
            "rounds": self.rounds, "points": self.points, "margins": self.margins,
            "decks": self.decks, "moves": self.moves,
        }
        if times:
            out["think"] = {s: [round(t, 6) for t in ts] for s, ts in self.think.items()}
        else:
            out["think"] = {s: {"decisions": len(ts), "total": round(math.fsum(ts), 6),
                                "max": round(max(ts, default=0.0), 6)}
                            for s, ts in self.think.items()}
        return out


def _seat_sides(players: int, mirror: int) -> list[Side]:
    return ["A" if (seat + mirror) % 2 == 0 else "B" for seat in range(players)]


def play_game(names: tuple[str, str], rules: Rules, seed: int, mirror: int,
              limits: tuple[Limit, Limit], *, max_rounds: int = MAX_ROUNDS) -> GameRecord:
    """Play one game of bot ``names[0]`` (side A) against ``names[1]`` (side B)."""
    sides = _seat_sides(rules.players, mirror)
    first_dealer = seed % rules.players
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    bots: list[Bot] = [make_bot(names[0] if s == "A" else names[1],
                                derive_seed("bot", seed, mirror, seat))
                       for seat, s in enumerate(sides)]
    limit_of = {"A": limits[0], "B": limits[1]}
    think: dict[str, list[float]] = {"A": [], "B": []}
    sign = -1 if scheme(rules).penalty else 1
    points: list[list[int]] = []
    margins: list[int] = []
    decks: list[str] = []
    moves = 0
    while True:
        decks.append(deck_digest(match.current.deck))
        while match.position.result is None:
            pos = match.position
            seat = pos.to_move
            side = sides[seat]
            bot = bots[seat]
            limit = limit_of[side]
            # A lone candidate is played without thinking (Bot.decide); its time is not
            # think time. Candidates, not legal_moves(): bounded on a crowded table.
            forced = len(pos.candidate_moves().moves) == 1
            if getattr(bot, "sees_all", False):
                chooser: Callable[[Any, Limit], Any] = bot.choose_full  # type: ignore[attr-defined]
                start = time.perf_counter()
                move = chooser(pos, limit)
            else:
                obs = pos.observation(seat)
                start = time.perf_counter()
                move = bot.choose(obs, limit)
            elapsed = time.perf_counter() - start
            if not forced:
                think[side].append(elapsed)
            match.play(move)
            moves += 1
        result = match.position.result
        assert result is not None
        by_side = {"A": 0, "B": 0}
        for item in result.items:
            by_side[sides[item.seat]] += item.points
        points.append([by_side["A"], by_side["B"]])
        margins.append(sign * (by_side["A"] - by_side["B"]))
        if match.is_over or len(points) >= max_rounds:
            break
        match.next_round()
    winner = match.winner
    return GameRecord(
        seed=seed, mirror=mirror, first_dealer=first_dealer, seats=sides,
        winner=sides[winner] if winner is not None else None,
        scores=list(match.scores), rounds=len(points), points=points, margins=margins,
        decks=decks, moves=moves, think=think)


@dataclass(frozen=True)
class _Task:
    """One mirrored pair: the unit of work sent to a worker process."""

    pairing: int
    index: int
    names: tuple[str, str]
    rules: Rules
    seed: int
    limits: tuple[Limit, Limit]
    max_rounds: int


def _play_pair(task: _Task) -> tuple[int, int, GameRecord, GameRecord]:
    games = []
    for mirror in (0, 1):
        try:
            games.append(play_game(task.names, task.rules, task.seed, mirror, task.limits,
                                   max_rounds=task.max_rounds))
        except Exception as exc:
            raise RuntimeError(f"{task.names[0]} v {task.names[1]}, seed {task.seed}, "
                               f"mirror {mirror}: {type(exc).__name__}: {exc}") from exc
    return task.pairing, task.index, games[0], games[1]


# ----------------------------------------------------------------------
# Summaries


@dataclass(frozen=True)
class ThinkStats:
    """Think time per decision, in seconds."""

    decisions: int
    median: float
    p95: float
    max: float
    mean: float

    @staticmethod
    def of(times: Sequence[float]) -> ThinkStats:
        """The statistics of ``times`` (zeros for none)."""
        if not times:
            return ThinkStats(0, 0.0, 0.0, 0.0, 0.0)
        return ThinkStats(len(times), percentile(times, 50), percentile(times, 95),
                          max(times), math.fsum(times) / len(times))

    def to_json(self) -> dict[str, float | int]:
        """The statistics as the result file gives them."""
        return {"decisions": self.decisions, "median": self.median, "p95": self.p95,
                "max": self.max, "mean": self.mean}


@dataclass
class PairingResult:
    """All games of bot ``a`` (side A) against bot ``b`` (side B), in seed order."""

    a: str
    b: str
    limit_a: Limit
    limit_b: Limit
    games: list[GameRecord]

    @property
    def pairs(self) -> list[tuple[GameRecord, GameRecord]]:
        """The games two by two, each game with its mirror (the same deal, the bots' seats
        swapped): the unit the intervals are clustered by."""
        return list(zip(self.games[0::2], self.games[1::2], strict=True))

    @property
    def wins_a(self) -> int:
        """The games side A won."""
        return sum(g.winner == "A" for g in self.games)

    @property
    def wins_b(self) -> int:
        """The games side B won."""
        return sum(g.winner == "B" for g in self.games)

    @property
    def undecided(self) -> int:
        """The games left without a winner (stopped at the round limit)."""
        return sum(g.winner is None for g in self.games)

    @property
    def points_a(self) -> float:
        """Games won by A, an undecided game counting half."""
        return math.fsum(g.score("A") for g in self.games)

    @property
    def rounds(self) -> int:
        """The rounds played in all the games."""
        return sum(g.rounds for g in self.games)

    def score_a(self) -> Estimate:
        """A's share of the games (undecided half) with its 95% Wilson interval."""
        return wilson(self.points_a, len(self.games))

    def margin(self) -> Estimate | None:
        """A's mean points margin per round with a 95% interval clustered by mirrored pair."""
        pairs = self.pairs
        if not pairs:
            return None
        return ratio_interval([sum(g0.margins) + sum(g1.margins) for g0, g1 in pairs],
                              [g0.rounds + g1.rounds for g0, g1 in pairs])

    def think(self, side: Side) -> ThinkStats:
        """The think times of ``side``'s decisions over all the games."""
        return ThinkStats.of([t for g in self.games for t in g.think.get(side, [])])

    def summary(self) -> dict[str, Any]:
        """The pairing's numbers as the result file and the report give them: games, wins,
        A's score and margin with their intervals, rounds, think times."""
        margin = self.margin()
        return {
            "games": len(self.games),
            "mirrored_pairs": len(self.games) // 2,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "undecided": self.undecided,
            "score_a": self.score_a().to_json(),
            "margin_per_round": margin.to_json() if margin else None,
            "rounds": self.rounds,
            "think_a": self.think("A").to_json(),
            "think_b": self.think("B").to_json(),
        }


@dataclass
class ArenaResult:
    """A run: its players (labels), pairings, ratings and think times."""

    players: list[str]
    rules: Rules
    seeds: list[int]
    pairings: list[PairingResult]
    ratings: Ratings | None
    max_rounds: int = MAX_ROUNDS
    settings: dict[str, Any] = field(default_factory=dict)

    def think(self) -> dict[str, ThinkStats]:
        """Think time per decision for each player over all its games."""
        times: dict[str, list[float]] = {p: [] for p in self.players}
        for pr in self.pairings:
            la, lb = self.labels(pr)
            for g in pr.games:
                times[la].extend(g.think.get("A", []))
                times[lb].extend(g.think.get("B", []))
        return {p: ThinkStats.of(ts) for p, ts in times.items()}

    def labels(self, pr: PairingResult) -> tuple[str, str]:
        """The player labels of a pairing's sides (a bot playing itself gets two)."""
        if pr.a == pr.b:
            return f"{pr.a} (A)", f"{pr.b} (B)"
        return pr.a, pr.b

    def to_json(self, *, command: Sequence[str] | None = None,
                times: bool = True) -> dict[str, Any]:
        """The whole run as the result file keeps it (``casino-arena`` format): the command,
        every pairing with its games and summary, and the ratings with how they were made."""
        ratings = None
        if self.ratings is not None:
            r = self.ratings
            ratings = {
                "anchor": self.players[r.anchor], "anchor_value": 1000.0,
                "bootstrap_samples": r.samples, "prior": RATING_PRIOR,
                "method": "Bradley–Terry by MM (Hunter 2004), Elo = 400·log10; percentile "
                          "bootstrap over mirrored pairs, per pairing",
                "players": {p: {"elo": r.elo[i], "low": r.low[i], "high": r.high[i]}
                            for i, p in enumerate(self.players)},
            }
        return {
            "format": FORMAT,
            "command": list(command) if command is not None else list(sys.argv),
            "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "casino": __version__,
            "python": platform.python_version(),
            "machine": {"platform": platform.platform(), "processor": platform.processor(),
                        "machine": platform.machine(), "cpus": os.cpu_count()},
            "rules": self.rules.to_json(),
            "max_rounds": self.max_rounds,
            "settings": self.settings,
            "players": self.players,
            "seeds": self.seeds,
            "ratings": ratings,
            "think": {p: s.to_json() for p, s in self.think().items()},
            "margin_note": "round points of A minus B, sign turned for penalty scoring: "
                           "positive favours A; interval clustered by mirrored pair",
            "think_note": "seconds per decision (forced moves not timed)"
                          + ("" if times else "; per-game times summarized"),
            "pairings": [{
                "a": pr.a, "b": pr.b,
                "limit_a": limit_json(pr.limit_a), "limit_b": limit_json(pr.limit_b),
                "summary": pr.summary(),
                "games": [g.to_json(times) for g in pr.games],
            } for pr in self.pairings],
        }

    def write_json(self, path: Path | str, *, command: Sequence[str] | None = None,
                   times: bool = True) -> None:
        """Write :meth:`to_json` to ``path``, making its folders (``casino arena merge``
        reads such files back)."""
        path = Path(path)
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(command=command, times=times), ensure_ascii=False)
        path.write_text(text + "\n", encoding="utf-8")

    def plot(self, path: Path | str, title: str | None = None) -> None:
        """Draw the ratings with their intervals to an image (``--plot``; needs matplotlib,
        the ``arena`` extra)."""
        plot_ratings(self, path, title)


# ----------------------------------------------------------------------
# Running


Schedule = Literal["all", "neighbours", "given"]


PairDone = tuple[int, int, GameRecord, GameRecord]


def _execute(tasks: list[_Task], jobs: int, progress: bool,
             on_pair: Callable[[PairDone], None] | None = None) -> list[PairDone]:
    """Run the tasks (in this process when ``jobs == 1``), with a progress bar;
    ``on_pair`` is called in this process with each pair as it finishes."""
    out: list[PairDone] = []
    bar = None
    if progress:
        from casino.measure.progress import progress_bar

        bar = progress_bar("mirrored pairs", transient=False)
    task_id = bar.add_task("arena", total=len(tasks)) if bar else None

    def advance() -> None:
        if on_pair is not None:
            on_pair(out[-1])
        if bar and task_id is not None:
            bar.advance(task_id)

    try:
        if jobs <= 1:
            if bar:
                bar.start()
            for t in tasks:
                out.append(_play_pair(t))
                advance()
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending: set[Future[tuple[int, int, GameRecord, GameRecord]]] = {
                    pool.submit(_play_pair, t) for t in tasks}
                # The bar's refresh thread starts only once the workers exist: forking
                # a process while another thread runs is asking for a held lock.
                if bar:
                    bar.start()
                # Each pair is kept as it finishes (not when all have: a journal must
                # hold what an interrupted run played).
                for fut in as_completed(pending):
                    exc = fut.exception()
                    if exc is not None:
                        for other in pending:
                            other.cancel()
                        raise exc
                    out.append(fut.result())
                    advance()
    finally:
        if bar:
            bar.stop()
    out.sort(key=lambda r: (r[0], r[1]))
    return out


def _check_names(names: Sequence[str]) -> None:
    for n in names:
        check_name(n)


Spec = tuple[str, str, Limit, Limit]


def journal_rows(path: Path | str) -> list[dict[str, Any]]:
    """The lines of a journal (:class:`Journal`) that read as pairs, in file order;
    none if there is no file yet. A torn or foreign line is skipped."""
    path = Path(path)
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and row.get("format") == JOURNAL_FORMAT:
            out.append(row)
    return out


class Journal:
    """The finished mirrored pairs of a run, kept in a file as they are played.

    One JSON line per pair, appended with a single write as soon as the pair is
    over, so a run that is cut short loses at most the pairs in progress; started
    again with the same file it plays only the pairs not yet there. Each line
    records what the pair was played as: the pairing's names, the bot each side
    played (a ``level:NAME`` is recorded as its level's bot), both limits, the
    rules and the round cap. A line that names a pairing of this run but was played
    otherwise (the levels were redefined, another limit was given) is refused, so
    one file never mixes two kinds of games. Lines of other pairings or of deals
    outside this run are left alone; a torn last line (a run killed mid-write) is
    ignored; where a deal is in the file twice, the first is kept.
    """

    def __init__(self, path: Path | str, rules: Rules, max_rounds: int) -> None:
        self.path = Path(path)
        self.rules = rules
        self.max_rounds = max_rounds

    def definition(self, spec: Spec) -> dict[str, Any]:
        """What a line of pairing ``spec`` records besides its deal and games."""
        a, b, la, lb = spec
        bots, limits = [], []
        for name, limit in ((a, la), (b, lb)):
            level = level_of(name)
            # A level records the bot and limit it plays with on these rules (some
            # levels weigh more samples with two decks, or play another bot at
            # three or four players: Level.on).
            bot, limit = level.on(self.rules) if level is not None else (name, limit)
            bots.append(bot)
            limits.append(limit_json(limit))
        return {"a": a, "b": b, "bots": bots, "limits": limits,
                "rules": self.rules.to_json(), "max_rounds": self.max_rounds}

    def rows(self) -> list[dict[str, Any]]:
        """The file's lines that read as pairs (none if there is no file yet)."""
        return journal_rows(self.path)

    def played(self, specs: Sequence[Spec],
               seeds: Sequence[int]) -> dict[tuple[int, int], tuple[GameRecord, GameRecord]]:
        """The pairs of this run already in the file, by (pairing, deal index).

        ValueError when a line of one of these pairings was played otherwise."""
        index: dict[tuple[Any, Any], int] = {(spec[0], spec[1]): p
                                             for p, spec in enumerate(specs)}
        deal: dict[Any, int] = {}
        for i, s in enumerate(seeds):
            deal.setdefault(s, i)
        done: dict[tuple[int, int], tuple[GameRecord, GameRecord]] = {}
        for row in self.rows():
            p = index.get((row.get("a"), row.get("b")))
            if p is None:
                continue
            want = self.definition(specs[p])
            got = {k: row.get(k) for k in want}
            if got != want:
                changed = ", ".join(f"{k} {got[k]} (now {want[k]})"
                                    for k in want if got[k] != want[k])
                raise ValueError(f"{self.path}: {row['a']} v {row['b']} was played there "
                                 f"with {changed}; give another file to play it as it is now")
            at = deal.get(row.get("seed"))
            if at is not None and (p, at) not in done:
                g0, g1 = (GameRecord.from_json(g) for g in row["games"])
                done[(p, at)] = (g0, g1)
        return done

    def record(self, spec: Spec, seed: int, g0: GameRecord, g1: GameRecord) -> None:
        """Append one finished pair."""
        row = {"format": JOURNAL_FORMAT, **self.definition(spec), "seed": seed,
               "games": [g0.to_json(times=True), g1.to_json(times=True)]}
        if self.path.parent != Path():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # One write of the whole line in append mode: a line is never interleaved with
        # another process's, and a kill leaves at most a torn last line.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
        finally:
            os.close(fd)


def _play_pairings(specs: Sequence[Spec], rules: Rules, seeds: Sequence[int], jobs: int,
                   max_rounds: int, progress: bool,
                   journal: Path | str | None = None) -> list[PairingResult]:
    _check_names([n for spec in specs for n in spec[:2]])
    book = Journal(journal, rules, max_rounds) if journal is not None else None
    done = book.played(specs, seeds) if book is not None else {}
    if done and progress:
        print(f"{len(done)} mirrored pairs already played in {journal}", file=sys.stderr)
    tasks = [_Task(p, i, (a, b), rules, s, (la, lb), max_rounds)
             for p, (a, b, la, lb) in enumerate(specs) for i, s in enumerate(seeds)
             if (p, i) not in done]

    def keep(pair: PairDone) -> None:
        assert book is not None
        p, i, g0, g1 = pair
        book.record(specs[p], seeds[i], g0, g1)

    games = dict(done)
    for p, i, g0, g1 in _execute(tasks, jobs, progress, keep if book is not None else None):
        games[(p, i)] = (g0, g1)
    results = [PairingResult(a, b, la, lb, []) for a, b, la, lb in specs]
    for p, i in sorted(games):
        results[p].games.extend(games[(p, i)])
    return results


def rate(players: Sequence[str], pairings: Sequence[PairingResult],
         labels: Callable[[PairingResult], tuple[str, str]], *, anchor: str | None = None,
         samples: int = 1000, seed: int = 0) -> Ratings | None:
    """Bradley–Terry Elo with bootstrap intervals (units: mirrored pairs)."""
    if len(players) < 2 or not any(pr.games for pr in pairings):
        return None
    index = {p: i for i, p in enumerate(players)}
    results: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for pr in pairings:
        la, lb = labels(pr)
        units = [(g0.score("A") + g1.score("A"), 2.0) for g0, g1 in pr.pairs]
        results.setdefault((index[la], index[lb]), []).extend(units)
    if anchor is None:
        anchor = DEFAULT_ANCHOR if DEFAULT_ANCHOR in index else players[0]
    return bootstrap_elo(len(players), results, anchor=index[anchor], samples=samples,
                         seed=seed, prior=RATING_PRIOR)


def run_pairing(bot_a: str, bot_b: str, rules: Rules, seeds: Sequence[int],
                limit_a: Limit | None = None, limit_b: Limit | None = None, jobs: int = 1, *,
                max_rounds: int = MAX_ROUNDS, progress: bool = False,
                bootstrap: int = 1000, bootstrap_seed: int = 0,
                journal: Path | str | None = None) -> ArenaResult:
    """``bot_a`` against ``bot_b``: two games (a mirrored pair) per seed.

    ``journal``: a :class:`Journal` file that keeps each pair as it finishes and
    supplies the pairs it already holds (a resumed run)."""
    la, lb = limit_a or Limit(), limit_b or Limit()
    pairings = _play_pairings([(bot_a, bot_b, la, lb)], rules, seeds, jobs, max_rounds,
                              progress, journal)
    result = ArenaResult([], rules, list(seeds), pairings, None, max_rounds,
                         {"jobs": jobs, "bootstrap": bootstrap,
                          "bootstrap_seed": bootstrap_seed})
    result.players = list(result.labels(pairings[0]))
    result.ratings = rate(result.players, pairings, result.labels, samples=bootstrap,
                          seed=bootstrap_seed)
    return result


def run_round_robin(bots: Sequence[str], rules: Rules, seeds: Sequence[int],
                    limits: Mapping[str, Limit] | Limit | None = None, jobs: int = 1, *,
                    schedule: Schedule = "all", pairs: Sequence[tuple[str, str]] = (),
                    max_rounds: int = MAX_ROUNDS, progress: bool = False,
                    bootstrap: int = 1000, bootstrap_seed: int = 0,
                    journal: Path | str | None = None) -> ArenaResult:
    """Every pair of ``bots`` (``schedule="all"``) or each with its next one in the
    list (``"neighbours"``, for a ladder) or none (``"given"``), then any extra
    ``pairs`` (say an oracle against the bot it should be compared with),
    ``len(seeds)`` mirrored pairs each, and their Bradley–Terry ratings from all
    of it (the pairings must connect every bot). ``journal``: as in
    :func:`run_pairing`."""
    if len(set(bots)) != len(bots):
        raise ValueError("a round robin needs distinct bots")
    if len(bots) < 2:
        raise ValueError("a round robin needs at least two bots")

    def limit(name: str) -> Limit:
        if limits is None:
            return Limit()
        if isinstance(limits, Limit):
            return limits
        return limits.get(name, Limit())

    if schedule == "all":
        planned = [(bots[i], bots[j])
                   for i in range(len(bots)) for j in range(i + 1, len(bots))]
    elif schedule == "neighbours":
        planned = list(itertools.pairwise(bots))
    elif schedule == "given":
        planned = []
    else:
        raise ValueError(f"unknown schedule {schedule!r}")
    for a, b in pairs:
        if a not in bots or b not in bots or a == b:
            raise ValueError(f"extra pairing {a} v {b} needs two different bots of the list")
        if (a, b) not in planned and (b, a) not in planned:
            planned.append((a, b))
    if not planned:
        raise ValueError("no pairings to play")
    specs = [(a, b, limit(a), limit(b)) for a, b in planned]
    pairings = _play_pairings(specs, rules, seeds, jobs, max_rounds, progress, journal)
    result = ArenaResult(list(bots), rules, list(seeds), pairings, None, max_rounds,
                         {"jobs": jobs, "schedule": schedule,
                          "extra_pairs": [list(p) for p in pairs], "bootstrap": bootstrap,
                          "bootstrap_seed": bootstrap_seed,
                          "limits": {b: limit_json(limit(b)) for b in bots}})
    result.ratings = rate(result.players, pairings, result.labels, samples=bootstrap,
                          seed=bootstrap_seed)
    return result


def merge_results(paths: Sequence[Path | str], *, bootstrap: int = 1000,
                  bootstrap_seed: int = 0) -> ArenaResult:
    """The games of several result files (:meth:`ArenaResult.write_json`) as one run.

    For runs of the same pairings on other deals (another ``--seed``), or of other
    pairings to be rated together. The files must share the rules and the round cap;
    a pairing is the same only with the same limits on both sides. A deal played
    twice by one pairing is refused: it would count double. The ratings are fitted
    again to all the games. ValueError (naming the file) for anything else wrong.
    """
    if not paths:
        raise ValueError("give the result files to merge")
    rules: Rules | None = None
    max_rounds: int | None = None
    players: list[str] = []
    seeds: list[int] = []
    pairings: dict[str, PairingResult] = {}
    dealt: dict[str, set[int]] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path}: not an arena result file (format {FORMAT})")
        file_rules = rules_from_json(data["rules"])
        if rules is None:
            rules, max_rounds = file_rules, data["max_rounds"]
        elif file_rules.to_json() != rules.to_json() or data["max_rounds"] != max_rounds:
            raise ValueError(f"{path}: played with other rules or another round cap than "
                             f"{paths[0]}")
        players += [p for p in data["players"] if p not in players]
        seeds += [s for s in data["seeds"] if s not in seeds]
        for pr in data["pairings"]:
            key = json.dumps([pr["a"], pr["b"], pr["limit_a"], pr["limit_b"]])
            if key not in pairings:
                pairings[key] = PairingResult(pr["a"], pr["b"], Limit(**pr["limit_a"]),
                                              Limit(**pr["limit_b"]), [])
                dealt[key] = set()
            again = dealt[key] & {g["seed"] for g in pr["games"]}
            if again:
                raise ValueError(f"{path}: {pr['a']} v {pr['b']} plays deal seed "
                                 f"{min(again)} again; a deal counted twice would weigh double")
            dealt[key] |= {g["seed"] for g in pr["games"]}
            pairings[key].games.extend(GameRecord.from_json(g) for g in pr["games"])
    assert rules is not None and max_rounds is not None
    result = ArenaResult(players, rules, seeds, list(pairings.values()), None, max_rounds,
                         {"merged": [str(p) for p in paths], "bootstrap": bootstrap,
                          "bootstrap_seed": bootstrap_seed})
    try:
        result.ratings = rate(players, result.pairings, result.labels, samples=bootstrap,
                              seed=bootstrap_seed)
    except ValueError:
        result.ratings = None  # pairings that do not connect every player: no common scale
    return result


# ----------------------------------------------------------------------
# Plot


def plot_ratings(result: ArenaResult, path: Path | str, title: str | None = None) -> None:
    """A PNG of the Elo ratings with their 95% intervals, strongest at the top.

    matplotlib is imported here, with the Agg backend, so that the engine and
    the other commands never pay for it and no display is needed.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = result.ratings
    if ratings is None:
        raise ValueError("no ratings to plot")
    order = sorted(range(len(result.players)), key=lambda i: ratings.elo[i])
    names = [result.players[i] for i in order]
    values = [ratings.elo[i] for i in order]
    lows = [ratings.elo[i] - ratings.low[i] for i in order]
    highs = [ratings.high[i] - ratings.elo[i] for i in order]
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.5 * len(names)))
    ax.errorbar(values, range(len(names)), xerr=[lows, highs], fmt="o", capsize=4)
    for y, v in enumerate(values):
        ax.annotate(f"{v:.0f}", (v, y), textcoords="offset points", xytext=(0, 6),
                    ha="center", fontsize=8)
    ax.set_yticks(range(len(names)), names)
    ax.axvline(1000.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel(f"Elo (Bradley–Terry; {result.players[ratings.anchor]} = 1000), "
                  "95% bootstrap interval")
    rules = result.rules.to_json()
    ax.set_title(title or f"{rules if isinstance(rules, str) else rules['preset']}: "
                 f"{len(result.seeds)} mirrored pairs per pairing")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    if path.parent != Path():
        path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
