"""Pairing (docs/server.md, "Pairing"; casino.web.pairing): "Play someone now" joins the
best open seek of the pool (the nearest rating within a range that widens with the
seek's age) or makes one; two waiting seekers are paired, the newer joining the older;
rated pairing needs sign-in; a player keeps one seek; hostile fields are refused naming
the field and change nothing.

Several browsers on one app; the time is the test's (Pairing.clock), never waited for.
"""

from __future__ import annotations

import dataclasses
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
from casino.web.allowances import Rate
from casino.web.bodies import Withdrawn, check_answer
from casino.web.challenges import (
    MAX_CHALLENGES,
    NOT_YOURS,
    SIGN_IN_TO_CHALLENGE,
    YOURSELF,
    too_many,
    unknown_name,
)
from casino.web.pairing import (
    NOT_YOUR_SEEK,
    Pairing,
    Seek,
    pairing_of,
    rating_range,
    too_often,
)
from casino.web.store import WITHDRAWN, WITHDRAWN_WORDS, GameRow, now

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    ACCOUNTS,
    Seat,
    TestClient,
    browser,
    sign_up,
    store_of,
    web,
)

PASSWORD = "correct horse battery"
ROUTE = "POST /api/pairing"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


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


def invite_of(client: TestClient, game: str) -> str:
    with Session(store_of(client).engine) as s:
        row = s.get(GameRow, game)
        assert row is not None and row.invite is not None
        return row.invite


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
    # Bob's own page of his withdrawn seek says so, in the words its invite is told.
    with bob.websocket_connect(f"/ws/{waiting['game']}") as ws:
        view = Seat(ws).hello()["view"]
    assert view["message"] == WITHDRAWN_WORDS[0].upper() + WITHDRAWN_WORDS[1:] + "."


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
    # Her lobby asks again for a casual game with the rated seek: that is withdrawn.
    casual = play_now(ann, seek=second["game"])
    assert casual["waiting"] is True and status_of(app, second["game"]) == WITHDRAWN
    second = casual
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


def lists(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/games")
    check_answer("GET /api/games", r.status_code, r.json())
    answer: dict[str, Any] = r.json()
    return answer


def test_the_lobby_lists_seeks_with_rating_and_rated_or_casual(app: TestClient) -> None:
    ann, cid = account(app, "Ann"), account(app, "Cid")
    rate(app, "Ann", 1612.4)
    rated = play_now(ann, rated=True)
    casual = play_now(browser(app, "10.5.0.1"))
    p = pairing(app)
    [ann_seek] = p.open_seeks("casino", 2, True, now() - dt.timedelta(hours=1))
    p.clock = lambda: ann_seek.created  # Ann's seek fresh: ±100
    fresh = play_now(cid, rated=True)  # Cid is new to the pool (1500): 112 from Ann
    p.clock = now
    assert fresh["waiting"] is True
    seen = {g["game"]: g for g in lists(browser(app, "10.6.0.1"))["open"]}
    assert (seen[rated["game"]]["rated"], seen[rated["game"]]["rating"],
            seen[rated["game"]]["guest"]) == (True, 1612, False)
    assert (seen[casual["game"]]["rated"], seen[casual["game"]]["rating"],
            seen[casual["game"]]["guest"]) == (False, None, True)
    assert (seen[fresh["game"]]["rating"], seen[fresh["game"]]["guest"]) == (None, False)


def challenge(client: TestClient, name: str, status: int = 201,
              **more: Any) -> dict[str, Any]:
    r = client.post("/api/challenge", json={"name": name, "rules": "casino",
                                            "players": 2, **more})
    assert r.status_code == status, r.text
    check_answer("POST /api/challenge", r.status_code, r.json())
    answer: dict[str, Any] = r.json()
    return answer


def test_a_challenge_by_name_accepted(app: TestClient) -> None:
    ann, bob, cid = account(app, "Ann"), account(app, "Bob"), account(app, "Cid")
    sent = challenge(ann, "bob", rated=True)  # the name as its skeleton: any case
    assert "invite" not in sent
    pending = {g["game"]: g for g in lists(ann)["open"]}[sent["game"]]
    assert pending["challenge"] == "Bob" and pending["rated"] is True
    assert lists(ann)["challenges"] == [] and lists(cid)["challenges"] == []
    assert sent["game"] not in {g["game"] for g in lists(cid)["open"]}  # not public
    [mine] = lists(bob)["challenges"]
    assert mine["game"] == sent["game"] and mine["names"] == ["Ann", "Bob"]
    # Only Bob may take his seat, even with the invite.
    refused = cid.get(mine["join"], params={"name": "Cid"})
    assert refused.status_code == 403 and "this challenge is for Bob" in refused.text
    accepted = bob.get(mine["join"], params={"name": ""})
    assert accepted.status_code == 303, accepted.text
    assert lists(bob)["challenges"] == []
    with ann.websocket_connect(f"/ws/{sent['game']}") as wa, \
            bob.websocket_connect(f"/ws/{sent['game']}") as wb:
        assert Seat(wa).hello(0)["view"]["you"] == 0
        assert Seat(wb).hello(0)["view"]["you"] == 1


def test_a_challenge_declined_and_one_withdrawn(app: TestClient) -> None:
    ann, bob, cid = account(app, "Ann"), account(app, "Bob"), account(app, "Cid")
    sent = challenge(ann, "Bob")
    assert cid.post(f"/api/challenges/{sent['game']}/decline").status_code == 403
    r = bob.post(f"/api/challenges/{sent['game']}/decline")
    declined = check_answer("POST /api/challenges/{game_id}/decline", r.status_code, r.json())
    assert isinstance(declined, Withdrawn) and declined.withdrawn
    assert declined.game == sent["game"]
    assert status_of(app, sent["game"]) == WITHDRAWN
    assert lists(bob)["challenges"] == []
    late = bob.get(f"/join/{sent['game']}/{invite_of(app, sent['game'])}", params={"name": ""})
    assert late.status_code == 410 and "this room was withdrawn" in late.text
    assert sent["game"] not in {g["game"] for g in lists(ann)["open"]}
    again = challenge(ann, "Bob")
    assert ann.post(f"/api/challenges/{again['game']}/decline").json()["withdrawn"] is True
    assert bob.post(f"/api/challenges/{again['game']}/decline").json()["withdrawn"] is False


def test_challenges_refused_in_words(tmp_path: Path) -> None:
    roomy = dataclasses.replace(ACCOUNTS, rooms_per_address=20, rooms_per_network=20)
    with web(tmp_path, limits=roomy) as app:
        refused_in_words(app)


def refused_in_words(app: TestClient) -> None:
    """A guest, an unknown name, oneself, a bad field, and one challenge too many."""
    ann = account(app, "Ann")
    account(app, "Bob")
    guest = browser(app, "10.7.0.1")
    before = games(app)
    assert challenge(guest, "Ann", 403) == {"error": SIGN_IN_TO_CHALLENGE}
    assert challenge(ann, "Nobody", 400) == {"error": unknown_name("Nobody")}
    assert challenge(ann, "ANN", 400) == {"error": YOURSELF}
    assert challenge(ann, "Bob", 400, players=3)["error"].endswith("not 3")
    assert challenge(ann, "Bob", 400, colour="red")["error"].startswith("\"colour\"")
    assert games(app) == before
    for _ in range(MAX_CHALLENGES):
        challenge(ann, "Bob")
    assert challenge(ann, "Bob", 429) == {"error": too_many(MAX_CHALLENGES)}


def test_two_guests_of_one_network_are_paired(app: TestClient) -> None:
    """One seek per browser, not per network: a home's two guests play each other."""
    ann, bob = browser(app, "10.8.0.1"), browser(app, "10.8.0.2")
    seek = play_now(ann)
    assert play_now(bob) == {**seek, "waiting": False}


def test_matches_nearest_first_oldest_on_ties_never_ones_own(app: TestClient) -> None:
    t = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

    def seek(game: str, age: float, rating: float | None, account: str | None = None,
             holder: str | None = None) -> Seek:
        return Seek(game, "code", t - dt.timedelta(seconds=age), account, holder, rating)

    seeks = [seek("a", 50, 1540.0), seek("b", 40, 1460.0), seek("c", 30, 1510.0),
             seek("d", 20, 1500.0, account="me"), seek("e", 10, None, holder="h"),
             seek("f", 5, 1700.0)]
    found = pairing(app).matches(seeks, 1500.0, at=t, mine=None, account="me", holder="h")
    assert [s.game for s in found] == ["c", "a", "b"]  # f is out of range; d, e are hers
    # With a seek of her own (made 45 s ago), only older seeks: the newer joins the older.
    mine = seek("m", 45, 1500.0)
    assert [s.game for s in pairing(app).matches(seeks, 1500.0, at=t, mine=mine,
                                                 account=None, holder="x")] == ["a"]


def test_declining_what_is_no_challenge_is_refused(app: TestClient) -> None:
    ann = account(app, "Ann")
    seek = play_now(ann)
    for game in (seek["game"], "x" * 300, "nothing"):
        r = ann.post(f"/api/challenges/{game}/decline")
        assert r.status_code == 403 and r.json() == {"error": NOT_YOURS}
    assert status_of(app, seek["game"]) == "waiting"


def test_asks_are_limited_per_player(app: TestClient) -> None:
    """The network's asks are counted (a bucket that never refills here: no clock)."""
    pairing(app).asks = Rate("pairing asks", 0.0, 3)
    ann, bob = browser(app, "10.9.0.1"), browser(app, "10.9.0.2")  # one /24
    seek = play_now(ann)
    play_now(ann, seek=seek["game"])
    play_now(bob)
    before = games(app)
    assert play_now(bob, 429) == {"error": too_often("network 10.9.0.0/24")}
    assert play_now(account(app, "Cid"))["waiting"] is True  # an account counts apart
    assert games(app) == before + 1
