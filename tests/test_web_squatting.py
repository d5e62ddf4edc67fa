"""Connection squatting: one player cannot hold another out of the game, nor have their
seat claimed by holding them out.

Each seat has its own share of a game's connections, and one address may hold only so
many in a game and across the server; a seat's owner who tried to connect and was
refused is not away from before that try. Everything goes through the app (HTTP and
the game WebSocket) from browsers at addresses of their own, as the audit's
``squat_claim.py`` does against a real server. Nothing waits on the clock: an absence
of an hour is made by moving the game's own stamps back an hour (:func:`an_hour_passes`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from casino.web.limits import Limits
from casino.web.routes.socket import CLOSE_LIMIT
from tests.web_helpers import FAST, Seat, web

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: Long enough that no test waits for it: absences are made by moving stamps back.
PATIENT = Limits(**{**FAST.__dict__, "abandon_after": 3600.0})
HOUR = 3600.0
#: The most messages a seat reads while waiting for something the server must send.
MAX_MESSAGES = 200
#: The most connections a test tries to open before it expects a refusal.
MAX_TRIES = 40


def browser(app_client: TestClient, host: str) -> TestClient:
    """A browser (its own cookies) at address ``host``, on the same running app."""
    other = TestClient(app_client.app, client=(host, 50000))
    other.portal = app_client.portal
    return other


def same_cookie(of: TestClient, host: str) -> TestClient:
    """The browser ``of`` (its seat cookie) moved to another address."""
    other = browser(of, host)
    other.cookies.set("casino", str(of.cookies["casino"]))
    return other


@dataclass
class Table:
    """A two-person room: Mallory made it, Bob joined; the game's id."""

    app: TestClient
    mallory: TestClient
    bob: TestClient
    gid: str


def table(app: TestClient, mallory_at: str = "10.0.0.1", bob_at: str = "10.0.1.1") -> Table:
    mallory, bob = browser(app, mallory_at), browser(app, bob_at)
    r = mallory.post("/api/games", json={"rules": "casino", "mode": "friends",
                                         "name": "Mallory", "level": "beginner"})
    assert r.status_code == 201, r.text
    gid, invite = str(r.json()["game"]), str(r.json()["invite"])
    r = bob.get(f"{invite}?name=Bob", follow_redirects=False)
    assert r.status_code == 303, r.text
    return Table(app, mallory, bob, gid)


def until(seat: Seat, check: Any) -> dict[str, Any]:
    """Read ``seat``'s messages until its view passes ``check``; that view."""
    for _ in range(MAX_MESSAGES):
        if seat.view and check(seat.view):
            return seat.view
        seat.recv()
    raise AssertionError(f"the view never changed as expected: {seat.view}")


@contextmanager
def bobs_turn_then_gone(t: Table) -> Iterator[Seat]:
    """Both play until it is Bob's turn; Bob's page then closes. Mallory's seat, open."""
    with t.mallory.websocket_connect(f"/ws/{t.gid}") as wm:
        m = Seat(wm)
        m.hello(0)
        with t.bob.websocket_connect(f"/ws/{t.gid}") as wb:
            b = Seat(wb)
            b.hello(0)
            if m.view["your_turn"]:
                m.play_first()
                m.recv_type("state")
                until(b, lambda v: v["your_turn"])
            assert b.view["your_turn"]
        until(m, lambda v: v["version"] == b.version)
        yield m


def opened(client: TestClient, gid: str, stack: ExitStack) -> Seat | None:
    """A new connection of ``client``'s seat, held open by ``stack``; None if refused
    (with the limit's close code)."""
    ws = stack.enter_context(client.websocket_connect(f"/ws/{gid}"))
    seat = Seat(ws)
    seat.send({"type": "hello", "since": 0})
    first = seat.recv()
    if first["type"] == "state":
        return seat
    assert first["type"] == "error"
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == CLOSE_LIMIT
    return None


def refusal(client: TestClient, gid: str) -> str:
    """The words refusing ``client``'s connection (closed with the limit's code)."""
    with client.websocket_connect(f"/ws/{gid}") as ws:
        first = ws.receive_json()
        assert first["type"] == "error", first
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == CLOSE_LIMIT
    return str(first["message"])


def fill(client: TestClient, gid: str, stack: ExitStack) -> int:
    """Open connections of ``client``'s seat until one is refused: how many opened."""
    for n in range(MAX_TRIES):
        if opened(client, gid, stack) is None:
            return n
    raise AssertionError(f"{MAX_TRIES} connections opened: nothing refused them")


def an_hour_passes(t: Table) -> None:
    """The game's stamps (its last change, who left and who was refused when) move an
    hour back, and the table looks again at who is away: as if an hour had gone by."""
    service = t.app.app.state.service  # type: ignore[attr-defined]

    async def back() -> None:
        game = await service.live.get(t.gid)
        game.changed_at -= HOUR
        for stamps in (game.left_at, game.refused_at):
            for seat in stamps:
                stamps[seat] -= HOUR
        service.turns.watch(game)

    t.app.portal.call(back)  # type: ignore[union-attr]


def claim(m: Seat) -> None:
    m.send({"type": "claim", "seat": 1, "version": m.version})


# ----------------------------------------------------------------------


def test_the_opponent_fills_their_own_share_and_the_victim_still_connects(
        tmp_path: Path) -> None:
    with web(tmp_path, limits=PATIENT) as app:
        t = table(app)
        with ExitStack() as stack, bobs_turn_then_gone(t):
            # Mallory opens every connection she can: her seat's share of the 16 (one is
            # the page already open), not the game's 16.
            assert fill(t.mallory, t.gid, stack) == 8 - 1
            assert refusal(t.mallory, t.gid) == (
                "your seat has 8 connections to this game open already, as many as a seat "
                "may have; close other tabs")
            # Bob's page comes back, and plays.
            b = opened(t.bob, t.gid, stack)
            assert b is not None and b.view["your_turn"] and b.view["away"] is None
            b.play_first()
            until(b, lambda v: not v["your_turn"] or v["status"] != "playing")


def test_a_second_address_cannot_take_a_seats_share(tmp_path: Path) -> None:
    small = Limits(**{**PATIENT.__dict__, "connections_per_game": 4})
    with web(tmp_path, limits=small) as app:
        t = table(app)
        with ExitStack() as stack, bobs_turn_then_gone(t):
            assert fill(t.mallory, t.gid, stack) == 2 - 1
            # The same seat from another address is the same seat: its share is full.
            elsewhere = same_cookie(t.mallory, "10.0.0.2")
            assert refusal(elsewhere, t.gid).startswith("your seat has 2 connections")
            b = opened(t.bob, t.gid, stack)
            assert b is not None and b.view["your_turn"]


def test_one_address_holds_only_so_many_connections_in_a_game_and_across_games(
        tmp_path: Path) -> None:
    # Two people behind one address (a shared network): each seat has its share of 4,
    # but the address may hold only 3 in the game, and 4 across the server.
    few = Limits(**{**PATIENT.__dict__, "connections_per_game": 8,
                    "game_connections_per_address": 3, "connections_per_address": 4})
    with web(tmp_path, limits=few) as app:
        t = table(app, mallory_at="10.0.0.1", bob_at="10.0.0.1")
        with ExitStack() as stack, bobs_turn_then_gone(t):
            assert fill(t.mallory, t.gid, stack) == 3 - 1
            assert refusal(t.bob, t.gid) == (
                "your address has 3 connections to this game open already, as many as one "
                "address may have; close other tabs")
            other = table(app, mallory_at="10.0.0.1", bob_at="10.0.2.1")
            assert opened(other.mallory, other.gid, stack) is not None
            assert refusal(other.mallory, other.gid) == (
                "your address has 4 game connections open already, as many as one address "
                "may have; close some tabs")
            assert opened(other.bob, other.gid, stack) is not None  # another address


def test_a_refused_owner_keeps_their_seat(tmp_path: Path) -> None:
    # Bob shares Mallory's address, and she holds all its connections to the game.
    one_each = Limits(**{**PATIENT.__dict__, "game_connections_per_address": 2})
    with web(tmp_path, limits=one_each) as app:
        t = table(app, mallory_at="10.0.0.1", bob_at="10.0.0.1")
        with ExitStack() as stack, bobs_turn_then_gone(t) as m:
            an_hour_passes(t)
            until(m, lambda v: v["away"] is not None and v["away"]["can_claim"])
            assert fill(t.mallory, t.gid, stack) == 2 - 1
            # Bob's page tries to come back, and is refused: he is not away from before.
            assert refusal(t.bob, t.gid).startswith("your address has 2 connections")
            until(m, lambda v: v["away"] is None)
            claim(m)
            assert m.error() == (
                "Bob tried to connect less than a minute ago and the server had no room for "
                "them (too many connections): the computer may play for them after "
                "60 minutes away")
            assert m.view["players"] == ["human", "human"]
    assert "takeover" not in str(app.app.state.store.load(t.gid).record)  # type: ignore[attr-defined]


def test_a_claim_after_a_real_absence_still_works(tmp_path: Path) -> None:
    one_each = Limits(**{**PATIENT.__dict__, "game_connections_per_address": 2})
    with web(tmp_path, limits=one_each) as app:
        t = table(app, mallory_at="10.0.0.1", bob_at="10.0.0.1")
        with ExitStack() as stack, bobs_turn_then_gone(t) as m:
            assert fill(t.mallory, t.gid, stack) == 2 - 1
            assert refusal(t.bob, t.gid).startswith("your address has 2 connections")
            # An hour after his last try, Bob is away past the limit: the claim is taken.
            an_hour_passes(t)
            until(m, lambda v: v["away"] is not None)
            claim(m)
            v = until(m, lambda v: v["players"][1] == "beginner")
            assert v["away"] is None
