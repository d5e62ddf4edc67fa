"""One cookie per browser: every seat it takes, however many games, and old cookies adopted.

The server once set one 60-day cookie per game (``casino_<id>``); a regular
player's headers grew with every game until, at about 150 of them, the
WebSocket handshake stalled and the page said "connecting…" for ever.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import httpx

from casino.web.store import token_hash
from tests.web_helpers import Seat, db_url, guest, new_game, uvicorn_server, web

#: The domain the test client's cookie jar files the app's cookies under.
HOST = "testserver.local"


def test_one_cookie_holds_every_seat_a_browser_takes(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        games = [new_game(client) for _ in range(5)]
        room = client.post("/api/games", json={"mode": "friends", "name": "Ann"}).json()
        assert [c.name for c in client.cookies.jar] == ["casino"]
        token = client.cookies["casino"]
        store = client.app.state.store  # type: ignore[attr-defined]
        assert set(store.games_of(token_hash(token))) == {*games, room["game"]}
        # The lobby lists them all as the browser's own (with their links) ...
        listed = client.get("/api/games").json()
        mine = {e["game"] for e in listed["recent"] + listed["open"] if e["url"]}
        assert mine == {*games, room["game"]}
        # ... and a friend who joins gets a token of their own, for that seat only.
        bob = guest(client)
        assert bob.get(room["invite"] + "?name=Bob", follow_redirects=False).status_code == 303
        assert bob.cookies["casino"] != token
        assert store.games_of(token_hash(bob.cookies["casino"])) == [room["game"]]
        for gid in games:
            with bob.websocket_connect(f"/ws/{gid}") as ws:
                assert ws.receive_json()["type"] == "error"  # no seat of Bob's there


def test_old_per_game_cookies_are_adopted_by_the_browser_token_and_deleted(
        tmp_path: Path) -> None:
    with web(tmp_path) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        old = secrets.token_urlsafe(24)  # what an old server set as casino_<id>
        gid = service.rooms.create(rules="casino", players=2, level="beginner", mode="computer",
                             name="Ann", token=old).game
        other = service.rooms.create(rules="casino", players=2, level="beginner", mode="computer",
                               name="Eve", token=secrets.token_urlsafe(24)).game
        browser = guest(client)
        browser.cookies.set(f"casino_{gid}", old, domain=HOST)
        browser.cookies.set(f"casino_{other}", "forged-" + old, domain=HOST)  # holds nothing
        page = browser.get("/")
        assert page.status_code == 200
        assert not [c for c in browser.cookies.jar if c.name.startswith("casino_")]
        token = browser.cookies["casino"]
        assert token != old
        with browser.websocket_connect(f"/ws/{gid}") as ws:
            assert Seat(ws).hello(0)["view"]["game"] == gid
        # The old token holds nothing any more, and the forged one took nothing.
        stale = guest(client)
        stale.cookies.set("casino", old)
        with stale.websocket_connect(f"/ws/{gid}") as ws:
            assert ws.receive_json()["type"] == "error"
        with browser.websocket_connect(f"/ws/{other}") as ws:
            assert ws.receive_json()["type"] == "error"


def test_an_old_cookie_still_opens_its_game_until_a_page_adopts_it(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        old = secrets.token_urlsafe(24)
        gid = service.rooms.create(rules="casino", players=2, level="beginner", mode="computer",
                             name="Ann", token=old).game
        browser = guest(client)
        browser.cookies.set(f"casino_{gid}", old, domain=HOST)
        with browser.websocket_connect(f"/ws/{gid}") as ws:  # a page open since before
            assert Seat(ws).hello(0)["view"]["game"] == gid
        # The game page adopts it and still finds the seat.
        assert browser.get(f"/game/{gid}").status_code == 200
        assert browser.get(f"/game/{gid}").status_code == 200


def test_two_hundred_old_cookies_do_not_stop_a_new_game_from_connecting(
        tmp_path: Path) -> None:
    """A regular player of the old server, through the real server, as their browser acts."""
    from websockets.sync.client import connect

    with uvicorn_server(db_url(tmp_path)) as base:
        # Three games this browser really played under the old scheme: their tokens
        # are real seats, sent as old per-game cookies ...
        real = {}
        for _ in range(3):
            r = httpx.post(base + "/api/games", json={"level": "beginner"})
            real[r.json()["game"]] = r.cookies["casino"]
        with httpx.Client(base_url=base, timeout=30) as browser:
            for gid, token in real.items():
                browser.cookies.set(f"casino_{gid}", token, domain="127.0.0.1")
            # ... and 197 more of games long gone.
            for _ in range(197):
                browser.cookies.set(f"casino_{secrets.token_hex(8)}", secrets.token_urlsafe(24),
                                    domain="127.0.0.1")
            header = "; ".join(f"{c.name}={c.value}" for c in browser.cookies.jar)
            assert len(header) > 11_000  # past the 8 KB that stalled the handshake
            assert browser.get("/").status_code == 200  # the lobby
            r = browser.post("/api/games", json={"level": "beginner", "name": "Ann"})
            assert r.status_code == 201
            gid = r.json()["game"]
            names = [c.name for c in browser.cookies.jar]
            assert names == ["casino"]
            listed = browser.get("/api/games").json()
            assert {e["game"] for e in listed["recent"] if e["url"]} == {gid, *real}
            cookie = f"casino={browser.cookies['casino']}"
        for game in (gid, *real):
            ws_url = base.replace("http", "ws") + f"/ws/{game}"
            with connect(ws_url, additional_headers={"Cookie": cookie},
                         open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "since": 0}))
                m = json.loads(ws.recv(timeout=30))
                assert m["type"] == "state" and m["view"]["game"] == game
