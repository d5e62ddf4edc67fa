"""Pairing (docs/server.md, "Pairing"; casino.web.pairing): "Play someone now" joins the
best open seek of the pool (the nearest rating within a range that widens with the
seek's age) or makes one; two waiting seekers are paired, the newer joining the older;
rated pairing needs sign-in; a player keeps one seek; hostile fields are refused naming
the field and change nothing.

Several browsers on one app; the time is the test's (Pairing.clock), never waited for.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.web.accounts.names import skeleton
from casino.web.accounts.ratings import SIGN_IN_TO_MAKE
from casino.web.accounts.store import AccountStore, RatingRow
from casino.web.bodies import check_answer
from casino.web.pairing import (
    NOT_YOUR_SEEK,
    WITHDRAWN,
    Pairing,
    pairing_of,
    rating_range,
)
from casino.web.store import GameRow, Store, now

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    ACCOUNTS,
    Seat,
    TestClient,
    browser,
    sign_up,
    web,
)

PASSWORD = "correct horse battery"
ROUTE = "POST /api/pairing"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def store_of(client: TestClient) -> Store:
    """The app's store."""
    store: Store = client.app.state.service.store  # type: ignore[attr-defined]
    return store


def pairing(client: TestClient) -> Pairing:
    """The app's pairing."""
    return pairing_of(client.app.state.service)  # type: ignore[attr-defined]


def play_now(client: TestClient, status: int = 200, **body: Any) -> dict[str, Any]:
    """Press "Play someone now" (casino, two players, casual unless ``body`` says)."""
    r = client.post("/api/pairing", json={"rules": "casino", "players": 2, **body})
    assert r.status_code == status, r.text
    answer: dict[str, Any] = r.json()
    check_answer(ROUTE, r.status_code, answer)
    return answer


def account(client: TestClient, name: str) -> TestClient:
    """A browser of its own (its own network) signed up and in as ``name``."""
    b = browser(client, f"10.0.{len(name) * 7 % 250}.{ord(name[0])}")
    assert sign_up(b, name, PASSWORD).status_code == 201
    return b


def rate(client: TestClient, name: str, rating: float) -> None:
    """Give ``name`` a rating in the casino two-player pool, straight in the table."""
    store = store_of(client)
    found = AccountStore(store).find(skeleton(name))
    assert found is not None
    with Session(store.engine) as s, s.begin():
        s.add(RatingRow(account=found[0].id, preset="casino", players=2, rating=rating,
                        deviation=100.0, volatility=0.06, games=5, updated=now()))


def games(client: TestClient) -> int:
    with Session(store_of(client).engine) as s:
        return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)


def status_of(client: TestClient, game: str) -> str:
    with Session(store_of(client).engine) as s:
        row = s.get(GameRow, game)
        assert row is not None
        return row.status


def test_the_range_widens_with_the_wait() -> None:
    assert rating_range(0) == 100 and rating_range(9.9) == 100
    assert rating_range(10) == 150 and rating_range(65) == 400
    assert rating_range(120) == float("inf")


def test_two_guests_pressing_play_now_sit_at_one_table(app: TestClient) -> None:
    ann, bob = browser(app, "10.1.0.1"), browser(app, "10.2.0.1")
    first = play_now(ann)
    assert first["waiting"] is True
    second = play_now(bob)
    assert second == {"game": first["game"], "url": first["url"], "waiting": False}
    again = play_now(ann, seek=first["game"])  # Ann's lobby asks again: she is paired
    assert again["waiting"] is False and again["game"] == first["game"]
    with ann.websocket_connect(f"/ws/{first['game']}") as wa, \
            bob.websocket_connect(f"/ws/{first['game']}") as wb:
        assert Seat(wa).hello(0)["view"]["you"] == 0
        assert Seat(wb).hello(0)["view"]["you"] == 1


def test_the_rating_range_filters_and_widens_with_the_seeks_age(app: TestClient) -> None:
    ann, bob, cid = account(app, "Ann"), account(app, "Bob"), account(app, "Cid")
    rate(app, "Ann", 1500.0)
    rate(app, "Bob", 1800.0)
    rate(app, "Cid", 1560.0)
    seek = play_now(ann, rated=True)
    assert seek["waiting"] is True
    created = pairing(app).open_seeks("casino", 2, True, now() - dt.timedelta(hours=1))[0]
    p = pairing(app)
    # Bob is 300 away: a fresh seek (±100) or one a minute old (±400 only at 60 s: 350)
    # is out of his range, so he waits in a seek of his own.
    p.clock = lambda: created.created + dt.timedelta(seconds=30)
    bob_seek = play_now(bob, rated=True)
    assert bob_seek["waiting"] is True and bob_seek["game"] != seek["game"]
    # Cid is 60 away from Ann, 240 from Bob: Ann's is the nearest.
    paired = play_now(cid, rated=True)
    assert paired == {"game": seek["game"], "url": seek["url"], "waiting": False}
    # Two minutes on, anyone will do: Dan (new, 1500) joins Bob's, 300 away.
    dan = account(app, "Dan")
    p.clock = lambda: created.created + dt.timedelta(seconds=125)
    assert play_now(dan, rated=True)["game"] == bob_seek["game"]
    p.clock = now


def test_widening_by_the_seeks_age(app: TestClient) -> None:
    ann, bob = account(app, "Ann"), account(app, "Bob")
    rate(app, "Ann", 1500.0)
    rate(app, "Bob", 1640.0)  # 140 away: within ±150 once Ann's seek is 10 s old
    seek = play_now(ann)
    created = pairing(app).open_seeks("casino", 2, False, now() - dt.timedelta(hours=1))[0]
    p = pairing(app)
    p.clock = lambda: created.created + dt.timedelta(seconds=5)
    waiting = play_now(bob)
    assert waiting["waiting"] is True
    p.clock = lambda: created.created + dt.timedelta(seconds=11)
    # Bob's lobby asks again: his seek is newer, so he joins Ann's, and his is withdrawn.
    paired = play_now(bob, seek=waiting["game"])
    assert paired["game"] == seek["game"] and paired["waiting"] is False
    assert status_of(app, waiting["game"]) == WITHDRAWN
    assert waiting["game"] not in {g["game"] for g in app.get("/api/games").json()["open"]}
    p.clock = now


def test_rated_pairing_needs_sign_in(app: TestClient) -> None:
    guest = browser(app, "10.3.0.1")
    before = games(app)
    assert play_now(guest, 403, rated=True) == {"error": SIGN_IN_TO_MAKE}
    assert games(app) == before


def test_casual_and_rated_seeks_are_apart(app: TestClient) -> None:
    ann, bob = account(app, "Ann"), account(app, "Bob")
    casual = play_now(ann)
    rated = play_now(bob, rated=True)
    assert rated["waiting"] is True and rated["game"] != casual["game"]


def test_one_seek_per_player_the_second_replaces_the_first(app: TestClient) -> None:
    ann = account(app, "Ann")
    first = play_now(ann)
    refused = play_now(ann, 400, players=3)  # the preset is for two: nothing changes
    assert "not 3" in refused["error"] and status_of(app, first["game"]) == "waiting"
    second = play_now(ann, rated=True)
    assert second["waiting"] is True and second["game"] != first["game"]
    assert status_of(app, first["game"]) == WITHDRAWN
    # Never paired with herself: asking again keeps her waiting in her own seek.
    assert play_now(ann, rated=True, seek=second["game"]) == second
    # Her old lobby asks with the withdrawn seek: it seeks anew, the second withdrawn.
    third = play_now(ann, seek=first["game"])
    assert third["waiting"] is True and third["game"] not in (first["game"], second["game"])
    assert status_of(app, second["game"]) == WITHDRAWN


def test_a_seek_not_ones_own_is_refused(app: TestClient) -> None:
    ann, bob = browser(app, "10.1.0.1"), browser(app, "10.2.0.1")
    seek = play_now(ann)
    before = games(app)
    assert play_now(bob, 400, seek=seek["game"]) == {"error": NOT_YOUR_SEEK}
    assert play_now(bob, 400, seek="nothing") == {"error": NOT_YOUR_SEEK}
    assert games(app) == before and status_of(app, seek["game"]) == "waiting"


@pytest.mark.parametrize(("field", "value"), [
    ("rules", "snap"), ("rules", 5), ("players", 5), ("players", "2"), ("rated", "yes"),
    ("seek", 7), ("seek", "x" * 65), ("colour", "red")])
def test_hostile_fields_are_refused_naming_the_field(app: TestClient, field: str,
                                                     value: Any) -> None:
    guest = browser(app, "10.4.0.1")
    before = games(app)
    answer = play_now(guest, 400, **{field: value})
    assert answer["error"].startswith(f"\"{field}\""), answer
    assert games(app) == before
