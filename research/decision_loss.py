"""Where a fair bot loses to perfect information: each of its decisions judged on the true deal.

The gap between ``pimc`` and ``pimc-oracle`` (research/bots-log.md) is a sum over
decisions. This script plays one-round games of a fair bot against an opponent
on mirrored deals and, at every decision of the fair bot that is not forced
and not in the last deal (where nothing is hidden and the bot is exact), values
every candidate move on the *true* position with a search that sees every card
(the judge: alpha-beta to the deal's end, ``deal_start_estimate`` past it). The
decision's loss is the judge's best value less the value of the move chosen.
It reports the mean loss per decision and per round, split by deal, by the
decision's place in its deal, and by the kind of move chosen and the kind the
judge preferred, so that work on the bots can aim where the points go. Usage, from
the repository root::

    .venv/bin/python -m research.decision_loss --pairs 10 --seed 7
    .venv/bin/python -m research.decision_loss --bot expert --iterations 6 --seconds 0.5
    .venv/bin/python -m research.decision_loss --pairs 20 --out decisions.json
    .venv/bin/python -m research.decision_loss --replay decisions.json --eval tempo=0.4
    .venv/bin/python -m research.decision_loss --pairs 20 --seed 11 --voi 64 --out k11.json
    .venv/bin/python -m research.decision_loss --pool k11.json k12.json

``--voi K`` brackets what any fair player must lose at each judged decision, over
K deals of the hidden cards consistent with what it sees: from below (the floor)
and from above (the move with the best mean over those deals, valued on the true
deal), for K = 2, 4, 8, ... up to K (they meet as K grows). Each run records the
judged bot's margin per round, so judged loss and margin compare on the same
deals; ``--pool`` reports several runs together.

``--replay`` judges a bot (or the same bot thinking with other constants,
``--eval``) at the decisions an earlier run kept: the same positions, the stored
judge values, no game played, so two bots' losses compare decision by decision.

The bracket (``information_value``) is the post-game review's own
(:mod:`casino.bots.judge`); this script's judge differs from the review's in what it
values a round's end at (the game, here) and in having no budget.

The judge is not the truth (it too stops at the deal's end, and its opponent
sees the judged player's hand), but it is the same yardstick for every bot.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from casino.bots import BOTS, Limit, evaluation, make_bot
from casino.bots import compiled as bots_core
from casino.bots.expert import candidates
from casino.bots.judge import information_value
from casino.bots.knowledge import sample
from casino.bots.solver import Searcher, game_value, plies_left
from casino.engine.match import Match
from casino.engine.position import Position
from casino.engine.rules import preset
from casino.measure.arena import derive_seed, game_seeds
from research import eval_overrides
from research.pimc_variants import variant


def judge(pos: Any, moves: list[Any], depth: int) -> list[float]:
    """The value of each move on the true position ``pos`` for the player to move."""
    return judge_each([pos], moves, depth)[0]


def judge_each(deals: list[Any], moves: list[Any], depth: int) -> list[list[float]]:
    """:func:`judge` on each of ``deals`` (whole positions alike to their mover): on
    the compiled core in one call where it searches them (the same values,
    tests/test_core.py), else in Python deal by deal."""
    first = deals[0]
    d = max(1, min(depth, plies_left(first, "deal")))
    # The shipped constants, whatever the judged bot thinks with (--eval).
    rows = bots_core.sampled_values(deals, moves, game=True,
                                    depth=None if d == plies_left(first, "deal") else d)
    if rows is not None and len(rows) == len(deals):
        return rows
    out = []
    for pos in deals:
        s = Searcher(pos.to_move, horizon="deal", evaluate=evaluation.deal_start_estimate,
                     terminal=game_value, max_moves=None)
        out.append(s.values(pos, moves, d))
    return out


def consistent_tables(pos: Any, cand: list[Any], args: argparse.Namespace,
                      rng: random.Random) -> list[list[float]]:
    """The judge's value of each candidate in each of ``args.voi`` deals of the hidden
    cards consistent with what the player to move sees."""
    seen = pos.observe(pos.to_move)
    return judge_each([sample(seen, rng) for _ in range(args.voi)], cand, args.judge_depth)


def judged_bot(args: argparse.Namespace) -> Any:
    """The class of the bot judged: ``--bot`` with its ``--set`` settings, thinking with
    the ``--eval`` constants."""
    return eval_overrides.thinking_with(BOTS[variant(args.bot, args.set)], args.params)


def play_round(seed: int, mirror: int,
               args: argparse.Namespace) -> tuple[list[dict[str, Any]], float]:
    """One round with the fair bot at seat ``mirror``: its judged decisions, and the
    round's margin for it (its points less the other player's)."""
    rng = random.Random(derive_seed("voi", seed, mirror))
    rules = preset(args.rules)
    match = Match(rules, seed=seed, first_dealer=seed % rules.players)
    me = mirror
    bot = judged_bot(args)(derive_seed("bot", seed, mirror, me))
    other = make_bot(args.opponent, derive_seed("bot", seed, mirror, 1 - me))
    limit = Limit(seconds=args.seconds, iterations=args.iterations)
    other_limit = Limit(seconds=args.opponent_seconds, iterations=args.opponent_iterations)
    rows: list[dict[str, Any]] = []
    while match.position.result is None:
        pos = match.position
        seat = pos.to_move
        obs = pos.observation(seat)
        if seat != me:
            match.play(other.choose(obs, other_limit))
            continue
        legal = pos.legal_moves()
        # An oracle twin (sees every card) is judged the same way: its loss is what the
        # search's depth costs, without the hidden cards.
        move = (bot.choose_full(pos, limit) if getattr(bot, "sees_all", False)
                else bot.choose(obs, limit))
        # The last deal (stock empty, two players) is of perfect information: not judged.
        if len(legal) > 1 and pos.stock_size:
            cand = candidates(pos, legal)
            if move not in cand:
                cand = [*cand, move]
            vals = judge(pos, cand, args.judge_depth)
            best = max(range(len(cand)), key=lambda i: vals[i])
            chosen = cand.index(move)
            row = {
                "seed": seed, "mirror": mirror, "deal": pos.deal,
                "ply": plies_left(pos, "deal"), "moves": len(legal),
                "chosen": move.kind, "best": cand[best].kind,
                "loss": vals[best] - vals[chosen],
                # Enough to judge another bot at the same decision (--replay).
                "position": pos.to_json(), "cands": [str(m) for m in cand], "values": vals,
            }
            if args.voi:
                tables = consistent_tables(pos, cand, args, rng)
                row["voi"], row["voi_pick"] = information_value(tables, vals)
                # Kept so that the bracket can be redone with fewer deals (--pool).
                row["voi_tables"] = [[round(v, 4) for v in t] for t in tables]
            rows.append(row)
        match.play(move)
    return rows, evaluation.value(match.position, me)


def table(title: str, rows: list[dict[str, Any]], key: str, rounds: int) -> None:
    groups: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    # The bracket's columns, as far as the rows have them (older runs kept only the floor).
    extra = [(key, head) for key, head in (("voi", "floor/round"), ("voi_pick", "fair/round"))
             if rows and all(key in r for r in rows)]
    print(f"\n{title}:")
    print(f"  {'':>10} {'decisions':>9} {'mean loss':>9} {'per round':>9} {'missed':>7}"
          + "".join(f" {head:>11}" for _, head in extra))
    for k in sorted(groups):
        xs = [r["loss"] for r in groups[k]]
        missed = sum(1 for x in xs if x > 1e-9) / len(xs)
        columns = "".join(f" {sum(r[key] for r in groups[k]) / rounds:>11.3f}"
                          for key, _ in extra)
        print(f"  {k!s:>10} {len(xs):>9} {sum(xs) / len(xs):>9.3f} {sum(xs) / rounds:>9.3f} "
              f"{missed:>7.0%}{columns}")


def report(rows: list[dict[str, Any]], rounds: int,
           margins: list[dict[str, Any]] | None = None) -> None:
    total = sum(r["loss"] for r in rows)
    print(f"{len(rows)} judged decisions in {rounds} rounds: mean loss "
          f"{total / max(1, len(rows)):.3f} points per decision, {total / rounds:.2f} per round")
    if margins:
        mean, half = _mean_interval([(m["a"] + m["b"]) / 2 for m in margins])
        print(f"the judged bot's margin against its opponent: {mean:+.2f} ± {half:.2f} "
              f"points per round (95%, over the mirrored pairs)")
    if rows and all("voi" in r for r in rows):
        floor = sum(r["voi"] for r in rows)
        print(f"what hidden cards cost any fair player at the same decisions (a floor): "
              f"{floor / len(rows):.3f} per decision, {floor / rounds:.2f} per round")
    if rows and all("voi_pick" in r for r in rows):
        pick = sum(r["voi_pick"] for r in rows)
        print(f"the loss of the judge's own fair choice (best mean over the same deals), "
              f"judged on the true deal: {pick / len(rows):.3f} per decision, "
              f"{pick / rounds:.2f} per round")
        for name, key in (("floor", "voi"), ("judge's fair choice", "voi_pick")):
            mean, half = paired_interval(rows, key, rounds // 2)
            print(f"the bot's loss less the {name}: {mean:+.2f} ± {half:.2f} per round "
                  f"(95%, over the mirrored pairs)")
    if rows and all("voi_tables" in r for r in rows):
        kmax = min(len(r["voi_tables"]) for r in rows)
        print("\nthe bracket with the first K consistent deals of each decision "
              "(points per round):")
        print(f"  {'K':>4} {'floor':>7} {'fair choice':>11}")
        # Powers of two below K, then K itself.
        ks = [2 ** i for i in range(1, kmax.bit_length()) if 2 ** i < kmax]
        for k in [*ks, kmax] if kmax >= 2 else []:
            got = [information_value(r["voi_tables"][:k], r["values"]) for r in rows]
            print(f"  {k:>4} {sum(g[0] for g in got) / rounds:>7.2f} "
                  f"{sum(g[1] for g in got) / rounds:>11.2f}")
    table("by deal", rows, "deal", rounds)
    table("by cards left in hands (8 = the deal's first move)", rows, "ply", rounds)
    table("by the kind of move chosen", rows, "chosen", rounds)
    table("by the kind of move the judge preferred", rows, "best", rounds)
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        if r["chosen"] != r["best"]:
            pairs[(r["chosen"], r["best"])].append(r["loss"])
    print("\nchosen instead of the judge's kind (loss per round):")
    for (c, b), xs in sorted(pairs.items(), key=lambda kv: -sum(kv[1]))[:8]:
        print(f"  {c:>8} for {b:<8} {len(xs):>5} decisions {sum(xs) / rounds:>7.3f}")


def paired_interval(rows: list[dict[str, Any]], key: str, pairs: int) -> tuple[float, float]:
    """The mean per round of (loss - ``key``) and its 95% half-width, with the mirrored
    pair as the unit (a pair's two rounds share a deck, so they are not independent).
    Pairs without a judged decision count as zero."""
    per_pair: dict[int, float] = defaultdict(float)
    for r in rows:
        per_pair[r["seed"]] += r["loss"] - r[key]
    xs = [v / 2 for v in per_pair.values()]
    xs += [0.0] * (pairs - len(xs))
    return _mean_interval(xs)


def _mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its 95% half-width (normal approximation)."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * (var / n) ** 0.5


def replay(path: Path, args: argparse.Namespace) -> tuple[list[dict[str, Any]], int]:
    """Judge ``args.bot`` at the very decisions kept in ``path`` (a run's ``--out``):
    the same positions and the judge's stored values, so two bots' losses are paired
    decision by decision and no game is played."""
    data = json.loads(path.read_text())
    limit = Limit(seconds=args.seconds, iterations=args.iterations)
    factory = judged_bot(args)
    rows = []
    for n, old in enumerate(data["decisions"]):
        pos = Position.from_json(old["position"])
        bot = factory(derive_seed("replay", args.seed, n))
        move = bot.choose(pos.observation(pos.to_move), limit)
        cands, vals = old["cands"], list(old["values"])
        if str(move) not in cands:
            cands = [*cands, str(move)]
            vals.append(judge(pos, [move], args.judge_depth)[0])
        best = max(range(len(cands)), key=lambda i: vals[i])
        chosen = cands.index(str(move))
        rows.append({**{k: v for k, v in old.items() if k not in ("chosen", "best", "loss")},
                     "chosen": move.kind, "best": pos.parse_move(cands[best]).kind,
                     "loss": vals[best] - vals[chosen]})
    return rows, 2 * data["args"]["pairs"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="pimc")
    ap.add_argument("--seconds", type=float, default=0.8)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--opponent-seconds", type=float, default=0.5)
    ap.add_argument("--opponent-iterations", type=int, default=None)
    ap.add_argument("--judge-depth", type=int, default=8)
    ap.add_argument("--voi", type=int, default=0, metavar="K",
                    help="also judge K consistent deals of the hidden cards per decision: "
                         "the loss no fair player can avoid there")
    ap.add_argument("--pairs", type=int, default=10, help="mirrored pairs of one-round games")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="casino")
    ap.add_argument("--eval", action="append", default=[], metavar="NAME=VALUE",
                    help="the judged bot thinks with this field of the evaluation's "
                         "EvalParams changed (its opponent and the judge do not)")
    ap.add_argument("--out", type=Path, default=None, help="keep every judged decision (JSON)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the judged bot's class (as in pimc_variants.py)")
    ap.add_argument("--replay", type=Path, default=None, metavar="JSON",
                    help="judge --bot at the decisions an earlier --out kept, playing no game")
    ap.add_argument("--pool", type=Path, nargs="+", default=None, metavar="JSON",
                    help="report the decisions of several runs' --out files together "
                         "(runs on different seeds), playing no game")
    args = ap.parse_args(argv)
    try:
        args.params = eval_overrides.parse(args.eval)
        judged_bot(args)  # refuses --eval for a bot that does not evaluate
    except ValueError as exc:
        ap.error(str(exc))
    start = time.perf_counter()
    changed = "".join(", " + e for e in [*args.set, *args.eval])
    if args.pool:
        rounds = 0
        rows: list[dict[str, Any]] = []
        margins: list[dict[str, Any]] = []
        for path in args.pool:
            data = json.loads(path.read_text())
            rows.extend(data["decisions"])
            margins.extend(data.get("margins", []))
            rounds += 2 * data["args"]["pairs"]
        print(f"the decisions of {len(args.pool)} runs pooled: "
              + ", ".join(str(p) for p in args.pool))
        report(rows, rounds, margins if len(margins) * 2 == rounds else None)
        return 0
    if args.replay:
        rows, rounds = replay(args.replay, args)
        if args.out:
            args.out.write_text(json.dumps({"losses": [r["loss"] for r in rows]}))
        print(f"{args.bot} ({args.iterations} samples, {args.seconds} s{changed}) at the "
              f"decisions of {args.replay} ({time.perf_counter() - start:.0f} s)")
        report(rows, rounds)
        return 0
    rows = []
    margins = []
    seeds = game_seeds(args.seed, args.pairs)
    for i, seed in enumerate(seeds):
        margin = [0.0, 0.0]
        for mirror in (0, 1):
            got, margin[mirror] = play_round(seed, mirror, args)
            rows.extend(got)
        margins.append({"seed": seed, "a": margin[0], "b": margin[1]})
        print(f"pair {i + 1}/{len(seeds)}", file=sys.stderr, flush=True)
    if args.out:
        kept = {k: v for k, v in vars(args).items() if k != "params"}
        args.out.write_text(json.dumps({"args": kept | {"out": str(args.out)},
                                        "decisions": rows, "margins": margins}))
    print(f"{args.bot} ({args.iterations} samples, {args.seconds} s{changed}) against "
          f"{args.opponent}, {args.pairs} mirrored pairs of one-round games, seed {args.seed}, "
          f"judge depth {args.judge_depth} ({time.perf_counter() - start:.0f} s)")
    report(rows, 2 * len(seeds), margins)
    return 0


if __name__ == "__main__":
    sys.exit(main())
