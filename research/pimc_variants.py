"""Paired experiments on the ``pimc`` bot's settings against ``expert`` (issue 3).

Runs a variant of a bot (its class attributes changed with ``--set NAME=VALUE``)
against an opponent on mirrored deals, one-round games of house rules by default
(``--rules``, ``--players``, ``--max-rounds 50`` for whole games), both sides at the ``expert``
level's limit (an opponent ``level:NAME`` at its level's own), and prints the
games won and the margin per round with their 95% intervals and the variant's
think time. Runs on the same ``--seed`` play the same
deals with the same bot seeds, so two variants can be compared pair by pair
(``--out`` keeps each game's margins; ``--paired A.json B.json`` compares two
runs). Examples (research/bots-log.md quotes their figures), from the repository root::

    .venv/bin/python -m research.pimc_variants pimc --set max_depth=None \\
        --set leaf_eval=estimate --out full.json       # the search before issue 3
    .venv/bin/python -m research.pimc_variants pimc --out shipped.json
    .venv/bin/python -m research.pimc_variants --paired shipped.json full.json
    .venv/bin/python -m research.pimc_variants pimc-oracle --set fair.max_depth=None
    .venv/bin/python -m research.pimc_variants expert --eval race_win=8 \\
        --opponent level:hard --rules mulle --max-rounds 50 --pairs 100 --seed 31 \\
        --iterations 24 --seconds 0.5 --resume race8.jsonl   # whole games of Mulle

``VALUE`` is ``None``, a number, or else a string. ``fair.NAME`` changes the
``pimc-oracle``'s copy of the fair bot's settings. ``--eval NAME=VALUE`` makes
the variant (only) think with a constant of the evaluation changed
(``casino.bots.evaluation.EvalParams``, passed to the bot; ``eval_overrides.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, cast

from casino.bots import BOTS, Limit, level_of
from casino.bots.careful import VARIANTS, Settings
from casino.bots.careful import variant as careful_variant
from casino.engine.rules import PRESET_NAMES, preset
from casino.measure.arena import game_seeds, run_pairing
from research import eval_overrides


def parse_value(text: str) -> Any:
    if text == "None":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def variant(name: str, sets: list[str]) -> str:
    """Register the variant of bot ``name`` with ``sets`` applied; its ladder name."""
    if not sets:
        return name
    base: Any = BOTS[name]
    attrs: dict[str, Any] = {}
    fair: dict[str, Any] = {}
    for kv in sets:
        key, _, value = kv.partition("=")
        if key.startswith("fair."):
            fair[key[5:]] = parse_value(value)
        else:
            attrs[key] = parse_value(value)
    if fair:
        attrs["fair"] = type("Fair", (base.fair,), fair)
    label = f"{name}[{','.join(sets)}]"
    if name in VARIANTS:
        # The club player's variants are careful configured, not classes: the settings
        # given join the variant's own.
        BOTS[label] = careful_variant(name, cast(Settings, {**VARIANTS[name], **attrs}))
    else:
        BOTS[label] = type("Variant", (base,), attrs)
    return label


def paired(a_path: str, b_path: str) -> None:
    a = json.loads(Path(a_path).read_text())["margins"]
    b = json.loads(Path(b_path).read_text())["margins"]
    pa = [sum(a[i]) + sum(a[i + 1]) for i in range(0, len(a), 2)]
    pb = [sum(b[i]) + sum(b[i + 1]) for i in range(0, len(b), 2)]
    n = min(len(pa), len(pb))
    d = [(x - y) / 2 for x, y in zip(pa[:n], pb[:n], strict=True)]
    mean = math.fsum(d) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else math.inf
    print(f"A {math.fsum(pa[:n]) / n / 2:+.2f}, B {math.fsum(pb[:n]) / n / 2:+.2f} per round; "
          f"A - B {mean:+.2f} ± {1.96 * sd / math.sqrt(n):.2f} (95%, {n} pairs, one-round games)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", nargs="?", default="pimc")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--eval", action="append", default=[], metavar="NAME=VALUE",
                    help="the variant thinks with this field of the evaluation's EvalParams "
                         "changed (its opponent does not)")
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=0.8)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--opponent-seconds", type=float, default=None,
                    help="the opponent's limit, when not the same as the bot's")
    ap.add_argument("--opponent-iterations", type=int, default=None)
    ap.add_argument("--max-rounds", type=int, default=1)
    ap.add_argument("--rules", default="casino", choices=PRESET_NAMES,
                    help="the preset played (default: house rules)")
    ap.add_argument("--players", type=int, default=None,
                    help="players at the table (default: the preset's usual)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--resume", default=None, metavar="JSONL",
                    help="keep each pair in this journal as it finishes, and play only "
                         "the pairs it does not hold yet")
    ap.add_argument("--out", default=None)
    ap.add_argument("--paired", nargs=2, default=None, metavar="JSON")
    args = ap.parse_args(argv)
    if args.paired:
        paired(*args.paired)
        return 0
    name = variant(args.bot, args.set)
    if args.eval:
        try:
            params = eval_overrides.parse(args.eval)
            factory = eval_overrides.thinking_with(BOTS[name], params)
        except ValueError as exc:
            ap.error(str(exc))
        label = f"{name}[{','.join(args.eval)}]"
        BOTS[label] = factory
        name = label
    limit = Limit(seconds=args.seconds, iterations=args.iterations)
    try:
        level = level_of(args.opponent)
    except ValueError as exc:
        ap.error(str(exc))
    other = limit if level is None else level.limit
    if args.opponent_seconds is not None or args.opponent_iterations is not None:
        other = Limit(seconds=args.opponent_seconds, iterations=args.opponent_iterations)
    try:
        rules = preset(args.rules, players=args.players)
    except ValueError as exc:
        ap.error(str(exc))
    start = time.perf_counter()
    r = run_pairing(name, args.opponent, rules, game_seeds(args.seed, args.pairs),
                    limit, other, jobs=args.jobs, max_rounds=args.max_rounds,
                    journal=args.resume)
    pr = r.pairings[0]
    m = pr.margin()
    won = pr.score_a()
    assert m is not None
    t = pr.think("A")
    print(f"{name} v {args.opponent} ({args.rules}, {rules.players} players): "
          f"games won {won.value:.1%} "
          f"[{won.low:.1%}, {won.high:.1%}] of {len(pr.games)}; margin per round "
          f"{m.value:+.2f} [{m.low:+.2f}, {m.high:+.2f}]; think median "
          f"{t.median * 1000:.0f} ms, p95 {t.p95 * 1000:.0f} ms, "
          f"max {t.max * 1000:.0f} ms; {time.perf_counter() - start:.0f} s")
    if args.out:
        Path(args.out).write_text(json.dumps({"command": sys.argv,
                                              "margins": [g.margins for g in pr.games]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
