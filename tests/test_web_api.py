"""The web server's HTTP side: creating and joining games, pages, cards, records, limits,
storage that works on PostgreSQL too, and a real uvicorn restarted mid-game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateTable

from casino.engine.record import read_record
from casino.web.limits import Limits, TokenBucket
from casino.web.store import Base, Store, database_url
from tests.web_helpers import (
    FAST,
    Seat,
    cookie_of,
    db_url,
    guest,
    new_game,
    play_against_computer,
    uvicorn_server,
    web,
)


def test_new_game_errors_are_words(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        bad = [
            ({"rules": "snap"}, 400, "unknown ruleset"),
            ({"rules": "casino", "players": 3}, 400, "2 players"),
            ({"players": "two"}, 400, "\"players\""),
            ({"level": "godlike"}, 400, "levels are"),
            ({"mode": "solo"}, 400, "mode"),
            ({"name": "x" * 200}, 400, "at most"),
            ({"name": 5}, 400, "\"name\""),
            ({"mode": "friends", "people": 1}, 400, "2 to 2 people"),
        ]
        for body, status, words in bad:
            r = client.post("/api/games", json=body)
            assert r.status_code == status, body
            assert words in r.json()["error"], (body, r.json())
        as_json = {"content-type": "application/json"}
        r = client.post("/api/games", content=b"{oops", headers=as_json)
        assert r.status_code == 400 and "JSON" in r.json()["error"]
        r = client.post("/api/games", content=b"[1]", headers=as_json)
        assert r.status_code == 400
        r = client.post("/api/games", content=b" " * 10_000)
        assert r.status_code == 413
        assert client.get("/api/nothing").json() == {"error": "there is no such page"}
        assert not client.cookies  # no game was made, no seat was given


def test_a_new_game_sets_an_httponly_seat_cookie(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        r = client.post("/api/games", json={"rules": "classic", "players": 3,
                                            "level": "beginner", "name": "  Ann\n Lee "})
        assert r.status_code == 201
        gid = r.json()["game"]
        assert r.json() == {"game": gid, "url": f"/game/{gid}"}
        cookie = r.headers["set-cookie"]
        assert "casino=" in cookie and "HttpOnly" in cookie
        assert "samesite=lax" in cookie.lower() and "Path=/" in cookie
        stored = client.app.state.store.load(gid)  # type: ignore[attr-defined]
        token = cookie_of(client, gid)
        assert token not in stored.record and all(token != h for _, h in stored.seats.values())
        assert read_record(stored.record).names == ("Ann Lee", "Computer 1", "Computer 2")


def test_pages_hold_no_game_state(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        assert client.get("/").status_code == 200
        page = client.get(f"/game/{gid}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        game = client.app.state.service.live.games[gid]  # type: ignore[attr-defined]
        pos = game.session.match.position
        cards = [c for h in pos.hands for c in h] + list(pos.stock)
        from casino.engine.cards import card_text

        for c in cards:  # no card as a quoted string: no JSON, no JS variable
            assert f'"{card_text(c)}"' not in page.text and f"'{card_text(c)}'" not in page.text
        stranger = guest(client)
        page = stranger.get(f"/game/{gid}")
        assert page.status_code == 403 and "no seat" in page.text
        assert client.get("/game/0000000000000000").status_code == 404
        assert client.get("/rules/casino").status_code == 200
        assert "Casino" in client.get("/rules/house").text
        r = client.get("/rules/snap")
        assert r.status_code == 404 and "unknown ruleset" in r.text
        assert "Traceback" not in r.text


def test_card_pictures(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        r = client.get("/svg/card/Td.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert "max-age" in r.headers["cache-control"] and r.text.startswith("<svg")
        assert client.get("/svg/back.svg").text.startswith("<svg")
        assert client.get("/svg/card/Zz.svg").status_code == 404
        r = client.get("/svg/card/10d.svg", follow_redirects=False)
        assert r.status_code == 301 and r.headers["location"] == "/svg/card/Td.svg"


def test_records_are_published_only_for_finished_games(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        for url in (f"/records/{gid}.rec", f"/api/records/{gid}", f"/records/{gid}"):
            r = client.get(url)
            assert r.status_code == 403, url
            assert "once the game is over" in r.text
            assert "deck" not in r.text
        assert client.get("/api/records/0123456789abcdef").status_code == 404
        with client.websocket_connect(f"/ws/{gid}") as ws:
            last = play_against_computer(Seat(ws))
        stranger = guest(client)  # once over, the record is public
        record = read_record(stranger.get(f"/records/{gid}.rec").text)
        data = stranger.get(f"/api/records/{gid}").json()
        assert len(data["positions"]) == len(data["moves"]) + 1
        moves = [m["text"] for m in data["moves"] if m["kind"] == "move"]
        assert moves == [str(m) for r in record.rounds for m in r.moves]
        assert data["winner"] == last["winner"] == record.winner
        assert data["positions"][-1]["result"]["winner"] == record.winner
        assert stranger.get(f"/records/{gid}").status_code == 200
        listed = stranger.get("/api/games").json()
        assert [g["game"] for g in listed["recent"]] == [gid]
        assert listed["recent"][0]["record"] == f"/records/{gid}"
        assert listed["recent"][0]["url"] is None  # not a seat of the stranger's


def test_rooms_listing_joining_and_their_limit(tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "waiting_rooms": 2})
    with web(tmp_path, limits=limits) as client:
        made = []
        for public in (True, False):
            r = client.post("/api/games", json={"mode": "friends", "public": public})
            assert r.status_code == 201
            made.append(r.json())
        r = client.post("/api/games", json={"mode": "friends"})
        assert r.status_code == 503 and "too many rooms" in r.json()["error"]
        # Over the limit, the server goes on: games against the computer still start.
        assert client.post("/api/games", json={"mode": "computer"}).status_code == 201
        mine = client.get("/api/games").json()["open"]
        assert {g["game"] for g in mine} == {m["game"] for m in made}
        other = guest(client)
        theirs = other.get("/api/games").json()["open"]
        assert [g["game"] for g in theirs] == [made[0]["game"]]  # only the public room
        assert theirs[0]["join"] == made[0]["invite"] and theirs[0]["url"] is None
        bad = other.get(f"/join/{made[1]['game']}/wrong-code", follow_redirects=False)
        assert bad.status_code == 404 and "not valid" in bad.text
        asked = other.get(made[1]["invite"], follow_redirects=False)
        assert asked.status_code == 200 and 'name="name"' in asked.text  # the name first
        assert other.get(f"/game/{made[1]['game']}").status_code == 403  # no seat yet
        ok = other.get(made[1]["invite"] + "?name=Bo", follow_redirects=False)
        assert ok.status_code == 303
        assert other.get(f"/game/{made[1]['game']}").status_code == 200
        # The room is full now, so it no longer counts: a new one may open.
        assert client.post("/api/games", json={"mode": "friends"}).status_code == 201


def test_too_many_new_games_from_one_address(tmp_path: Path) -> None:
    limits = Limits(games_per_minute=1, games_burst=3)
    with web(tmp_path, limits=limits) as client:
        codes = [client.post("/api/games", json={"level": "beginner"}).status_code
                 for _ in range(5)]
        assert codes[:3] == [201] * 3 and codes[3:] == [429, 429]
        assert client.get("/api/games").status_code == 200


def test_token_bucket() -> None:
    t = [0.0]
    bucket = TokenBucket(2.0, 3, clock=lambda: t[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    t[0] = 0.5
    assert bucket.take() and not bucket.take()


def test_the_schema_is_portable_to_postgresql(tmp_path: Path) -> None:
    for table in Base.metadata.sorted_tables:
        ddl = str(CreateTable(table).compile(dialect=postgresql.dialect()))  # type: ignore[no-untyped-call]
        assert "CREATE TABLE" in ddl
    store = Store(db_url(tmp_path))
    assert store.load("0123456789abcdef") is None
    store.close()


def test_database_url_comes_from_the_environment(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    url = db_url(tmp_path, "env.db")
    monkeypatch.setenv("DATABASE_URL", url)
    from casino.web import create_app

    app = create_app(pool_workers=0)
    assert app.state.store.url == database_url(url)
    app.state.store.close()


def test_plain_postgresql_urls_mean_the_shipped_driver() -> None:
    """Pointing DATABASE_URL at PostgreSQL needs no other change (psycopg 3 is installed)."""
    assert database_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///casino.db") == "sqlite:///casino.db"


# ----------------------------------------------------------------------
# A real server on loopback, stopped dead mid-game and started again


def _ws_play(base: str, gid: str, token: str, since: int,
             moves: int) -> tuple[int, dict[str, Any]]:
    """Connect with the seat cookie, make ``moves`` moves; (version, view) at our turn."""
    from websockets.sync.client import connect

    ws_url = base.replace("http", "ws") + f"/ws/{gid}"
    with connect(ws_url, additional_headers={"Cookie": f"casino={token}"}) as ws:
        ws.send(json.dumps({"type": "hello", "since": since}))
        made = 0
        while True:
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] == "state", m
            v = m["view"]
            if v["your_turn"]:
                if made == moves:
                    return m["version"], v
                ws.send(json.dumps({"type": "play", "move": v["legal"][-1]["text"]}))
                made += 1
            elif v["status"] == "round_over":
                ws.send(json.dumps({"type": "next_round"}))


def test_a_real_server_killed_mid_game_loses_no_move(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    with uvicorn_server(url) as base:
        r = httpx.post(base + "/api/games", json={"level": "beginner", "name": "Ann"})
        assert r.status_code == 201
        gid = r.json()["game"]
        token = r.cookies["casino"]
        version, view = _ws_play(base, gid, token, 0, 6)
    with uvicorn_server(url) as base:
        again, view2 = _ws_play(base, gid, token, version, 0)
        assert (again, view2) == (version, view)
        assert len(view2["log"]) >= 12
        version3, view3 = _ws_play(base, gid, token, again, 2)
        assert view3["log"][:len(view["log"])] == view["log"]
        assert version3 > version
    assert re.fullmatch(r"[0-9a-f]{16}", gid)


def test_the_serve_command_explains_a_database_it_cannot_open() -> None:
    import typer
    from typer.testing import CliRunner

    from casino.web.cli import serve_command

    app = typer.Typer()
    app.command("serve")(serve_command)
    app.command("other")(lambda: None)  # two commands: "serve" is a subcommand
    result = CliRunner().invoke(app, ["serve", "--database", "nonsense://", "--port", "1"])
    assert result.exit_code == 2
    assert "cannot open the database nonsense://" in result.output
    assert "Traceback" not in result.output
