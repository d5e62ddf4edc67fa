"""Perft: counts of legal move sequences from known positions (tests/perft/*.txt).

Like python-chess's perft files, these keep the move generator honest: a count
that changes means a move appeared or vanished somewhere in the tree. The
counts in the files were worked out by hand (the reasoning is written next to
each count), not copied from the generator.

``perft(p, d)`` is the number of sequences of exactly ``d`` legal moves from
``p``, following :meth:`Position.play` (which deals the next deal when every
hand is empty and scores the round after its last card). A round that ends
before depth ``d`` contributes nothing: a scored position has no legal moves.

File format (one file per ruleset; ``#`` starts a comment line)::

    id: casino-example
    position: {"rules": "casino", "hands": [["9d"], ["2c"]], "table": ["9c"], "fill": "piles"}
    perft 1: 4
    perft 2: 4

``position`` is a short spec completed by :func:`tests.variant_positions.make`:
the cards it does not name go to the stock, or to a pile with ``"fill": "piles"``
(so that the position is in the round's last deal).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from casino import Position
from tests.variant_positions import make

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class Case:
    """One position of a perft file and its expected counts by depth."""

    file: str
    id: str
    spec: dict[str, object] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.file}:{self.id}"


def parse_file(path: Path) -> list[Case]:
    """The cases of one perft file; a malformed line fails loudly with its number."""
    cases: list[Case] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"{path.name}:{number}: expected 'key: value', got {line!r}")
        key, value = key.strip(), value.strip()
        if key == "id":
            cases.append(Case(path.stem, value))
        elif not cases:
            raise ValueError(f"{path.name}:{number}: {key!r} before the first 'id:'")
        elif key == "position":
            cases[-1].spec = json.loads(value)
        elif key.startswith("perft "):
            cases[-1].counts[int(key.split()[1])] = int(value)
        else:
            raise ValueError(f"{path.name}:{number}: unknown key {key!r}")
    return cases


def all_cases() -> list[Case]:
    return [c for path in sorted(PERFT_DIR.glob("*.txt")) for c in parse_file(path)]


def perft(pos: Position, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies (every move is played, even at
    the last ply, so a move the generator lists but ``play`` refuses is caught)."""
    if depth == 0:
        return 1
    return sum(perft(pos.play(m), depth - 1) for m in pos.legal_moves())


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """Each root move with the size of its subtree (the per-move breakdown)."""
    return sorted((str(m), perft(pos.play(m), depth - 1)) for m in pos.legal_moves())


CASES = all_cases()


def test_perft_files_exist_for_each_ruleset() -> None:
    files = {c.file for c in CASES}
    assert {"casino", "krypkasino", "kasino", "classic", "royal", "mulle", "tablic"} <= files
    for case in CASES:
        assert case.spec, f"{case.name} has no position"
        assert case.counts, f"{case.name} has no counts"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_perft(case: Case) -> None:
    pos = make(case.spec)
    for depth, expected in sorted(case.counts.items()):
        got = perft(pos, depth)
        if got != expected:
            lines = [f"{case.name}: perft {depth} is {got}, expected {expected}",
                     f"position: {json.dumps(pos.to_json())}", "per move:"]
            lines += [f"  {move:<32} {n}" for move, n in divide(pos, depth)]
            pytest.fail("\n".join(lines))
