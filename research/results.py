"""The results page: the arena's journals read into docs/results.md.

``casino arena ... --resume FILE`` keeps every finished mirrored pair in a journal, one
JSON line each, saying what was played (the pairing, the bot and limit of each side,
the rules, the round cap) and how each game went. This script reads journals and
prints a Markdown page with one table per ruleset and round cap, one row per pairing:
the mirrored pairs, games and rounds played, the games won by the first side with a
95% Wilson interval (an undecided game counting half), its mean points margin a round
with a 95% interval clustered by mirrored pair, and its think time per decision. Every
figure comes from the journals, through the arena's own summaries
(:class:`casino.measure.arena.PairingResult`), so the page says what the arena would
report for the same pairs. Usage, from the repository root::

    .venv/bin/python -m research.results research/journals/*.jsonl > docs/results.md
    .venv/bin/python -m research.results --compact research/journals/*.jsonl

``--compact`` rewrites journals in place with each game's think times summed up (the
count of decisions, their total and the longest, as ``casino arena --out`` writes
them) instead of listed one by one: a whole game lists a hundred or more, most of a
journal's size. The arena reads a compacted journal as before (a run resumes from it);
the page then gives the mean think time, which it gives in any case.
``tests/test_results_page.py`` checks that docs/results.md is this script's output for
the journals in research/journals/, so the page cannot be edited by hand.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casino.bots import Limit
from casino.engine.presets import named
from casino.engine.rules import rules_from_json
from casino.measure.arena import (
    JOURNAL_FORMAT,
    MAX_ROUNDS,
    GameRecord,
    PairingResult,
    journal_rows,
)

#: The command that makes the page, as the page states it.
COMMAND = "python -m research.results research/journals/*.jsonl > docs/results.md"

INTRO = f"""\
# Results

<!-- Generated from the arena's journals by `{COMMAND}`
     (`make results`); do not edit by hand: tests/test_results_page.py checks it. -->

How the player levels and bots fare against each other, measured with `casino arena`
([bots.md](bots.md#the-arena)) and generated from the journals of those runs in
[research/journals/](../research/journals/README.md), which also gives the command
that played each journal and the machine. Every deal is played twice, the bots'
seats swapped (a *mirrored pair*), so the luck of the deal cancels.

- **won by the first**: the games the first-named side won, a game stopped undecided
  at the round cap counting half, with its 95% Wilson interval; where the whole
  interval is above 50%, the first side is the stronger on that table (in single
  rounds no game is decided, and the margin is the measure);
- **margin a round**: the first side's round points less the other's, per round
  (turned for penalty scoring, so that positive always favours the first side), with
  a 95% interval clustered by mirrored pair;
- **think**: the first side's seconds per decision, the mean and the longest (moves
  with one choice are not timed), on the machine that played them.
"""


def _fmt_limit(limit: dict[str, Any]) -> str:
    parts = []
    if limit.get("iterations") is not None:
        n = limit["iterations"]
        parts.append(f"{n} iteration" + ("" if n == 1 else "s"))
    if limit.get("seconds") is not None:
        parts.append(f"{limit['seconds']:g} s")
    return ", ".join(parts)


def _fmt_bot(bot: str, limit: dict[str, Any]) -> str:
    text = _fmt_limit(limit)
    return f"`{bot}` ({text})" if text else f"`{bot}`"


def _fmt_seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms" if seconds >= 0.0005 else "<1 ms"
    return f"{seconds:.2f} s"


@dataclass
class Think:
    """Think times of one side summed up: decisions, their total and the longest."""

    decisions: int = 0
    total: float = 0.0
    longest: float = 0.0

    def add(self, times: list[float] | dict[str, Any]) -> None:
        """Add one game's think times, listed (as the arena writes them) or summed up
        (as ``--compact`` leaves them)."""
        if isinstance(times, list):
            self.decisions += len(times)
            self.total += math.fsum(times)
            self.longest = max([self.longest, *times])
        else:
            self.decisions += int(times["decisions"])
            self.total += float(times["total"])
            self.longest = max(self.longest, float(times["max"]))

    @property
    def mean(self) -> float:
        """Seconds per decision on average (0 with none)."""
        return self.total / self.decisions if self.decisions else 0.0


@dataclass
class Pairing:
    """The pairs of one pairing played one way (bots and limits), from the journals."""

    a: str
    b: str
    bots: list[str]
    limits: list[dict[str, Any]]
    games: list[GameRecord] = field(default_factory=list)
    seeds: set[int] = field(default_factory=set)
    think: Think = field(default_factory=Think)

    def add(self, row: dict[str, Any]) -> None:
        """Add one journal line's pair; a deal already held is skipped (the first kept,
        as the arena does)."""
        if row["seed"] in self.seeds:
            return
        self.seeds.add(row["seed"])
        for g in row["games"]:
            self.games.append(GameRecord.from_json(g))
            self.think.add(g.get("think", {}).get("A", []))

    def result(self) -> PairingResult:
        """The arena's summary of these games (its limits are not read)."""
        return PairingResult(self.a, self.b, Limit(), Limit(), self.games)

    def row(self) -> str:
        """The pairing's line of the page's table."""
        pr = self.result()
        won = pr.score_a()
        margin = pr.margin()
        margin_text = (f"{margin.value:+.2f} [{margin.low:+.2f}, {margin.high:+.2f}]"
                       if margin is not None else "")
        undecided = f" ({pr.undecided} undecided)" if pr.undecided else ""
        won_text = (f"{pr.points_a:g} = {won.value:.1%} [{won.low:.1%}, {won.high:.1%}]"
                    f"{undecided}" if pr.undecided < len(pr.games) else "— (none decided)")
        bots = " v ".join(_fmt_bot(b, lim) for b, lim in zip(self.bots, self.limits,
                                                              strict=True))
        return (f"| `{self.a}` v `{self.b}` | {bots} | {len(pr.pairs)} | {len(pr.games)} | "
                f"{pr.rounds} | {won_text} | {margin_text} | "
                f"{_fmt_seconds(self.think.mean)} / {_fmt_seconds(self.think.longest)} |")


@dataclass
class Table:
    """The pairings played on one ruleset with one round cap."""

    rules: str | dict[str, Any]
    max_rounds: int
    sources: list[str] = field(default_factory=list)
    pairings: dict[str, Pairing] = field(default_factory=dict)

    def heading(self) -> str:
        """The ruleset by its title, the players and how long a game lasted."""
        rules = rules_from_json(self.rules)
        preset = named(rules.name)
        title = preset.title if preset is not None else rules.name
        options = ({k: v for k, v in self.rules.items() if k not in ("preset", "players")}
                   if isinstance(self.rules, dict) else {})
        if options:
            title += " with " + ", ".join(f"{k} {json.dumps(v)}" for k, v in options.items())
        players = f"{rules.players} players" + (" in partnerships" if rules.partnerships
                                                 else "")
        if self.max_rounds == MAX_ROUNDS:
            length = f"whole games to {rules.target}"
        elif self.max_rounds == 1:
            length = "single rounds"
        else:
            length = f"games of at most {self.max_rounds} rounds"
        return f"{title}: {players}, {length}"

    def text(self) -> str:
        """The table's section of the page."""
        lines = [f"## {self.heading()}", "",
                 "From " + ", ".join(f"`{s}`" for s in self.sources) + ".", "",
                 "| pairing | bots | mirrored pairs | games | rounds | won by the first [95%] "
                 "| margin a round [95%] | think of the first: mean / longest |",
                 "|---|---|---:|---:|---:|---|---|---|"]
        lines += [p.row() for p in self.pairings.values()]
        return "\n".join(lines) + "\n"


def read(paths: Sequence[Path]) -> list[Table]:
    """The journals' pairs grouped into tables (by rules and round cap, in the order met)
    and pairings (by names, bots and limits, in the order met)."""
    tables: dict[str, Table] = {}
    for path in paths:
        for row in journal_rows(path):
            key = json.dumps([row["rules"], row["max_rounds"]], sort_keys=True)
            table = tables.setdefault(key, Table(row["rules"], row["max_rounds"]))
            if path.name not in table.sources:
                table.sources.append(path.name)
            pkey = json.dumps([row["a"], row["b"], row["bots"], row["limits"]],
                              sort_keys=True)
            pairing = table.pairings.setdefault(
                pkey, Pairing(row["a"], row["b"], list(row["bots"]), list(row["limits"])))
            pairing.add(row)
    return list(tables.values())


def page(paths: Sequence[Path]) -> str:
    """The whole results page for these journals, read in the order of their file names
    (so that the page does not depend on the order a shell lists them in)."""
    ordered = sorted(paths, key=lambda p: (p.name, str(p)))
    return "\n".join([INTRO, *(t.text() for t in read(ordered))])


def compact(path: Path) -> int:
    """Rewrite ``path`` with every game's think times summed up; returns the lines
    changed. Lines that are no journal pair are kept as they are."""
    out: list[str] = []
    changed = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            out.append(line)
            continue
        if not (isinstance(row, dict) and row.get("format") == JOURNAL_FORMAT):
            out.append(line)
            continue
        touched = False
        for game in row.get("games", []):
            for side, times in game.get("think", {}).items():
                if isinstance(times, list):
                    game["think"][side] = {"decisions": len(times),
                                           "total": round(math.fsum(times), 6),
                                           "max": round(max(times, default=0.0), 6)}
                    touched = True
        changed += touched
        out.append(json.dumps(row, ensure_ascii=False) if touched else line)
    path.write_text("".join(line + "\n" for line in out), encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    """Print the page for the journals given, or compact them (``--compact``)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("journals", nargs="+", type=Path, help="arena journals (JSONL)")
    parser.add_argument("--compact", action="store_true",
                        help="rewrite the journals with think times summed up; print nothing")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.journals if not p.is_file()]
    if missing:
        parser.error("no such journal: " + ", ".join(missing))
    if args.compact:
        for path in args.journals:
            print(f"{path}: {compact(path)} lines compacted", file=sys.stderr)
        return 0
    sys.stdout.write(page(args.journals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
