"""Several server processes on one database: the lease that makes a computer's move
(or a hint) the work of one process at a time, and the fan-out of every stored change
to the other processes (PostgreSQL's LISTEN/NOTIFY), so players connected to
different processes all see every move.

The two "processes" here are two apps in one test process, each with its own event
loop, database threads and listening connection; ``tests/test_web_cluster.py`` runs
real server processes."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from casino.engine.record import read_record
from casino.web import create_app
from casino.web.service import GameService
from casino.web.store import Store
from casino.web.table_events import Event
from tests.web_helpers import FAST, POSTGRES, Seat, db_url, scan

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient


def _game(store: Store) -> str:
    store.create(game_id="0123456789abcdef", rules="casino", players=2, names=["A", "B"],
                 mode="computer", level="beginner", status="playing", public=False,
                 invite=None, creator_seat=0, record="casino-record/1\n", seats={})
    return "0123456789abcdef"


def test_a_lease_is_one_process_s_until_it_runs_out(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    try:
        gid = _game(store)
        assert store.take_lease(gid, "computer", 0, "A", 30).held
        refused = store.take_lease(gid, "computer", 0, "B", 30)
        assert not refused.held and refused.wait is not None and 0 < refused.wait <= 30
        assert store.take_lease(gid, "computer", 0, "A", 30).held  # the holder keeps it
        assert store.take_lease(gid, "hint", 0, "B", 30).held  # another kind is apart
        # A process behind the game (it is at version 0, not 1) takes nothing.
        behind = store.take_lease(gid, "computer", 1, "B", 30)
        assert not behind.held and behind.wait is None
        # A lease that ran out (its holder died) is taken over.
        assert store.take_lease(gid, "computer", 0, "A", -1).held
        assert store.take_lease(gid, "computer", 0, "B", 30).held
        assert not store.take_lease(gid, "computer", 0, "A", 30).held
        # A lease of an older version is no lease of the new one.
        stored = store.load(gid)
        assert stored is not None
        store.save(gid, record=stored.record, status="playing", version=1,
                   events=[Event(1, "move", 0, "Ah", "A played Ah", None)])
        assert store.take_lease(gid, "computer", 1, "A", 30).held
    finally:
        store.close()


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined,no-any-return]


@pytest.mark.skipif(not POSTGRES, reason="the fan-out between processes is PostgreSQL's "
                    "LISTEN/NOTIFY (make test-postgres)")
def test_players_on_two_servers_see_every_move_of_each_other(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    with TestClient(create_app(url, pool_workers=0, limits=FAST)) as a, \
            TestClient(create_app(url, pool_workers=0, limits=FAST)) as b:
        one, two = service_of(a), service_of(b)

        async def make() -> tuple[str, str, str]:
            created = one.rooms.create(rules="casino", players=2, level="beginner",
                                 mode="friends", name="Ann", seed=4)
            assert created.invite is not None
            token, _ = await one.rooms.join(created.game, created.invite.rsplit("/", 1)[1], "Bob")
            return created.game, created.token, token

        gid, ann, bob = a.portal.call(make)  # type: ignore[union-attr]
        a.cookies.set("casino", ann)
        b.cookies.set("casino", bob)
        with a.websocket_connect(f"/ws/{gid}") as wa, b.websocket_connect(f"/ws/{gid}") as wb:
            seats = {0: Seat(wa), 1: Seat(wb)}
            for n, seat in seats.items():
                assert seat.hello(0)["view"]["you"] == n
            moves = 0
            while seats[0].view["status"] not in ("round_over", "over"):
                mover = next(s for s in seats.values() if s.view["your_turn"])
                before = mover.version
                mover.play_first()
                for seat in seats.values():  # both hear of it, whichever server stored it
                    seat.until_version(before + 1)
                assert seats[0].version == seats[1].version
                moves += 1
            assert moves >= 20  # a whole round of two hands of four, six deals
        events = [[e for m in s.payloads if m["type"] == "state" for e in m["events"]]
                  for s in seats.values()]
        assert [e["n"] for e in events[0]] == [e["n"] for e in events[1]] \
            == list(range(1, seats[0].version + 1))
        stored = one.store.load(gid)
        assert stored is not None
        record = read_record(stored.record)
        for n, seat in seats.items():
            assert scan(seat.payloads, n, record) > moves
        assert one.live.refreshed > 0 and two.live.refreshed > 0  # each read the other's moves
