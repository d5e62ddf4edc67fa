"""The web load benchmark's rated games and record check (benchmarks/load_web.py
``--rated K``): a lost move is one acknowledged and missing from the stored record; a
rated game's end must show on both players' pages as one rated game; and one short run
against a SQLite server it starts (slow: two accounts signed up with the server's real
password hashing, a rated game resigned after three moves each).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from casino import Match, preset
from casino.engine.record import read_record
from casino.play.session import HUMAN, GameSession
from tests.benchmark_scripts import load

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "load_web.py"

load_web = load("load_web")


def played_record() -> tuple[str, dict[int, list[str]]]:
    """A record of ten moves (a person's first legal move, a computer's), and each
    seat's moves in it."""
    session = GameSession(Match(preset("casino"), seed=3), [HUMAN, "beginner"])
    for _ in range(10):
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(session.legal_moves()[0])
    text = session.record_text()
    by_seat: dict[int, list[str]] = {0: [], 1: []}
    for rnd in read_record(text).rounds:
        for seat, move in zip(rnd.movers, rnd.moves, strict=True):
            by_seat[seat].append(str(move))
    return text, by_seat


def test_a_move_acknowledged_and_missing_from_the_record_is_lost() -> None:
    record, by_seat = played_record()
    assert sum(len(m) for m in by_seat.values()) == 10
    assert load_web.lost_moves(record, by_seat) == 0
    assert load_web.lost_moves(record, {0: by_seat[0][:2]}) == 0  # the person left early
    # A move the record does not hold, or holds fewer times, or holds for the other seat.
    assert load_web.lost_moves(record, {0: [*by_seat[0], "Kd"]}) == 1
    assert load_web.lost_moves(record, {0: by_seat[0] + by_seat[0][:1]}) == 1
    assert load_web.lost_moves(record, {1: by_seat[0]}) >= 1
    assert load_web.lost_moves(None, by_seat) == 10  # no record stored: all lost


def page(body: str, status: int = 200) -> httpx.MockTransport:
    return httpx.MockTransport(lambda _request: httpx.Response(
        status, text=body, headers={"content-type": "text/html"}))


def rated_line(rating: int, games: int) -> str:
    return (f'<h3><a href="/leaderboard">Casino, 2 players</a>: <span class="player-rating">'
            f'{rating} ± 390</span> <span class="muted">({games} rated game'
            f'{"s" * (games != 1)})</span></h3>')


@pytest.mark.parametrize(("body", "status", "words"), [
    (rated_line(1662, 1), 200, None),
    (rated_line(1338, 1), 200, None),
    (rated_line(1700, 2), 200, "of [2] games"),
    (rated_line(1662, 1) + rated_line(1500, 1), 200, "2 pools"),
    (rated_line(1500, 1), 200, "did not move"),
    ('<p id="player-no-ratings">No rated games yet.</p>', 200, "was not rated"),
    ('<p class="error-message">there is no player named &#39;x&#39;</p>', 404,
     "there is no player named 'x'"),
])
def test_a_player_page_must_show_one_rated_game(body: str, status: int,
                                                 words: str | None) -> None:
    async def scenario() -> str | None:
        async with httpx.AsyncClient(transport=page(body, status)) as http:
            problem: str | None = await load_web.rated_once(http, "http://s", "loadxa0",
                                                            wait=0.0)
            return problem

    problem = asyncio.run(scenario())
    if words is None:
        assert problem is None
    else:
        assert problem is not None and words in problem


def test_the_number_of_rated_games_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["load_web.py", "--rated", "1001"])
    with pytest.raises(SystemExit) as stopped:
        load_web.parse()
    assert "--rated" in str(stopped.value)


@pytest.mark.slow
def test_a_short_run_with_a_rated_game_rates_it_and_loses_no_move(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--rated", "1", "--moves", "3",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())
    assert figures["played"] == 1 and figures["failed"] == 0
    rated = figures["rated"]
    assert rated["accounts"] == 2 and rated["finished"] == 1 and rated["failed"] == 0
    assert rated["moves"] == 6 and rated["ack_ms"] and rated["delivery_ms"]
    assert rated["ratings_checked"] == rated["ratings_right"] == 1
    records = figures["records"]
    assert records["checked"] and records["games_stored"] == records["games"] == 2
    assert records["lost"] == {"computer": 0, "rated": 0}
    assert records["moves"]["rated"] == 6 and records["moves"]["computer"] == 3
    assert "ratings: 1 of 1 games over moved both players' ratings once" in done.stdout
