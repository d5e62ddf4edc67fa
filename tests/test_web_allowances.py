"""Allowances counted in the database hold across processes (docs/server.md, "Limits
across processes"): two apps on one database stand for two processes, and on
PostgreSQL (``make test-postgres``) ``casino serve --workers 2`` is attacked as the
audit did, each request on a fresh connection that either process may take.

Before, each process counted in its own memory: the audit's script made 6 rooms from
one address (3 allowed) and 60 new games a minute (30 allowed) against two processes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.web.allowances import NEVER, Allowances, Rate, RateRow, hashed
from casino.web.limits import Limits
from casino.web.pairing import pairing_of
from casino.web.store import Store
from tests.web_helpers import FAST, POSTGRES, browser, db_url, web

ROOM: dict[str, object] = {"rules": "casino", "mode": "friends", "players": 2}
COMPUTER: dict[str, object] = {"rules": "casino", "level": "beginner", "mode": "computer"}


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A database of its own."""
    s = Store(db_url(tmp_path))
    yield s
    s.close()


def test_a_bucket_gives_its_burst_then_refills_at_its_rate(store: Store) -> None:
    clock = Clock()
    one, other = Allowances(store, clock), Allowances(store, clock)  # two processes
    rate = Rate("tests", per_minute=6.0, burst=3)  # a token every 10 s
    assert [one.take(rate, "a") if k % 2 else other.take(rate, "a") for k in range(4)] == [
        True, True, True, False]
    assert other.take(rate, "b")  # another key has its own bucket
    assert other.take(Rate("other", 6.0, 3), "a")  # and another kind
    clock.t += 9.9
    assert not one.take(rate, "a")
    clock.t += 0.2  # 10.1 s since the last token: one more
    assert other.take(rate, "a") and not one.take(rate, "a")
    clock.t += 3600  # a long wait refills to the burst, no further
    assert [one.take(rate, "a") for _ in range(4)] == [True, True, True, False]


def test_a_clock_that_goes_back_refills_nothing(store: Store) -> None:
    clock = Clock()
    allowances = Allowances(store, clock)
    rate = Rate("tests", per_minute=60.0, burst=1)
    assert allowances.take(rate, "a") and not allowances.take(rate, "a")
    clock.t -= 100  # another process's clock behind this one's
    assert not allowances.take(rate, "a")


def test_a_bucket_that_never_refills_refuses_past_its_burst(store: Store) -> None:
    allowances = Allowances(store, Clock())
    assert [allowances.take(Rate("tests", 0.0, 2), "a") for _ in range(3)] == [
        True, True, False]
    assert not allowances.take(Rate("none", 0.0, 0), "a")


def test_the_table_holds_hashes_and_forgets_full_buckets(store: Store,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr("casino.web.allowances.SWEEP_EVERY", 3)
    clock = Clock()
    allowances = Allowances(store, clock)
    fast, never = Rate("fast", 60.0, 2), Rate("never", 0.0, 2)
    allowances.take(fast, "10.0.0.1")
    allowances.take(never, "10.0.0.1")
    with Session(store.engine) as s:
        rows = {r.key: r for r in s.scalars(select(RateRow))}
    assert set(rows) == {hashed("fast", "10.0.0.1"), hashed("never", "10.0.0.1")}
    assert rows[hashed("never", "10.0.0.1")].full_at == NEVER
    clock.t += 2.0  # the fast bucket is full again after a second: the third take sweeps
    allowances.take(fast, "10.0.0.2")
    with Session(store.engine) as s:
        keys = set(s.scalars(select(RateRow.key)))
    assert keys == {hashed("never", "10.0.0.1"), hashed("fast", "10.0.0.2")}


@contextmanager
def two_processes(tmp_path: Path, limits: Limits = FAST) -> Iterator[tuple[TestClient,
                                                                          TestClient]]:
    """Two apps on one database, as two processes of ``casino serve --workers 2``."""
    with web(tmp_path, limits=limits) as one, web(tmp_path, limits=limits) as two:
        yield one, two


def test_rooms_per_address_and_network_hold_across_processes(tmp_path: Path) -> None:
    limits = Limits(rooms_per_address=3, rooms_per_network=5, games_per_minute=10_000,
                    games_burst=10_000)
    with two_processes(tmp_path, limits) as (one, two):
        a = [browser(one, "10.5.5.1"), browser(two, "10.5.5.1")]
        made = [a[k % 2].post("/api/games", json=ROOM).status_code for k in range(4)]
        assert made == [201, 201, 201, 429]
        refused = a[1].post("/api/games", json=ROOM)
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("you have 3 rooms waiting")
        # The network's count, across both: two more from another address of the /24.
        b = [browser(one, "10.5.5.2"), browser(two, "10.5.5.2")]
        assert [b[k % 2].post("/api/games", json=ROOM).status_code for k in range(3)] == [
            201, 201, 429]
        refused = b[0].post("/api/games", json=ROOM)
        assert refused.json()["error"].startswith("your network has 5 rooms waiting")
        # Games against the computer are not rooms; another network is not counted.
        assert a[0].post("/api/games", json=COMPUTER).status_code == 201
        assert browser(two, "10.6.6.1").post("/api/games", json=ROOM).status_code == 201


def test_a_room_that_starts_stops_counting_in_every_process(tmp_path: Path) -> None:
    limits = Limits(rooms_per_address=1, games_per_minute=10_000, games_burst=10_000)
    with two_processes(tmp_path, limits) as (one, two):
        maker = browser(one, "10.7.7.1")
        room = maker.post("/api/games", json=ROOM)
        assert room.status_code == 201
        assert browser(two, "10.7.7.1").post("/api/games", json=ROOM).status_code == 429
        friend = browser(two, "10.8.8.1")
        joined = friend.get(room.json()["invite"] + "?name=Bo")
        assert joined.status_code == 303, joined.text
        assert browser(two, "10.7.7.1").post("/api/games", json=ROOM).status_code == 201


def test_rooms_made_at_once_by_two_processes_stop_at_the_limit(tmp_path: Path) -> None:
    """Eight threads, four on each app, make rooms from one address at once: the counts
    are read under the key's lock in the room's own transaction, so exactly three are
    made (with each process counting in its own memory, each made three or more)."""
    limits = Limits(rooms_per_address=3, games_per_minute=10_000, games_burst=10_000)
    with two_processes(tmp_path, limits) as (one, two):
        clients = [browser(app, "10.9.9.1") for app in (one, two) for _ in range(4)]
        start = threading.Barrier(len(clients))
        codes: list[int] = []

        def make(client: TestClient) -> None:
            start.wait()
            codes.append(client.post("/api/games", json=ROOM).status_code)

        threads = [threading.Thread(target=make, args=(c,)) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(codes) == [201] * 3 + [429] * 5, codes


def test_new_games_per_address_hold_across_processes(tmp_path: Path) -> None:
    limits = Limits(games_per_minute=0.001, games_burst=4)
    with two_processes(tmp_path, limits) as (one, two):
        tabs = [browser(one, "10.3.3.1"), browser(two, "10.3.3.1")]
        codes = [tabs[k % 2].post("/api/games", json=COMPUTER).status_code
                 for k in range(6)]
        assert codes == [201] * 4 + [429] * 2
        assert browser(one, "10.3.3.2").post("/api/games", json=COMPUTER).status_code == 201


def test_pairing_asks_and_the_one_seek_hold_across_processes(tmp_path: Path) -> None:
    with two_processes(tmp_path) as (one, two):
        pairing_of(one.app.state.service).asks = Rate("pairing asks", 0.0, 3)  # type: ignore[attr-defined]
        pairing_of(two.app.state.service).asks = Rate("pairing asks", 0.0, 3)  # type: ignore[attr-defined]
        ann = browser(one, "10.4.4.1")
        first = ann.post("/api/pairing", json={"rules": "casino", "players": 2,
                                               "rated": False})
        assert first.status_code == 200 and first.json()["waiting"] is True
        # The same browser asks again through the other process, without its seek's id
        # (a reloaded lobby): its first seek is withdrawn there, not kept beside the new.
        again = browser(two, "10.4.4.1")
        again.cookies = ann.cookies
        second = again.post("/api/pairing", json={"rules": "casino", "players": 2,
                                                  "rated": False})
        assert second.status_code == 200 and second.json()["game"] != first.json()["game"]
        service = one.app.state.service  # type: ignore[attr-defined]
        with Session(service.store.engine) as s:
            from casino.web.store import WAITING, GameRow

            waiting = s.scalar(select(func.count()).select_from(GameRow)
                               .where(GameRow.status == WAITING))
        assert waiting == 1
        assert ann.post("/api/pairing", json={"rules": "casino", "players": 2,
                                              "rated": False}).status_code == 200
        refused = again.post("/api/pairing", json={"rules": "casino", "players": 2,
                                                   "rated": False})
        assert refused.status_code == 429  # the network's fourth ask, in either process


# ----------------------------------------------------------------------
# The audit's attack on casino serve --workers 2 (PostgreSQL)


@pytest.mark.skipif(not POSTGRES, reason="needs CASINO_TEST_POSTGRES (make test-postgres)")
def test_the_audits_limits_hold_against_two_worker_processes(tmp_path: Path) -> None:
    """As the audit's script: 12 rooms from one address, then 80 games against the
    computer, each on a new connection. Two processes served them (their log says so);
    the address got its 3 rooms, and of its burst of 30 new games (each ask takes one,
    a refused room's too) the 18 left and those refilled meanwhile, as from one
    process (each process counting its own made 6 rooms and up to 48 games)."""
    from tests.test_web_serve_workers import casino_serve

    limits = Limits()
    with casino_serve(db_url(tmp_path), "--workers", "2", folder=tmp_path) as base:

        def made(body: dict[str, object], tries: int) -> int:
            ok = 0
            for _ in range(tries):
                transport = httpx.HTTPTransport(local_address="127.0.0.77")
                with httpx.Client(base_url=base, transport=transport, timeout=30) as c:
                    ok += c.post("/api/games", json=body).status_code == 201
            return ok

        started = time.monotonic()
        assert made(ROOM, 12) == limits.rooms_per_address
        games = made(COMPUTER, 80)
        refilled = (time.monotonic() - started) * limits.games_per_minute / 60
    left = limits.games_burst - 12
    assert left <= games <= left + refilled + 1, (games, refilled)
    log = (tmp_path / "server-S.log").read_text(errors="replace")
    assert log.count("Started server process") == 2, log
