"""A clock runs out on the surviving process: two ``casino serve`` processes share one
PostgreSQL database; a timed room is made and filled on A, and A is killed before the
first clock runs out. B, which never had the game live, finds the clock that ran out
in its sweep of the deadlines, loads the game, and applies the timeout once
(docs/server.md, "Clocks").

Run with ``CASINO_TEST_POSTGRES`` set (``make test-postgres``); skipped otherwise.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from casino.engine.record import match_from_record, read_record
from tests.cluster_harness import Person, fresh_database, running, stored
from tests.web_helpers import POSTGRES

pytestmark = [
    pytest.mark.skipif(not POSTGRES, reason="needs a PostgreSQL server: set "
                       "CASINO_TEST_POSTGRES (make test-postgres)"),
    pytest.mark.timeout(180),
]

#: The shortest control there is: 5 seconds a move.
CLOCK = {"kind": "move", "seconds": 5}


def test_a_clock_runs_out_on_the_process_left_when_its_holder_is_killed(
        tmp_path: Path) -> None:
    assert POSTGRES is not None
    with fresh_database(POSTGRES) as database, \
            running("A", database, tmp_path) as a, running("B", database, tmp_path):
        ann, bob = Person("Ann"), Person("Bob")
        created = ann.create(a, rules="casino", players=2, mode="friends", clock=CLOCK)
        bob.join(a, created["invite"])
        game = str(created["game"])
        begun = stored(database, game)
        mover = match_from_record(read_record(begun.record)).position.to_move
        a.kill()  # A had the game live, and its timer armed
        # B's sweep finds the deadline passed; the wait is a safety net, not a measure.
        for _ in range(600):
            now = stored(database, game)
            timeouts = [e for e in now.events if e.kind == "timeout"]
            if timeouts:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("no process applied the timeout after A died")
        first = timeouts[0]
        assert first.seat == mover and first.n == begun.version + 1
        assert "the computer played for them" in first.words
        played = [e for e in now.events if e.n == first.n + 1]
        assert played and played[0].kind == "move" and played[0].seat == mover
        numbers = [e.n for e in now.events]
        assert numbers == list(range(1, len(numbers) + 1))  # each event once
