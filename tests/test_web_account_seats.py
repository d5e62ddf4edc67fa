"""A seat held by an account: played from any browser signed in to it, named by it, and
shown in every page's header (docs/server.md, "Accounts").

Two browsers of one player (a phone and a laptop) and other players' browsers, all
TestClients on one app: a seat taken signed in, or claimed, is found by the account
from either browser; a revoked session finds nothing; a guest cannot pass for an
account's name; and a browser given a seat by its account is sent that seat's view and
nothing of another seat's hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from casino.engine.record import read_record
from casino.web.accounts.names import GUEST_MARK
from casino.web.live import LiveGame
from tests.web_helpers import (
    ACCOUNTS,
    Seat,
    browser,
    csrf_of,
    new_game,
    scan,
    sign_in,
    sign_up,
    web,
)

PASSWORD = "correct horse battery"
#: What the header shows, signed in and to a guest.
SIGNED_IN = 'id="signed-in-as" title="Your account">{name}</a>'
GUEST_LINKS = ('id="sign-in"', 'href="/signup"')


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def live(client: TestClient, game_id: str) -> LiveGame:
    """The game in the app's memory."""
    game: LiveGame = client.app.state.service.live.games[game_id]  # type: ignore[attr-defined]
    return game


def room(client: TestClient, name: str | None = None, players: int = 2) -> tuple[str, str]:
    """A room for friends made by ``client``: its id and its invite path."""
    body: dict[str, Any] = {"rules": "casino", "mode": "friends", "players": players}
    if name is not None:
        body["name"] = name
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["game"]), str(r.json()["invite"])


def refused(client: TestClient, game_id: str) -> str:
    """The words of the WebSocket's refusal (there must be one)."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        m = ws.receive_json()
    assert m["type"] == "error", m
    return str(m["message"])


def test_every_page_header_shows_who_is_signed_in(app: TestClient) -> None:
    ann = browser(app)
    pages = ["/", "/rules/casino", "/glossary", "/guide/casino", "/game/nosuchgame",
             "/helper", "/scorepad"]
    for path in pages:  # a guest is offered to sign in or up, and pages work as before
        page = ann.get(path)
        assert page.status_code in (200, 404), path
        assert all(link in page.text for link in GUEST_LINKS), path
        assert "signed-in-as" not in page.text, path
    assert sign_up(ann, "Ann", PASSWORD).status_code == 201
    for path in [*pages, "/account"]:
        page = ann.get(path).text
        assert SIGNED_IN.format(name="Ann") in page, path
        assert 'action="/signout"' in page and 'id="sign-in"' not in page, path
    # The header's sign-out form signs out; the header then offers to sign in again.
    out = ann.post("/signout", data={"csrf": csrf_of(ann.get("/").text)})
    assert out.status_code == 303
    lobby = ann.get("/").text
    assert "signed-in-as" not in lobby and all(link in lobby for link in GUEST_LINKS)
    # Another browser never sees Ann's name in its header.
    assert "Ann" not in browser(app).get("/").text


def test_a_game_started_signed_in_is_played_from_the_accounts_other_browser(
        app: TestClient) -> None:
    phone, laptop = browser(app), browser(app)
    sign_up(phone, "Ann", PASSWORD)
    game_id = new_game(phone, name="Zed")  # signed in: the seat has the account's name
    assert live(app, game_id).session.names[0] == "Ann"
    # The laptop, a guest, has no seat; signed in to Ann, it has Ann's.
    assert laptop.get(f"/game/{game_id}").status_code == 403
    assert "no seat" in refused(laptop, game_id)
    assert sign_in(laptop, "Ann", PASSWORD).status_code == 303
    assert laptop.get(f"/game/{game_id}").status_code == 200
    with phone.websocket_connect(f"/ws/{game_id}") as ws:
        on_phone = Seat(ws).hello(0)["view"]
    with laptop.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        on_laptop = seat.hello(0)["view"]
        # It plays there: a move made on the laptop is the seat's.
        seat.until_actionable()
        seat.play_first()
        seat.until_version(on_laptop["version"] + 1)
    assert on_laptop["you"] == on_phone["you"] == 0
    assert on_laptop["hand"] == on_phone["hand"]
    record = read_record(live(app, game_id).session.record_text())
    assert scan(seat.payloads, 0, record) == len(seat.payloads)  # no other seat's cards
    # Signed out everywhere (from the phone): the laptop's session no longer gives the
    # seat, and its open connection is closed ("reconnect now": it is then refused).
    with laptop.websocket_connect(f"/ws/{game_id}") as ws:
        open_page = Seat(ws)
        open_page.hello(0)
        page = phone.get("/account").text
        assert phone.post("/account/everywhere",
                          data={"csrf": csrf_of(page)}).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                open_page.recv()
        assert closed.value.code == 1012
    assert laptop.get(f"/game/{game_id}").status_code == 403
    assert "no seat" in refused(laptop, game_id)
    # The phone still holds it by its own browser token, as a guest would.
    assert phone.get(f"/game/{game_id}").status_code == 200


def test_a_claimed_guest_game_is_played_from_the_accounts_other_browsers(
        app: TestClient) -> None:
    phone, laptop, stranger = browser(app), browser(app), browser(app)
    game_id = new_game(phone, name="Zed")  # a guest's game: the typed name stays
    assert live(app, game_id).session.names[0] == "Zed"
    assert sign_up(phone, "Zed", PASSWORD, claim="on").status_code == 201
    sign_in(laptop, "Zed", PASSWORD)
    with laptop.websocket_connect(f"/ws/{game_id}") as ws:
        assert Seat(ws).hello(0)["view"]["you"] == 0
    # Another account finds no seat there.
    sign_up(stranger, "Kim", PASSWORD)
    assert stranger.get(f"/game/{game_id}").status_code == 403
    assert "no seat" in refused(stranger, game_id)


def test_a_seat_joined_signed_in_is_the_accounts(app: TestClient) -> None:
    host, phone, laptop = browser(app), browser(app), browser(app)
    game_id, invite = room(host, "Kim")
    sign_up(phone, "Bob", PASSWORD)
    page = phone.get(invite)
    assert page.status_code == 200 and "your account's name" in page.text
    r = phone.get(invite, params={"name": "Zed"})
    assert r.status_code == 303 and live(app, game_id).session.names == ("Kim", "Bob")
    sign_in(laptop, "Bob", PASSWORD)
    # The invite sends the account's other browser straight to its seat.
    assert laptop.get(invite).headers["location"] == f"/game/{game_id}"
    with laptop.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        assert seat.hello(0)["view"]["you"] == 1
    record = read_record(live(app, game_id).session.record_text())
    assert scan(seat.payloads, 1, record) == len(seat.payloads)  # nothing of Kim's hand


def test_a_guest_cannot_pass_for_an_accounts_name(app: TestClient) -> None:
    sign_up(browser(app), "Ann_Lee", PASSWORD)
    host, guest = browser(app), browser(app)
    game_id, invite = room(host, "Kim")
    # A look-alike of the account's name is marked as a guest's; the guest still plays.
    assert guest.get(invite, params={"name": "ann lee"}).status_code == 303
    assert live(app, game_id).session.names == ("Kim", "ann lee" + GUEST_MARK)
    assert guest.get(f"/game/{game_id}").status_code == 200
    # So is one typed when starting a game (a Cyrillic А here); other names stay.
    made = new_game(browser(app), name="Аnn-Lee")
    assert live(app, made).session.names[0] == "Аnn-Lee" + GUEST_MARK
    assert live(app, new_game(browser(app), name="Annie")).session.names[0] == "Annie"


def test_a_long_guest_name_is_shortened_to_fit_the_mark(app: TestClient) -> None:
    sign_up(browser(app), "Abcdefghijklmnopqrstuvwx", PASSWORD)  # 24 letters, the most
    made = new_game(browser(app), name="ABCDEFGHIJKLMNOPQRSTUVWX")
    name = live(app, made).session.names[0]
    assert name.endswith(GUEST_MARK) and len(name) <= 24 and name.startswith("ABCDEFGH")


def test_the_lobby_lists_the_accounts_games_in_each_of_its_browsers(
        app: TestClient) -> None:
    phone, laptop, stranger = browser(app), browser(app), browser(app)
    sign_up(phone, "Ann", PASSWORD)
    playing = new_game(phone)
    waiting, _invite = room(phone)
    sign_in(laptop, "Ann", PASSWORD)
    for client in (phone, laptop):
        lists = client.get("/api/games").json()
        assert {g["game"]: g["url"] for g in lists["recent"]}.get(playing) \
            == f"/game/{playing}"
        assert any(g["game"] == waiting for g in lists["open"])
    # Nobody else's lobby lists them (the lobby's page shows what /api/games says).
    lists = stranger.get("/api/games").json()
    assert all(g["game"] not in (playing, waiting) for g in lists["recent"] + lists["open"])


def test_a_rematch_keeps_the_accounts_seat(app: TestClient) -> None:
    phone, laptop = browser(app), browser(app)
    sign_up(phone, "Ann", PASSWORD)
    game_id = new_game(phone)
    with phone.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.hello(0)
        seat.send({"type": "resign"})
        seat.until_actionable()
        seat.send({"type": "rematch"})
        url = seat.recv_type("rematch")["url"]
    sign_in(laptop, "Ann", PASSWORD)
    r = laptop.get(url)
    assert r.status_code == 303, r.text
    new = r.headers["location"].rsplit("/", 1)[1]
    with laptop.websocket_connect(f"/ws/{new}") as ws:
        assert Seat(ws).hello(0)["view"]["you"] == 0
