"""docs/results.md is generated from the arena's journals (research/results.py), never
edited by hand: regenerated from the checked-in journals it is the same page. The
generator's figures are checked on a tiny journal worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from casino.measure.arena import JOURNAL_FORMAT, journal_rows
from research import results

ROOT = Path(__file__).resolve().parent.parent
JOURNALS = sorted((ROOT / "research" / "journals").glob("*.jsonl"))
PAGE = ROOT / "docs" / "results.md"


def test_the_results_page_is_generated_from_the_journals() -> None:
    assert JOURNALS, "no journals in research/journals/"
    assert PAGE.read_text(encoding="utf-8") == results.page(JOURNALS), (
        "docs/results.md differs from the journals' page: run `make results` "
        f"({results.COMMAND}) instead of editing it")


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: p.name)
def test_the_checked_in_journals_are_compact(path: Path) -> None:
    """Think times summed up (``--compact``), so that a journal stays small."""
    rows = journal_rows(path)
    assert rows
    assert all(isinstance(times, dict)
               for row in rows for g in row["games"] for times in g["think"].values())


def _game(seed: int, mirror: int, winner: str | None, margins: list[int],
          think_a: list[float]) -> dict[str, Any]:
    return {"seed": seed, "mirror": mirror, "first_dealer": 0,
            "seats": ["A", "B"] if mirror == 0 else ["B", "A"], "winner": winner,
            "scores": [21, 10], "rounds": len(margins),
            "points": [[max(m, 0), max(-m, 0)] for m in margins], "margins": margins,
            "decks": ["d" * 12 for _ in margins], "moves": 10,
            "think": {"A": think_a, "B": [0.5]}}


def _row(seed: int, games: list[dict[str, Any]], a: str = "level:easy",
         b: str = "level:beginner", rules: str | dict[str, Any] = "casino",
         max_rounds: int = 50) -> dict[str, Any]:
    return {"format": JOURNAL_FORMAT, "a": a, "b": b, "bots": ["careful", "greedy"],
            "limits": [{"seconds": None, "iterations": None},
                       {"seconds": 0.5, "iterations": 6}],
            "rules": rules, "max_rounds": max_rounds, "seed": seed, "games": games}


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"torn', encoding="utf-8")


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl"
    _write(path, [
        # Pair 1: A wins both games; margins 3+1 and 2 over 3 rounds.
        _row(1, [_game(1, 0, "A", [3, 1], [0.002, 0.004]), _game(1, 1, "A", [2], [0.006])]),
        # Pair 2: one game each way, the second undecided (counts half for A).
        _row(2, [_game(2, 0, "B", [-4], [0.010]), _game(2, 1, None, [0], [0.001])]),
        # The same deal again: skipped, the first kept (as the arena does).
        _row(2, [_game(2, 0, "A", [9], [9.0]), _game(2, 1, "A", [9], [9.0])]),
        # Another ruleset and round cap: a table of its own.
        _row(3, [_game(3, 0, "A", [1], [0.001]), _game(3, 1, "B", [-1], [0.001])],
             rules={"preset": "classic", "players": 4}, max_rounds=1),
    ])
    return path


def test_the_page_gives_the_journals_figures(tiny: Path) -> None:
    text = results.page([tiny])
    casino, classic = (t.text() for t in results.read([tiny]))
    assert casino in text and classic in text
    assert casino.startswith("## Casino, house rules (Royal values, a played Ace is 14): "
                             "2 players, whole games to 21\n")
    assert "From `tiny.jsonl`." in casino
    (line,) = [row for row in casino.splitlines() if row.startswith("| `level:easy`")]
    cells = [c.strip() for c in line.strip("|").split("|")]
    # 2 pairs, 4 games, 5 rounds; A won 2 + 0 + ½: 2.5 of 4 (Wilson 95%: centre 0.564,
    # half-width 0.344: [21.9%, 90.8%]);
    # margin (3+1+2) + (−4+0) = 2 over 5 rounds; A's think 0.023 s over 5 decisions.
    assert cells == ["`level:easy` v `level:beginner`",
                     "`careful` v `greedy` (6 iterations, 0.5 s)", "2", "4", "5",
                     "2.5 = 62.5% [21.9%, 90.8%] (1 undecided)",
                     cells[6], "5 ms / 10 ms"]
    assert cells[6].startswith("+0.40 [")
    assert classic.startswith("## Classic Casino: 4 players in partnerships, single rounds\n")
    assert "| 1 | 2 | 2 | 1 = 50.0% [" in classic


def test_compact_keeps_the_figures_and_the_arena_reads_it(tiny: Path) -> None:
    before = results.page([tiny])
    assert results.compact(tiny) == 4  # every pair line (the torn line is kept)
    assert results.page([tiny]) == before
    rows = journal_rows(tiny)
    assert len(rows) == 4
    assert rows[0]["games"][0]["think"]["A"] == {"decisions": 2, "total": 0.006, "max": 0.004}
    assert tiny.read_text(encoding="utf-8").endswith('{"torn\n')
    assert results.compact(tiny) == 0


def test_the_command_line_prints_the_page(tiny: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    assert results.main([str(tiny)]) == 0
    assert capsys.readouterr().out == results.page([tiny])
    with pytest.raises(SystemExit):
        results.main([str(tiny.parent / "missing.jsonl")])


def test_a_pairing_with_no_game_decided_is_measured_by_its_margin(tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl"
    _write(path, [_row(1, [_game(1, 0, None, [2], [0.001]), _game(1, 1, None, [-1], [0.001])],
                       max_rounds=1)])
    (table,) = results.read([path])
    assert table.heading().endswith("2 players, single rounds")
    assert "| 1 | 2 | 2 | — (none decided) | +0.50 [" in table.text()


def test_the_level_table_of_bots_md_quotes_the_journals() -> None:
    """docs/bots.md sums up each level's strength in words ("wins about 66% against
    `easy`"); each share it quotes is the house rules' journal's, rounded, so a new
    measurement that moves a figure fails here until the words follow it."""
    import re

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    quoted = {(m[1], m[3]): int(m[2]) for m in re.finditer(
        r"^\| `(\w+)` \|[^\n]*?wins about (\d+)% (?:of its games )?against `(\w+)`",
        text, re.MULTILINE)}
    assert len(quoted) == 4, quoted  # easy, medium, hard and expert, each over the one below
    (table,) = [t for t in results.read(JOURNALS) if t.sources == ["casino-2.jsonl"]]
    measured = {}
    for pairing in table.pairings.values():
        a, b = (name.removeprefix("level:") for name in (pairing.a, pairing.b))
        measured[(a, b)] = round(100 * pairing.result().score_a().value)
    for levels, share in quoted.items():
        assert measured[levels] == share, (levels, share, measured[levels])
    floor = re.search(r"loses about (\d+)% of its games to `easy`", text)
    assert floor is not None and int(floor[1]) == measured[("easy", "beginner")]
