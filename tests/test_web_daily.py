"""The daily deal (docs/server.md, "The daily deal"): one deck a day per preset, drawn
from the system's random source and stored; one play per player; the results shown to
those who finished, the deck and everyone's games once the day is over; past days
replayed, reviewed and played again for practice. The day is the test's clock, never
the wall's."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from casino.engine.record import read_record
from casino.web import daily
from casino.web.daily import (
    DAILY,
    NAME_FIRST,
    PLAY_FIRST,
    Daily,
    margin_of,
    margin_words,
    player_key,
)
from casino.web.daily_store import DailyEntryRow, DailyStore, Entry
from casino.web.service import LiveGame
from casino.web.store import OVER, GameRow

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    FAST,
    Seat,
    TestClient,
    browser,
    csrf_of,
    guest,
    sign_up,
    web,
)

#: The words of the results page held back from a player who has not finished, as shown.
PLAY_FIRST_HTML = str(escape(PLAY_FIRST))
DAY = dt.datetime(2031, 5, 6, 12, 0, tzinfo=dt.UTC)
TODAY, TOMORROW = "2031-05-06", "2031-05-07"


class Clock:
    """The daily deal's clock, moved by the test."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY)


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with web(tmp_path) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        service.daily.clock = clock
        service.daily.level = "beginner"  # quick to answer; the server's is the expert
        yield c


def _daily(client: TestClient) -> Daily:
    d: Daily = client.app.state.service.daily  # type: ignore[attr-defined]
    return d


def _start(client: TestClient, rules: str = "casino", name: str | None = "Ann") -> str:
    r = client.post(f"/api/daily/{rules}", json={} if name is None else {"name": name})
    assert r.status_code == 201, r.text
    return str(r.json()["game"])


def _game(client: TestClient, game: str) -> LiveGame:
    g = client.portal.call(_daily(client).service.live.get, game)  # type: ignore[union-attr]
    assert g is not None
    return g


def _record(client: TestClient, game: str) -> Any:
    return read_record(_game(client, game).session.record_text())


def _play_to_the_end(client: TestClient, game: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{game}") as ws:
        seat = Seat(ws)
        seat.hello()
        for _ in range(200):
            v = seat.until_actionable()
            if v["status"] == "over":
                return v
            assert v["status"] != "round_over", "a daily deal ends with its round"
            seat.play_first()
            seat.recv_type("state")
    raise AssertionError("the deal did not end")


class Recording(random.Random):
    """A random source that says what it was asked for."""

    def __init__(self) -> None:
        super().__init__(5)
        self.shuffled: list[list[int]] = []

    def shuffle(self, x: Any) -> None:
        super().shuffle(x)
        self.shuffled.append(list(x))


def test_the_deck_is_drawn_from_the_system_random_source_and_stored(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(daily.SYSTEM_RANDOM, random.SystemRandom)
    source = Recording()
    monkeypatch.setattr(daily, "SYSTEM_RANDOM", source)
    game = _start(client)
    assert len(source.shuffled) == 1
    deal = _daily(client).deals.deal(TODAY, "casino")
    assert deal is not None and list(deal.deck) == source.shuffled[0]
    rnd = _record(client, game).rounds[0]
    assert rnd.deck == deal.deck and rnd.dealer == deal.dealer
    # The day's deal is made once: another start, another preset's deal, is another draw.
    _start(guest(client), name="Bob")
    assert len(source.shuffled) == 1
    _start(client, rules="classic")
    assert len(source.shuffled) == 2


def test_two_players_get_the_same_deck_and_play_it_once(client: TestClient) -> None:
    bob = guest(client)
    ann_game, bob_game = _start(client), _start(bob, name="Bob")
    assert ann_game != bob_game
    ann, bob_r = _record(client, ann_game), _record(bob, bob_game)
    assert ann.rounds[0].deck == bob_r.rounds[0].deck
    assert ann.rounds[0].dealer == bob_r.rounds[0].dealer
    assert ann.names[0] == "Ann" and ann.table.hints is False and ann.table.takebacks is False
    # Starting again gives the same game, never a fresh deal, played or not.
    assert _start(client) == ann_game
    _play_to_the_end(client, ann_game)
    assert _start(client, name="Another") == ann_game
    page = client.get(f"/game/{ann_game}")
    assert page.status_code == 200


def test_a_guest_must_choose_a_name_and_bad_bodies_change_nothing(client: TestClient) -> None:
    for body, words in (({}, NAME_FIRST), ({"name": "  "}, NAME_FIRST),
                        ({"name": "\u200b\u202e"}, NAME_FIRST), ({"name": "\x00"}, NAME_FIRST),
                        ({"name": 5}, "\"name\""), ({"name": "Ann", "x": 1}, "\"x\""),
                        ({"name": "x" * 201}, "\"name\"")):
        r = client.post("/api/daily/casino", json=body)
        assert r.status_code == 400 and r.json()["error"].startswith(words), r.text
    assert client.post("/api/daily/poker", json={"name": "Ann"}).status_code == 404
    assert client.get("/daily/2031-13-01/casino").status_code == 404
    assert client.get("/daily/yesterday/casino").status_code == 404
    assert _daily(client).deals.entries_of(TODAY, ["guest x"]) == []
    assert client.cookies.get("casino") is None  # no game, no seat cookie
    # An account needs no name: the account's is shown.
    assert sign_up(client, "Carol", "correct horse battery").status_code == 201
    game = _start(client, name=None)
    assert _record(client, game).names[0] == "Carol"
    _play_to_the_end(client, game)
    # Her public page lists no daily game (its id is its secret link).
    page = guest(client).get("/player/Carol")
    assert page.status_code == 200 and game not in page.text


def test_the_results_are_shown_once_the_player_has_finished(client: TestClient) -> None:
    bob = guest(client)
    ann_game, bob_game = _start(client), _start(bob, name="Bob")
    page = client.get(f"/daily/{TODAY}/casino")
    assert PLAY_FIRST_HTML in page.text and "daily-ranked" not in page.text
    view = _play_to_the_end(client, ann_game)
    assert view["daily"] == f"/daily/of/{ann_game}" and view["can_resign"] is False
    assert view["result"]["summary"] == margin_words(margin_of(_game(client, ann_game).session))
    follow = client.get(view["daily"], follow_redirects=False)
    assert follow.headers["location"] == f"/daily/{TODAY}/casino"
    page = client.get(f"/daily/{TODAY}/casino")
    assert PLAY_FIRST_HTML not in page.text and "Ann" in page.text
    assert f"/records/{ann_game}" in page.text  # her own game
    assert bob_game not in page.text
    assert PLAY_FIRST_HTML in bob.get(f"/daily/{TODAY}/casino").text
    # Her game is hers until the day is over: Bob, who has the link, is refused.
    assert client.get(f"/records/{ann_game}").status_code == 200
    for url in (f"/records/{ann_game}", f"/api/records/{ann_game}",
                f"/records/{ann_game}.rec", f"/api/games/{ann_game}/review"):
        assert bob.get(url).status_code == 403, url
    assert bob.post(f"/api/games/{ann_game}/review").status_code == 403
    # The lobby lists no daily game for anyone else.
    assert ann_game not in bob.get("/api/games").text
    entry = _daily(client).deals.by_game(ann_game)
    game = _game(client, ann_game)
    assert game.status == OVER and entry is not None and entry.done
    assert entry.margin == margin_of(game.session) and entry.seconds == 0.0


def test_the_results_rank_accounts_by_margin_then_time_and_list_guests_apart(
        client: TestClient, clock: Clock) -> None:
    deals: DailyStore = _daily(client).deals
    _daily(client).deal(TODAY, "casino")
    rows = [("account a", "Ann", False, 3, 300), ("account b", "Bob", False, 5, 900),
            ("account c", "Cy", False, 3, 200), ("guest d", "Dee", True, 9, 10),
            ("account e", "Eve", False, 1, 5)]
    for n, (key, name, is_guest, margin, seconds) in enumerate(rows):
        entry = Entry(TODAY, "casino", key, name, is_guest, f"{n:016x}", DAY, None, None,
                      None)
        with deals.store.transaction() as s:
            assert deals.add_entry(s, entry)
        deals.finish(entry.game, margin, DAY + dt.timedelta(seconds=seconds))
    shown = _daily(client).results(TODAY, "casino", ["account a"])
    assert shown.shown and not shown.revealed and shown.deal is None
    assert [e.name for e in shown.ranked] == ["Bob", "Cy", "Ann", "Eve"]
    assert [e.name for e in shown.guests] == ["Dee"]
    page = client.get(f"/daily/{TODAY}/casino")
    assert PLAY_FIRST_HTML in page.text  # this browser has not played
    clock.now += dt.timedelta(days=1)
    assert _daily(client).results(TODAY, "casino", []).revealed


def test_a_results_list_shows_the_best_few_however_many_played(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each list is cut at RESULTS_SHOWN, the best kept: a flood of guests' plays (from
    many networks) makes no page longer, nor its reading."""
    monkeypatch.setattr(daily, "RESULTS_SHOWN", 2)
    deals: DailyStore = _daily(client).deals
    _daily(client).deal(TODAY, "casino")
    for n in range(5):
        for is_guest in (False, True):
            entry = Entry(TODAY, "casino", f"{'guest' if is_guest else 'account'} {n}",
                          f"P{n}", is_guest, f"{n:015x}{int(is_guest)}", DAY, None, None,
                          None)
            with deals.store.transaction() as s:
                assert deals.add_entry(s, entry)
            deals.finish(entry.game, n, DAY + dt.timedelta(seconds=60))
    shown = _daily(client).results(TODAY, "casino", ["account 0"])
    assert [e.name for e in shown.ranked] == ["P4", "P3"]
    assert [e.name for e in shown.guests] == ["P4", "P3"]


def test_the_deck_and_everyones_games_are_revealed_when_the_day_ends(
        client: TestClient, clock: Clock) -> None:
    bob = guest(client)
    ann_game, bob_game = _start(client), _start(bob, name="Bob")
    _play_to_the_end(client, ann_game)
    _play_to_the_end(bob, bob_game)
    page = bob.get(f"/daily/{TODAY}/casino").text
    assert ann_game not in page and "daily-deck" not in page
    assert bob.get(f"/records/{ann_game}").status_code == 403
    clock.now = dt.datetime(2031, 5, 7, 0, 0, tzinfo=dt.UTC)  # the next day (UTC)
    stranger = guest(client)
    page = stranger.get(f"/daily/{TODAY}/casino").text
    deal = _daily(client).deals.deal(TODAY, "casino")
    assert deal is not None
    assert "daily-deck" in page and ann_game in page and bob_game in page
    assert "Guests" in page and "not ranked with accounts" in page
    for game in (ann_game, bob_game):
        assert stranger.get(f"/records/{game}").status_code == 200
        replay = stranger.get(f"/api/records/{game}").json()
        assert replay["positions"][0]["hands"][0]  # every hand shown
        assert replay["result"]["summary"].startswith("The daily deal is over: ")
        assert stranger.get(f"/api/games/{game}/review").status_code == 200
    # Today is a new day with a new deal; yesterday's can be played again, unranked.
    assert _daily(client).today() == TOMORROW
    r = stranger.post(f"/api/daily/{TODAY}/casino/practice")
    assert r.status_code == 201, r.text
    practice = r.json()["game"]
    assert _record(stranger, practice).rounds[0].deck == deal.deck
    assert _daily(client).deals.by_game(practice) is None  # no entry: not ranked
    assert stranger.post(f"/api/daily/{TOMORROW}/casino/practice").status_code == 409
    assert _start(stranger, name="Stranger") not in (ann_game, bob_game, practice)
    assert f"/daily/{TODAY}/casino" in stranger.get("/daily").text  # yesterday's, linked


def test_a_deal_finished_after_its_day_is_over_is_not_ranked(client: TestClient,
                                                             clock: Clock) -> None:
    """Once the day is over its deck and games are shown: a game of that day left
    unfinished may still be played, but no longer counts."""
    bob = guest(client)
    ann_game, bob_game = _start(client), _start(bob, name="Bob")
    _play_to_the_end(client, ann_game)
    clock.now += dt.timedelta(days=1)
    _play_to_the_end(bob, bob_game)
    late = _daily(client).deals.by_game(bob_game)
    assert late is not None and late.done
    shown = _daily(client).results(TODAY, "casino", [])
    assert [e.name for e in shown.guests] == ["Ann"]


def test_two_requests_making_the_days_deal_at_once_make_one(client: TestClient) -> None:
    d = _daily(client)
    made: list[Any] = []
    gate = threading.Barrier(4)

    def make() -> None:
        gate.wait()
        made.append(d.deal(TODAY, "kasino"))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 4 and len({m.deck for m in made}) == 1
    # The loser of the insert reads the winner's row.
    other = d.deals.make_deal(TODAY, "kasino", list(reversed(made[0].deck)), 0, DAY)
    assert other.deck == made[0].deck


def test_a_daily_game_is_not_resigned_or_rematched(client: TestClient) -> None:
    game = _start(client)
    with client.websocket_connect(f"/ws/{game}") as ws:
        seat = Seat(ws)
        seat.hello()
        seat.send({"type": "resign"})
        assert "cannot be resigned" in seat.error()
    _play_to_the_end(client, game)
    with client.websocket_connect(f"/ws/{game}") as ws:
        seat = Seat(ws)
        seat.hello()
        seat.send({"type": "rematch"})
        assert "played once" in seat.error()


def test_a_result_not_noted_when_the_round_ended_is_taken_from_the_stored_game(
        client: TestClient) -> None:
    """A process stopped between storing the round's end and noting the result: the
    player's next look at the results notes it from the game as stored."""
    game = _start(client)
    _play_to_the_end(client, game)
    deals = _daily(client).deals
    noted = deals.by_game(game)
    assert noted is not None and noted.done
    with deals.store.transaction() as s:
        s.execute(update(DailyEntryRow).where(DailyEntryRow.game == game).values(
            finished=None, margin=None, seconds=None))
    assert PLAY_FIRST_HTML not in client.get(f"/daily/{TODAY}/casino").text
    again = deals.by_game(game)
    assert again is not None and again.done and again.margin == noted.margin


def test_starting_a_daily_deal_counts_against_the_new_games(tmp_path: Path,
                                                            clock: Clock) -> None:
    limits = dataclasses.replace(FAST, games_per_minute=0.001, games_burst=2)
    with web(tmp_path, limits=limits) as client:
        _daily(client).clock = clock
        _daily(client).level = "beginner"
        game = _start(client)
        assert _start(client) == game  # going back to it is no new game
        _start(client, rules="classic")
        r = client.post("/api/daily/kasino", json={"name": "Ann"})
        assert r.status_code == 429 and "too many new games" in r.json()["error"]
        key = player_key(client.cookies["casino"], None)
        assert key is not None and _daily(client).deals.entry(TODAY, "kasino", key) is None
        # Another network has its own allowance.
        other = browser(client, host="203.0.113.9")
        assert other.post("/api/daily/kasino", json={"name": "Bob"}).status_code == 201


def test_a_guests_browser_is_offered_the_name_it_took_part_under(client: TestClient,
                                                                 clock: Clock) -> None:
    _start(client, name="Zoë the Bold")
    clock.now += dt.timedelta(days=1)
    page = client.get("/daily").text
    assert 'value="Zoë the Bold"' in page
    assert 'value=""' in guest(client).get("/daily").text


def test_a_deal_played_as_a_guest_is_not_played_again_signed_in_on_that_browser(
        client: TestClient) -> None:
    game = _start(client, name="Dan")
    _play_to_the_end(client, game)
    assert sign_up(client, "Daniel", "correct horse battery").status_code == 201
    assert _start(client, name=None) == game
    assert PLAY_FIRST_HTML not in client.get(f"/daily/{TODAY}/casino").text
    assert "See results" in client.get("/daily").text


def test_a_deal_played_signed_in_is_not_played_again_as_a_guest_on_that_browser(
        client: TestClient) -> None:
    """Signing out does not make a second player of the same browser: it is given the
    account's game again (to look back on), not a fresh deal it has seen every card of."""
    assert sign_up(client, "Edith", "correct horse battery").status_code == 201
    game = _start(client, name=None)
    _play_to_the_end(client, game)
    token = csrf_of(client.get("/account").text)
    assert client.post("/signout", data={"csrf": token}).status_code == 200
    assert _start(client, name="Not Edith") == game
    with Session(_daily(client).service.store.engine) as s:
        assert s.scalar(select(func.count()).select_from(GameRow).where(
            GameRow.mode == DAILY)) == 1
    assert _start(guest(client), name="Fay") != game  # another browser plays its own


def test_two_starts_of_one_player_at_once_make_one_game(client: TestClient) -> None:
    d = _daily(client)
    d.deal(TODAY, "royal")
    made: list[str] = []
    gate = threading.Barrier(3)

    def start() -> None:
        gate.wait()
        made.append(d.start("royal", token="one-browser", account=None, name="Ann",
                            requester="network 192.0.2.0/24").game)

    threads = [threading.Thread(target=start) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 3 and len(set(made)) == 1
    with Session(d.service.store.engine) as s:  # and no game besides it
        assert s.scalar(select(func.count()).select_from(GameRow).where(
            GameRow.mode == DAILY)) == 1
    key = player_key("one-browser", None)
    assert key is not None and d.deals.entry(TODAY, "royal", key) is not None
