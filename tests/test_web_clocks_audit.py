"""Clocks under attack (docs/server.md, "Clocks"): the races and the corners a hostile
player or an unlucky operator meets, each on the fake server clock of
tests/test_web_clocks.py (no test waits on the wall clock): a timeout's words kept to
the end it made, a sweep that a game it cannot time out does not block, and a take-back
that is no move for a bank's increment.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update

from casino.web import clocks
from casino.web.clockstore import CLOCKS
from casino.web.errors import GameError
from casino.web.live import LiveGame
from casino.web.store import GAMES, now, utc
from casino.web.timecontrol import advance, start_state, time_control
from tests.test_web_clocks import (
    FakeClock,
    client_sweep,
    live,
    service_of,
    timed_out,
    timed_room,
)
from tests.test_web_ratings import PASSWORD, rated_soon, standings

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    ACCOUNTS,
    POSTGRES,
    Seat,
    TestClient,
    browser,
    sign_in,
    sign_up,
    store_of,
    web,
)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


@pytest.fixture
def people(app: TestClient) -> list[TestClient]:
    """Ann, Bob and Cyd, signed up and in, each in a browser of their own."""
    found = []
    for name in ("Ann", "Bob", "Cyd"):
        b = browser(app)
        assert sign_up(b, name, PASSWORD).status_code == 201
        found.append(b)
    return found


def play_round_out(app: TestClient, game: LiveGame) -> None:
    """The people play each one's first legal move (the computers theirs) until the
    round is scored; no clock is let run out."""
    service = service_of(app)
    s = game.session
    for _ in range(2000):
        if s.round_over or s.game_over:
            return
        if s.human_to_move:
            move = str(s.match.position.legal_moves()[0])
            app.portal.call(service.turns.play, game, s.to_move, move)  # type: ignore[union-attr]
        else:
            time.sleep(0.01)  # the computer's move
    raise AssertionError("the round did not end")


def test_a_timeout_in_a_game_of_three_does_not_word_the_rounds_after_it(
        app: TestClient, people: list[TestClient]) -> None:
    ann, bob, cyd = people
    clock = service_of(app).clocks.now = FakeClock()
    game_id = timed_room(ann, [bob, cyd], {"kind": "move", "seconds": 20}, rated=True,
                         rules="classic")
    game = live(app, game_id)
    loser = game.session.to_move
    clock.advance(21)
    timed_out(app, game_id)
    play_round_out(app, game)
    player = people[(loser + 1) % 3]
    with player.websocket_connect(f"/ws/{game_id}") as ws:
        view = Seat(ws).hello(0)["view"]
    assert view["result"] is not None
    # The round's own result, not "Ann's time ran out: Ann loses, Bob and Cyd win".
    assert "time ran out" not in view["result"]["summary"]


def test_take_backs_earn_no_increment(app: TestClient) -> None:
    """A bank's increment is for a move: a move taken back gives its increment back, and
    the seat whose clock ran meanwhile is charged its time without one, so a move and
    its take-back, again and again, earn nobody time."""
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    game_id = timed_room(app, [browser(app)], {"kind": "bank", "bank": 60, "increment": 10},
                         takebacks=True)
    game = live(app, game_id)
    s, mover = game.session, game.session.to_move
    for _ in range(5):
        clock.advance(1)
        move = str(s.match.position.legal_moves()[0])
        app.portal.call(service.turns.play, game, mover, move)  # type: ignore[union-attr]
        clock.advance(1)
        app.portal.call(service.turns.undo, game, mover)  # type: ignore[union-attr]
    assert game.clock is not None and s.to_move == mover
    assert game.clock.state.left[mover] == 60_000 - 5_000  # a second taken, five times
    assert game.clock.state.left[1 - mover] == 60_000 - 5_000  # its clock ran 1 s each time


def test_the_holding_process_s_timer_outlives_the_game_s_news(app: TestClient) -> None:
    """The timer armed when a move is stored is not cancelled by what follows it (the
    table's look at who is away, run at each change and connection): it stays armed at
    the next deadline, for when no sweep comes."""
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    bob = browser(app)
    game_id = timed_room(app, [bob], {"kind": "move", "seconds": 30})
    game = live(app, game_id)
    mover = game.session.to_move
    clock.advance(5)
    player = app if mover == 0 else bob
    with player.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.hello(0)
        seat.play_first()
        seat.recv_type("state")
        timer = game.clock_timer
        assert game.clock is not None and game.clock.state.running == 1 - mover
        assert timer is not None and not timer.cancelled()
    assert not timer.cancelled()  # the page closing (another look at who is away) too


def test_a_clock_whose_game_cannot_be_read_does_not_hold_up_the_others(
        app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timed game that cannot be loaded (its record spoilt: an operator's bad restore)
    is tried again later, not at every sweep at the head of the line: the clocks behind
    it run out as ever (here a sweep takes one game at a time)."""
    monkeypatch.setattr(clocks, "SWEEP_BATCH", 1)
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    spoilt = timed_room(app, [browser(app)], {"kind": "move", "seconds": 30})
    clock.advance(1)
    fine = timed_room(app, [browser(app)], {"kind": "move", "seconds": 30})
    with service.store.engine.begin() as conn:
        conn.execute(update(GAMES).where(GAMES.c.id == spoilt).values(record="spoilt"))
    app.portal.call(service.live._forget, live(app, spoilt))  # type: ignore[union-attr]
    clock.advance(31)
    assert client_sweep(app) == 0  # the spoilt one, put off a minute
    with service.store.engine.connect() as conn:
        deadline = conn.scalar(select(CLOCKS.c.deadline).where(CLOCKS.c.game == spoilt))
    assert deadline is not None
    assert utc(deadline) == clock.t + dt.timedelta(seconds=clocks.RETRY_SECONDS)
    assert timed_out(app, fine)[0].kind == "timeout"
    assert spoilt not in service.live.games


def test_a_timed_game_s_absent_player_is_the_clock_s_not_a_claim_s(tmp_path: Path) -> None:
    """In a rated game of three days a move, Bob away on his turn past ``abandon_after``
    may not be handed to the computer (which would lose him the game) while his clock
    has time left: the clock says how long he may be away; the page offers no claim."""
    quick = dataclasses.replace(ACCOUNTS, abandon_after=0.0)
    with web(tmp_path, limits=quick) as app:
        ann, bob = browser(app), browser(app)
        for b, name in ((ann, "Ann"), (bob, "Bob")):
            assert sign_up(b, name, PASSWORD).status_code == 201
        service = service_of(app)
        clock = service.clocks.now = FakeClock()
        game_id = timed_room(ann, [bob], {"kind": "correspondence", "days": 3}, rated=True)
        game = live(app, game_id)
        s = game.session
        while s.to_move != 1:  # Ann plays until it is Bob's turn
            app.portal.call(service.turns.play, game, 0,  # type: ignore[union-attr]
                            str(s.match.position.legal_moves()[0]))
        clock.advance(3600)
        with pytest.raises(GameError, match="Bob has 2 days 23 h left on their clock"):
            app.portal.call(service.turns.claim, game, 0, 1)  # type: ignore[union-attr]
        assert s.players[1] == "human"
        with ann.websocket_connect(f"/ws/{game_id}") as ws:
            away = Seat(ws).hello(0)["view"]["away"]
        assert away is not None and away["seat"] == 1 and not away["can_claim"]


def test_a_rated_clock_that_ran_out_while_the_server_was_down_is_applied_once(
        tmp_path: Path) -> None:
    """After a restart, a rated game whose clock ran out long ago is loaded by a player's
    page (its timer armed at once) while every sweep finds it too: one timeout, one
    result, one rating each."""
    start = now()
    with web(tmp_path, limits=ACCOUNTS) as first:
        ann, bob = browser(first), browser(first)
        for b, name in ((ann, "Ann"), (bob, "Bob")):
            assert sign_up(b, name, PASSWORD).status_code == 201
        service_of(first).clocks.now = FakeClock(start)
        game_id = timed_room(ann, [bob], {"kind": "move", "seconds": 60}, rated=True)
        loser = live(first, game_id).session.to_move
    with web(tmp_path, limits=ACCOUNTS) as second:
        clock = service_of(second).clocks.now = FakeClock(start)
        clock.advance(7 * 86_400)  # a week later
        player = browser(second)
        assert sign_in(player, "Ann", PASSWORD).status_code in (200, 303)
        with player.websocket_connect(f"/ws/{game_id}") as ws:
            Seat(ws).hello(0)
            for _ in range(5):
                client_sweep(second)
        events = timed_out(second, game_id)
        game = live(second, game_id)
        assert len(events) == 1 and events[0].seat == loser and game.status == "over"
        assert sum(e.kind == "game_over" for e in game.events) == 1
        names = game.session.names
        for _ in range(5):
            client_sweep(second)
        assert service_of(second).clocks.fired == 1
        for seat in (0, 1):
            assert rated_soon(second, names[seat]).games == 1
            assert len(standings(second, names[seat])) == 1


def test_a_clock_of_the_wrong_kind_is_refused_in_words_without_a_class_name(
        app: TestClient) -> None:
    for url, body in (("/api/games", {"mode": "friends"}),
                      ("/api/pairing", {"rules": "casino", "players": 2})):
        r = app.post(url, json={**body, "clock": "fast"})
        assert r.status_code == 400
        assert r.json()["error"].startswith('"clock" in the ')
        assert "input should be a JSON object;" in r.json()["error"]
        assert "ClockBody" not in r.json()["error"]


def test_a_seat_that_moves_twice_in_a_row_has_a_new_turn_s_time() -> None:
    """A rule whose hands run out unevenly may give the same seat two turns in a row
    (no preset does): the second is a turn of its own, with a move's whole time, or
    the bank charged and its increment earned; a hint noted (no move) changes nothing."""
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    later = t0 + dt.timedelta(seconds=25)
    per_move = time_control("move", seconds=30)
    state = advance(per_move, start_state(per_move, 2), 0, t0)
    again = advance(per_move, state, 0, later, played=True)
    assert again.deadline == later + dt.timedelta(seconds=30)
    assert advance(per_move, state, 0, later) is state  # a hint: the same turn
    bank = time_control("bank", bank=60, increment=5)
    state = advance(bank, start_state(bank, 2), 0, t0)
    assert advance(bank, state, 0, later, played=True).left[0] == 60_000 - 25_000 + 5_000


@pytest.mark.skipif(not POSTGRES, reason="two servers on one database: PostgreSQL only")
def test_two_servers_sweeping_at_once_apply_a_rated_timeout_once(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL database, each holding the rated game, sweep at the
    same moments after its clock ran out: one applies the timeout (its ``clock`` lease
    and the stored version's compare-and-set), the game ends once, each is rated once."""
    with web(tmp_path, limits=ACCOUNTS) as one, web(tmp_path, limits=ACCOUNTS) as two:
        ann, bob = browser(one), browser(one)
        for b, name in ((ann, "Ann"), (bob, "Bob")):
            assert sign_up(b, name, PASSWORD).status_code == 201
        start = now()
        clocks_ = [FakeClock(start), FakeClock(start)]
        service_of(one).clocks.now, service_of(two).clocks.now = clocks_
        game_id = timed_room(ann, [bob], {"kind": "move", "seconds": 20}, rated=True)
        games = [live(one, game_id), live(two, game_id)]
        for c in clocks_:
            c.advance(21)
        for _ in range(20):
            threads = [threading.Thread(target=client_sweep, args=(app,))
                       for app in (one, two)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if all(g.status == "over" for g in games):
                break
            time.sleep(0.05)
        fired = service_of(one).clocks.fired + service_of(two).clocks.fired
        stored = store_of(one).load(game_id)
        assert fired == 1 and stored is not None and stored.status == "over"
        assert sum(e.kind == "timeout" for e in stored.events) == 1
        for name in ("Ann", "Bob"):
            assert rated_soon(one, name).games == 1
            assert len(standings(one, name)) == 1


def test_a_resignation_after_the_deadline_and_the_timeout_are_one_end(
        app: TestClient, people: list[TestClient]) -> None:
    """The clock has run out but no sweep has come yet; the player resigns: the game
    ends once, as the resignation, and the sweep then finds no clock running."""
    ann, bob = people[:2]
    service = service_of(app)
    clock = service.clocks.now = FakeClock()
    game_id = timed_room(ann, [bob], {"kind": "bank", "bank": 30}, rated=True)
    game = live(app, game_id)
    loser = game.session.to_move
    clock.advance(31)
    app.portal.call(service.turns.resign, game, loser)  # type: ignore[union-attr]
    assert game.status == "over" and client_sweep(app) == 0
    assert game.clock is not None and game.clock.state.running is None
    assert [e.kind for e in game.events].count("game_over") == 1
    assert not any(e.kind == "timeout" for e in game.events)
    assert rated_soon(app, game.session.names[loser]).games == 1
