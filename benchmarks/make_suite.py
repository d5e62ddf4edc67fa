"""Generate the benchmark suite: ``benchmarks/positions/*.json``, once.

The suite is committed, so legal-move speed figures from different versions of
the engine are measured on the same positions. Run this again only to change
the suite on purpose (and say so when you publish figures); it is deterministic,
so rerunning it with the same engine rewrites the same files.

Each file is a JSON list of ``casino-position/1`` objects:

- ``<preset>.json``: positions met in seeded random games (uniformly random
  legal moves) of that preset, at every player count it allows, every third
  position of each round, round-robin over the player counts.
- ``casino-crowded.json``: crowded house-rules tables with 10 to 14 loose cards
  and 3 builds (single and multiple), the worst case for building and raising.
- ``krypkasino-crowded.json``: two-deck tables with 15 to 20 loose cards, the
  worst case for compulsory maximal captures.

Usage: ``.venv/bin/python benchmarks/make_suite.py [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from casino import Match, Position, card_text, parse_card
from casino.engine.rules import PRESET_NAMES, Rules, preset

HERE = Path(__file__).resolve().parent
PLAYERS = {"casino": (2,), "krypkasino": (2,)}
RANDOM_PER_PRESET = 240
EVERY = 3
CROWDED = 40


def player_counts(name: str) -> tuple[int, ...]:
    return PLAYERS.get(name, (2, 3, 4))


def random_positions(name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Every ``EVERY``-th position of seeded random rounds, over the allowed player counts."""
    out: list[dict[str, Any]] = []
    rng = random.Random(seed)
    game = 0
    while len(out) < count:
        players = player_counts(name)[game % len(player_counts(name))]
        match = Match(name, seed=seed * 1000 + game, players=players)
        game += 1
        step = 0
        while match.position.result is None:
            pos = match.position
            if step % EVERY == 0 and len(out) < count:
                out.append(pos.to_json())
            match.play(rng.choice(pos.legal_moves()))
            step += 1
    return out


def _t(cards: list[int]) -> list[str]:
    return [card_text(c) for c in cards]


def _take(pool: Counter[int], cards: list[int]) -> None:
    for c in cards:
        if pool[c] <= 0:
            raise ValueError(f"{card_text(c)} is not available")
        pool[c] -= 1


def _finish(rules: Rules, pool: Counter[int], rng: random.Random, body: dict[str, Any],
            stock_size: int) -> dict[str, Any]:
    """Put every card not yet placed into the stock (``stock_size`` of them) and the piles."""
    rest = list(pool.elements())
    rng.shuffle(rest)
    stock, rest = rest[:stock_size], rest[stock_size:]
    piles: list[list[int]] = [[] for _ in range(rules.players)]
    for i, c in enumerate(rest):
        piles[i % rules.players].append(c)
    obj = {
        "format": "casino-position/1",
        "rules": rules.to_json(),
        "round": 1,
        "dealer": 1,
        # Only a capture fills a pile: a seat holding captured cards made the last one.
        "last_capture": next((s for s, p in enumerate(piles) if p), None),
        "sweeps": [],
        "set_aside": [],
        "scores": [0] * rules.players,
        "result": None,
        **body,
        "piles": [_t(sorted(p)) for p in piles],
        "stock": _t(stock),
    }
    Position.from_json(obj)  # refuse to write anything the contract forbids
    return obj


HAND_MADE_CASINO: list[dict[str, Any]] = [
    # 12 loose cards and three builds: an 8 and a multiple 9 of seat 0, a 10 of seat 1.
    {
        "deal": 3, "to_move": 0,
        "hands": [["8c", "9d", "Ah", "Kd"], ["Ts", "2h", "7h", "3h"]],
        "table": ["As", "2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd", "Qh",
                  {"value": 8, "owner": 0, "groups": [["5d", "3s"]]},
                  {"value": 10, "owner": 1, "groups": [["6h", "4c"]]},
                  {"value": 9, "owner": 0, "groups": [["9c"], ["5c", "4d"]]}],
    },
    # Low cards everywhere: many subsets add up to every value.
    {
        "deal": 2, "to_move": 1,
        "hands": [["7s", "Ks", "Qd", "4s"], ["6d", "Kh", "9h", "5h"]],
        "table": ["Ac", "Ad", "2s", "2d", "3c", "3h", "4c", "4d", "5c", "6s", "2h",
                  {"value": 7, "owner": 0, "groups": [["5d", "2c"]]},
                  {"value": 13, "owner": 1, "groups": [["Tc", "3s"]]},
                  {"value": 9, "owner": 1, "groups": [["6h", "3d"]]}],
    },
]


def _random_build(rng: random.Random, pool: Counter[int], value: int, multiple: bool,
                  owner: int) -> dict[str, Any] | None:
    """A build of ``value`` from the pool: one group, or two when ``multiple``."""
    groups: list[list[int]] = []
    for _ in range(2 if multiple else 1):
        for _attempt in range(50):
            a = rng.randrange(1, min(value, 11))
            b = value - a
            if not 1 <= b <= 10:
                continue
            ca = (a - 1) * 4 + rng.randrange(4)
            cb = (b - 1) * 4 + rng.randrange(4)
            if pool[ca] > 0 and pool[cb] > (1 if ca == cb else 0):
                _take(pool, [ca, cb])
                groups.append([ca, cb])
                break
        else:
            return None
    return {"value": value, "owner": owner, "groups": [_t(g) for g in groups]}


def crowded_casino(count: int, seed: int) -> list[dict[str, Any]]:
    """Hand-made tables, then seeded ones: 10-14 loose cards and 3 builds each."""
    rules = preset("casino")
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for spec in HAND_MADE_CASINO:
        pool = Counter(range(52))
        _take(pool, [parse_card(c) for h in spec["hands"] for c in h])
        for item in spec["table"]:
            if isinstance(item, str):
                _take(pool, [parse_card(item)])
            else:
                _take(pool, [parse_card(c) for g in item["groups"] for c in g])
        out.append(_finish(rules, pool, rng, spec, 8))
    while len(out) < count:
        pool = Counter(range(52))
        to_move = rng.randrange(2)
        values = rng.sample(range(5, 15), 3)
        owners = [rng.randrange(2) for _ in values]
        hands: list[list[int]] = [[], []]
        # Each owner keeps a card of each build's value (docs/rules.md §2.5).
        for v, o in zip(values, owners, strict=True):
            rank = 0 if v == 14 else v - 1
            c = rank * 4 + rng.randrange(4)
            if pool[c] and len(hands[o]) < 4:
                _take(pool, [c])
                hands[o].append(c)
        builds = [_random_build(rng, pool, v, rng.random() < 0.4, o)
                  for v, o in zip(values, owners, strict=True)]
        if any(b is None for b in builds) or any(
            not any(v in rules.table.played[c] for c in hands[o])
            for v, o in zip(values, owners, strict=True)
        ):
            continue
        for h in hands:
            while len(h) < 4:
                c = rng.choice(list(pool.elements()))
                _take(pool, [c])
                h.append(c)
        loose = rng.sample(list(pool.elements()), rng.randrange(10, 15))
        _take(pool, loose)
        body = {
            "deal": rng.randrange(2, 5), "to_move": to_move,
            "hands": [_t(sorted(h)) for h in hands],
            "table": [*_t(loose), *builds],
        }
        out.append(_finish(rules, pool, rng, body, 8 * rng.randrange(1, 3)))
    return out


def crowded_krypkasino(count: int, seed: int) -> list[dict[str, Any]]:
    """Two-deck tables with 15 to 20 loose cards (pictures included: trailed mid-deal)."""
    rules = preset("krypkasino")
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        pool = Counter({c: 2 for c in range(52)})
        deck = list(pool.elements())
        rng.shuffle(deck)
        first = len(out) % 4 == 0
        size = 6 if first else 4
        hands = [sorted(deck[:size]), sorted(deck[size:2 * size])]
        # Pictures are set aside at each deal, so only a trail puts one on the table.
        loose = [c for c in deck[2 * size:] if not (first and c >> 2 >= 10)]
        loose = loose[:rng.randrange(15, 21)]
        _take(pool, hands[0] + hands[1] + loose)
        body = {
            "deal": 1 if first else rng.randrange(2, 12), "to_move": rng.randrange(2),
            "hands": [_t(h) for h in hands], "table": _t(loose),
        }
        stock = 88 if first else 8 * rng.randrange(0, 9)
        out.append(_finish(rules, pool, rng, body, min(stock, sum(pool.values()))))
    return out


def suite(seed: int = 2024) -> dict[str, list[dict[str, Any]]]:
    files: dict[str, list[dict[str, Any]]] = {}
    for k, name in enumerate(PRESET_NAMES):
        files[name] = random_positions(name, RANDOM_PER_PRESET, seed + k)
    files["casino-crowded"] = crowded_casino(CROWDED, seed)
    files["krypkasino-crowded"] = crowded_krypkasino(CROWDED, seed)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "positions",
                        help="directory to write (default: benchmarks/positions)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, positions in suite(args.seed).items():
        path = args.out / f"{name}.json"
        text = "[\n" + ",\n".join(json.dumps(p, separators=(",", ":")) for p in positions)
        path.write_text(text + "\n]\n", encoding="utf-8")
        print(f"{path}: {len(positions)} positions")


if __name__ == "__main__":
    main()
