"""Clocks (docs/server.md, "Clocks"): a room's time control, chosen when it is made and
checked; the clock arithmetic of each control; a clock that runs out in a casual game
(the computer plays that move), in a rated one (the seat loses, rated once, its side in
partnerships); a move sent too late; and a clock that runs out after a restart.

No test waits on the wall clock: the service's clock is a fake one, moved by hand, and
the sweep (which every process runs) is called until the timeout is applied.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.measure.glicko2 import LOSS, WIN, Outcome, Rating, rate
from casino.web.clocks import ran_out, side_words
from casino.web.live import LiveGame
from casino.web.messages import State, check_sent
from casino.web.service import GameService
from casino.web.store import now
from casino.web.timecontrol import (
    GRACE_MS,
    WARN_MS,
    ClockState,
    TimeControl,
    advance,
    start_state,
    state_from_json,
    time_control,
)
from tests.test_web_ratings import PASSWORD, rated_soon, standings

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    ACCOUNTS,
    Seat,
    TestClient,
    browser,
    sign_up,
    web,
)

T0 = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


# ----------------------------------------------------------------------
# The arithmetic


def test_each_control_is_checked_within_its_bounds_and_worded() -> None:
    assert time_control("move", seconds=30).words() == "30 s a move"
    assert time_control("bank", bank=300, increment=3).words() == "5 min + 3 s a move"
    assert time_control("bank", bank=5400).words() == "1 h 30 min + 0 s a move"
    assert time_control("correspondence", days=1).words() == "1 day a move"
    assert time_control().words() == "no clock" and not time_control().runs
    for kind, values, words in [
            ("move", {"seconds": 4}, "'seconds' is 5 to 3600, not 4"),
            ("move", {}, "needs 'seconds'"),
            ("bank", {"bank": 300, "increment": 61}, "'increment' is 0 to 60"),
            ("bank", {"bank": 10801}, "'bank' is 30 to 10800"),
            ("correspondence", {"days": 15}, "'days' is 1 to 14"),
            ("move", {"seconds": 30, "days": 1}, "takes no 'days'"),
            ("blitz", {}, "one of none, move, bank, correspondence")]:
        with pytest.raises(ValueError, match=words):
            time_control(kind, **values)


def test_a_move_s_time_is_whole_again_at_each_turn() -> None:
    control = time_control("move", seconds=30)
    state = advance(control, start_state(control, 2), 0, at(0))
    assert state.deadline == at(30) and state.left_at(0, at(12)) == 18_000
    assert state.left_at(1, at(12)) == 30_000 and not state.expired(at(29.9))
    state = advance(control, state, 1, at(20))  # seat 0 moved after 20 s
    assert state.left == (30_000, 30_000) and state.running == 1 and state.deadline == at(50)
    assert state.expired(at(50))
    assert advance(control, state, 1, at(40)) is state  # the same turn: nothing changes


def test_a_bank_loses_the_time_taken_and_gains_the_increment() -> None:
    control = time_control("bank", bank=60, increment=3)
    state = advance(control, start_state(control, 2), 0, at(0))
    state = advance(control, state, 1, at(10))
    assert state.left == (53_000, 60_000)
    state = advance(control, state, 0, at(70))  # seat 1 took 60 s: all its bank
    assert state.left == (53_000, 3_000) and state.deadline == at(123)
    # Nobody's turn (a round's end, a computer's move): no clock runs.
    stopped = advance(control, state, None, at(73))
    assert stopped.running is None and stopped.deadline is None and stopped.left[0] == 53_000
    # A casual timeout: the computer played, and the seat gets a grace for its next turn.
    ran_out = advance(control, state, 1, at(123), timed_out=True)
    assert ran_out.left[0] == GRACE_MS
    assert state_from_json(ran_out.to_json()) == ran_out


def test_correspondence_counts_days() -> None:
    control = time_control("correspondence", days=3)
    state = advance(control, start_state(control, 2), 1, at(0))
    assert state.deadline == T0 + dt.timedelta(days=3)
    assert control.to_json() == {"kind": "correspondence", "seconds": 0, "bank": 0,
                                 "increment": 0, "days": 3}
    assert ClockState((1, 2)).deadline is None and TimeControl().turn_ms == 0


# ----------------------------------------------------------------------
# Served games


class FakeClock:
    """The server's time, moved by the test."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self.t = start or now()

    def __call__(self) -> dt.datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += dt.timedelta(seconds=seconds)


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def timed_room(host: TestClient, others: list[TestClient], clock: dict[str, Any],
               **more: Any) -> str:
    """A room made by ``host`` with ``clock``, every seat then taken by ``others``."""
    r = host.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                      "players": len(others) + 1, "clock": clock, **more})
    assert r.status_code == 201, r.text
    for n, other in enumerate(others):
        assert other.get(r.json()["invite"], params={"name": f"P{n + 2}"}).status_code == 303
    return str(r.json()["game"])


def live(client: TestClient, game_id: str) -> LiveGame:
    game = client.portal.call(service_of(client).live.get, game_id)  # type: ignore[union-attr]
    assert game is not None
    return game


def timed_out(client: TestClient, game_id: str, count: int = 1) -> list[Any]:
    """Sweep (as every process does) until the game has ``count`` timeout events."""
    service = service_of(client)
    for _ in range(300):
        client.portal.call(service.clocks.sweep)  # type: ignore[union-attr]
        found = [e for e in live(client, game_id).events if e.kind == "timeout"]
        if len(found) >= count:
            return found
        time.sleep(0.02)
    raise AssertionError("the clock never ran out")


def test_a_clock_is_for_a_room_and_bad_controls_are_refused(app: TestClient) -> None:
    r = app.post("/api/games", json={"mode": "computer", "clock": {"kind": "move",
                                                                   "seconds": 30}})
    assert r.status_code == 400 and "a clock is for a room of people" in r.json()["error"]
    r = app.post("/api/games", json={"mode": "friends", "clock": {"kind": "move"}})
    assert r.status_code == 400 and "needs 'seconds'" in r.json()["error"]
    before = app.get("/api/games").json()
    r = app.post("/api/games", json={"mode": "friends", "clock": {"kind": "bank", "bank": 9}})
    assert r.status_code == 400 and '"clock"["bank"]' in r.json()["error"]
    assert app.get("/api/games").json() == before  # nothing was made
    # No clock: none in the state.
    plain = app.post("/api/games", json={"mode": "friends"}).json()["game"]
    with app.websocket_connect(f"/ws/{plain}") as ws:
        assert Seat(ws).hello(0)["clock"] is None


def test_a_casual_clock_running_out_has_the_computer_play_that_move(app: TestClient) -> None:
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    bob = browser(app)
    game_id = timed_room(app, [bob], {"kind": "move", "seconds": 30})
    game = live(app, game_id)
    mover = game.session.to_move
    with app.websocket_connect(f"/ws/{game_id}") as ws:
        state = Seat(ws).hello(0)
    sent = check_sent(state)  # the state as its model reads it
    assert isinstance(sent, State) and sent.clock is not None
    assert sent.clock.running == mover and sent.clock.left_ms == [30_000] * 2
    assert sent.clock.words == "30 s a move" and sent.clock.warn_ms == WARN_MS == 10_000
    assert sent.clock.server_time == clock.t.isoformat() and sent.clock.control.seconds == 30
    clock.advance(29)
    assert client_sweep(app) == 0 and game.session.to_move == mover  # not yet
    clock.advance(2)  # nobody is connected: the clock runs all the same
    event = timed_out(app, game_id)[0]
    name = game.session.names[mover]
    assert event.seat == mover and event.words.startswith(
        ran_out(name) + ": the computer played for them")
    assert game.events[event.n].kind == "move" and game.events[event.n].seat == mover
    assert game.session.to_move != mover and game.status == "playing"
    assert game.clock is not None and game.clock.state.running == game.session.to_move
    assert game.clock.state.deadline == clock.t + dt.timedelta(seconds=30)
    assert service.clocks.fired == 1  # once, whoever swept


def client_sweep(client: TestClient) -> int:
    return int(client.portal.call(service_of(client).clocks.sweep))  # type: ignore[union-attr]


def test_a_move_sent_after_the_deadline_is_refused_and_timed_out(app: TestClient) -> None:
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    bob = browser(app)
    game_id = timed_room(app, [bob], {"kind": "bank", "bank": 60, "increment": 5})
    game = live(app, game_id)
    player = app if game.session.to_move == 0 else bob
    clock.advance(10)
    with player.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.hello(0)
        mover = seat.view["to_move"]
        seat.play_first()
        seat.recv_type("state")
        assert game.clock is not None and game.clock.state.left[mover] == 55_000
    other = bob if player is app else app
    clock.advance(61)
    with other.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.hello(0)
        seat.play_first()
        assert seat.error() == "your time ran out: the computer plays this move for you"
    assert timed_out(app, game_id)[0].seat == 1 - mover


@pytest.fixture
def people(app: TestClient) -> list[TestClient]:
    """Ann, Bob, Cyd and Dee, signed up and in, each in a browser of their own."""
    found = []
    for name in ("Ann", "Bob", "Cyd", "Dee"):
        b = browser(app)
        assert sign_up(b, name, PASSWORD).status_code == 201
        found.append(b)
    return found


def test_a_rated_clock_running_out_loses_the_game_rated_once(
        app: TestClient, people: list[TestClient]) -> None:
    ann, bob = people[:2]
    clock = service_of(app).clocks.now = FakeClock()
    game_id = timed_room(ann, [bob], {"kind": "move", "seconds": 20}, rated=True)
    game = live(app, game_id)
    loser = game.session.to_move
    clock.advance(21)
    event = timed_out(app, game_id)[0]
    names = game.session.names
    assert event.words == f"{names[loser]}'s time ran out" and event.seat == loser
    assert game.status == "over" and game.session.winner == 1 - loser
    over = game.events[-1]
    assert over.kind == "game_over" and over.words == (
        f"{names[loser]}'s time ran out: {names[loser]} loses, {names[1 - loser]} wins")
    with ann.websocket_connect(f"/ws/{game_id}") as ws:
        view = Seat(ws).hello(0)["view"]
    assert view["game_over"] and view["result"]["summary"] == over.words
    new = Rating()
    assert rated_soon(app, names[loser]).rating == rate(new, [Outcome(new, LOSS)])
    assert rated_soon(app, names[1 - loser]).rating == rate(new, [Outcome(new, WIN)])
    assert client_sweep(app) == 0  # nothing runs any more
    assert len(standings(app, names[loser])) == 1 and standings(app, names[loser])[0].games == 1


def test_in_partnerships_the_side_of_the_seat_that_ran_out_loses(
        app: TestClient, people: list[TestClient]) -> None:
    ann, bob, cy, dee = people
    clock = service_of(app).clocks.now = FakeClock()
    game_id = timed_room(ann, [bob, cy, dee], {"kind": "move", "seconds": 20}, rated=True,
                         rules="classic")
    game = live(app, game_id)
    loser = game.session.to_move
    clock.advance(21)
    timed_out(app, game_id)
    names = game.session.names
    partner = (loser + 2) % 4
    winners = [names[(loser + 1) % 4], names[(loser + 3) % 4]]
    assert game.status == "over" and game.session.rules.team_of(game.session.winner or 0) \
        != game.session.rules.team_of(loser)
    assert game.events[-1].words == side_words(game.session, loser) == (
        f"{names[loser]}'s time ran out: {names[min(loser, partner)]} and "
        f"{names[max(loser, partner)]} lose, {' and '.join(sorted(winners, key=names.index))}"
        " win")


def test_a_clock_runs_out_after_a_restart(tmp_path: Path) -> None:
    start = now()
    with web(tmp_path, limits=ACCOUNTS) as first:
        service_of(first).clocks.now = FakeClock(start)
        game_id = timed_room(first, [browser(first)], {"kind": "correspondence", "days": 2})
        mover = live(first, game_id).session.to_move
    with web(tmp_path, limits=ACCOUNTS) as second:
        clock = service_of(second).clocks.now = FakeClock(start)
        clock.advance(2 * 86_400 - 1)
        assert client_sweep(second) == 0
        clock.advance(2)
        assert timed_out(second, game_id)[0].seat == mover


def test_the_invite_and_the_lobby_tell_the_clock_and_whose_turn_it_is(
        app: TestClient) -> None:
    clock = service_of(app).clocks.now = FakeClock()
    r = app.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                     "clock": {"kind": "correspondence", "days": 3}})
    game_id, invite = r.json()["game"], r.json()["invite"]
    bob = browser(app)
    page = bob.get(invite).text
    assert 'id="join-clock"' in page and "3 days a move" in page
    assert "when a clock runs out, the computer plays that move" in page  # casual
    assert bob.get(invite, params={"name": "Bob"}).status_code == 303
    mover = live(app, game_id).session.to_move
    clock.advance(86_400 + 3600 + 5)  # a day and an hour later, the player comes back
    players = {0: app, 1: bob}
    for seat, player in players.items():
        entry = next(e for e in player.get("/api/games").json()["recent"]
                     if e["game"] == game_id)
        assert entry["clock"] == "3 days a move"
        assert entry["turn"] == ("your turn: 1 day 22 h left" if seat == mover else None)
    assert 'id="clock-select"' in app.get("/").text  # the lobby's form offers clocks


def test_pairing_joins_only_a_seek_of_the_same_clock(app: TestClient) -> None:
    ann, bob, cyd = (browser(app, f"10.0.{n}.1") for n in (1, 2, 3))
    clock = {"kind": "move", "seconds": 30}
    ask = {"rules": "casino", "players": 2}
    seek = ann.post("/api/pairing", json={**ask, "clock": clock}).json()
    assert seek["waiting"]
    plain = bob.post("/api/pairing", json=ask).json()  # no clock: another pool
    assert plain["waiting"] and plain["game"] != seek["game"]
    paired = cyd.post("/api/pairing", json={**ask, "clock": clock}).json()
    assert not paired["waiting"] and paired["game"] == seek["game"]
    game = live(app, seek["game"])
    assert game.clock is not None and game.clock.control == time_control("move", seconds=30)
    assert game.clock.state.running == game.session.to_move  # the game began: it runs
    assert live(app, plain["game"]).clock is None


def test_a_challenge_has_the_clock_it_was_sent_with(app: TestClient,
                                                    people: list[TestClient]) -> None:
    r = people[0].post("/api/challenge", json={"name": "Bob", "rules": "casino",
                                               "clock": {"kind": "correspondence",
                                                         "days": 3}})
    assert r.status_code == 201, r.text
    game = live(app, r.json()["game"])
    assert game.clock is not None and game.clock.control.words() == "3 days a move"
    assert game.clock.state.running is None  # waiting for Bob: no clock runs


def test_in_a_game_of_three_the_seat_that_ran_out_loses_and_the_others_play_on(
        app: TestClient, people: list[TestClient]) -> None:
    ann, bob, cyd = people[:3]
    clock = service_of(app).clocks.now = FakeClock()
    game_id = timed_room(ann, [bob, cyd], {"kind": "move", "seconds": 20}, rated=True,
                         rules="classic")
    game = live(app, game_id)
    loser = game.session.to_move
    clock.advance(21)
    event = timed_out(app, game_id)[0]
    name = game.session.names[loser]
    assert event.words == (f"{name}'s time ran out: the computer plays for them from now "
                           "on, and they lose")
    assert game.status == "playing" and game.session.players[loser] != "human"
    assert game.events[event.n].kind == "takeover"
    # The computer's turn runs no clock; the next person's does.
    assert game.clock is not None and game.clock.state.running in (None,
                                                                    game.session.to_move)


def test_the_process_holding_the_game_fires_at_the_deadline_by_its_timer(
        app: TestClient) -> None:
    service = service_of(app)
    sweeper = service.clocks._sweeper
    assert sweeper is not None
    app.portal.call(sweeper.cancel)  # type: ignore[union-attr]  # the timer alone is left
    ahead = dt.timedelta()
    service.clocks.now = lambda: now() + ahead  # the real time, moved on by hand
    game_id = timed_room(app, [browser(app)], {"kind": "move", "seconds": 30})
    game = live(app, game_id)
    ahead = dt.timedelta(seconds=29.9)  # the timer is armed again for the 0.1 s left
    app.portal.call(service.clocks.arm, game)  # type: ignore[union-attr]
    for _ in range(500):
        if any(e.kind == "timeout" for e in game.events):
            break
        time.sleep(0.02)
    else:
        raise AssertionError("the timer never fired")
    assert service.clocks.fired == 1


def test_a_rematch_has_the_same_clock(app: TestClient) -> None:
    service = service_of(app)
    game_id = timed_room(app, [browser(app)], {"kind": "bank", "bank": 300, "increment": 3})
    game = live(app, game_id)
    app.portal.call(service.turns.resign, game, 0)  # type: ignore[union-attr]
    assert game.status == "over" and game.clock is not None
    assert game.clock.state.running is None  # the game is over: no clock runs
    url = app.portal.call(service.rooms.rematch, game, 0)  # type: ignore[union-attr]
    again = live(app, url.rsplit("/", 1)[1])
    assert again.clock is not None and again.clock.control == game.clock.control
    assert again.clock.state.running == again.session.to_move
