"""A guest's games become their account's, and an account deleted leaves its games
behind without its name (docs/server.md, "Accounts")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from casino.engine.record import read_record
from casino.web.accounts.store import FORMER, AccountGameRow, AccountRow, AccountSessionRow
from casino.web.store import GameRow, SeatRow
from tests.web_helpers import (
    ACCOUNTS,
    Seat,
    browser,
    csrf_of,
    new_game,
    play_against_computer,
    sign_in,
    sign_up,
    web,
)

PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def rows(client: TestClient, table: type) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(table)) or 0)


def test_a_guests_games_are_claimed_at_sign_up(app: TestClient) -> None:
    zed = browser(app)
    first, second = new_game(zed, name="Zed"), new_game(zed, name="Zed")
    other = new_game(browser(app), name="Kim")  # another browser's game stays theirs
    r = sign_up(zed, "Zed", PASSWORD, claim="on")
    assert r.status_code == 201 and "2 seats of this browser" in r.text
    page = zed.get("/account").text
    assert f"/game/{first}" in page and f"/game/{second}" in page and other not in page
    # Claiming again claims nothing twice; a later game is claimed from the account page.
    third = new_game(zed, name="Zed")
    assert zed.post("/account/claim", data={"csrf": csrf_of(page)}).status_code == 303
    assert rows(app, AccountGameRow) == 3 and f"/game/{third}" in zed.get("/account").text
    # The guest's seats still play as before.
    assert zed.get(f"/game/{first}").status_code == 200


def test_a_sign_up_without_claim_claims_nothing(app: TestClient) -> None:
    zed = browser(app)
    new_game(zed, name="Zed")
    assert sign_up(zed, "Zed", PASSWORD).status_code == 201
    assert rows(app, AccountGameRow) == 0


def test_deleting_an_account_anonymises_its_games(app: TestClient) -> None:
    zed = browser(app)
    finished = new_game(zed, name="Zed")
    with zed.websocket_connect(f"/ws/{finished}") as ws:
        play_against_computer(Seat(ws))
    playing = new_game(zed, name="Zed")
    sign_up(zed, "Zed", PASSWORD, claim="on")
    page = zed.get("/account").text
    wrong = zed.post("/account/delete", data={"password": "not the password",
                                              "csrf": csrf_of(page)})
    assert wrong.status_code == 400 and rows(app, AccountRow) == 1
    r = zed.post("/account/delete", data={"password": PASSWORD, "csrf": csrf_of(page)})
    assert r.status_code == 200 and "its 2 games stay" in r.text
    for table in (AccountRow, AccountSessionRow, AccountGameRow):
        assert rows(app, table) == 0, table
    store = app.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        seat_names = set(conn.scalars(select(SeatRow.name)))
        games = {g.id: g for g in conn.execute(select(GameRow))}
    assert seat_names == {FORMER}
    for game_id in (finished, playing):
        assert "Zed" not in games[game_id].names
        record = read_record(games[game_id].record)
        assert record.names is not None and record.names[0] == FORMER
    replay = zed.get(f"/api/records/{finished}").json()
    assert replay["names"][0] == FORMER
    # The game still in play goes on from its record, the name replaced.
    with zed.websocket_connect(f"/ws/{playing}") as ws:
        state = Seat(ws).hello()
        assert "Zed" not in str(state["view"])
    assert sign_in(browser(app), "Zed", PASSWORD).status_code == 400
    # The name is free again.
    assert sign_up(browser(app), "Zed", PASSWORD).status_code == 201
