"""The web database's schema is versioned: a database made by release 0.1.0 is upgraded
and its games stay playable, and the migrations make exactly the tables the code uses."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

import casino.web.allowances  # its tables are part of the schema (as the pads' below)
import casino.web.daily_store
import casino.web.tools  # noqa: F401  (its score-pad table is part of the schema)
from casino.web.migrations import current, head
from casino.web.store import Base, Store, token_hash
from tests.web_helpers import Seat, db_url, web

#: A database made by release 0.1.0 (tables by ``create_all``, no schema version), dumped
#: with ``sqlite3``'s ``iterdump``: a game against the computer six moves in, and a public
#: Kasino room waiting. The browser that made both sent the cookie ``TOKEN``.
RELEASE_0_1_0 = Path(__file__).parent / "data" / "web-db-0.1.0.sql"
PLAYING, ROOM = "cb785ff1464831f7", "508171ceab44b1f0"
TOKEN = "release-0.1.0-test-browser"


def _old_database(folder: Path) -> Path:
    path = folder / "casino.db"
    con = sqlite3.connect(path)
    con.executescript(RELEASE_0_1_0.read_text(encoding="utf-8"))
    con.close()
    return path


def test_a_new_database_is_made_at_the_newest_revision(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    assert current(store.engine) == head()
    store.close()


def test_the_migrations_make_the_tables_the_code_uses(tmp_path: Path) -> None:
    """Changing a table without a migration fails here (autogenerate finds the change)."""
    store = Store(db_url(tmp_path))
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    store.close()
    assert diff == []


def test_a_release_0_1_0_database_is_upgraded_and_its_games_go_on(tmp_path: Path) -> None:
    path = _old_database(tmp_path)
    engine = create_engine(f"sqlite:///{path}")
    assert current(engine) is None and "alembic_version" not in inspect(engine).get_table_names()
    engine.dispose()
    store = Store(f"sqlite:///{path}")
    assert current(store.engine) == head()
    game = store.load(PLAYING)
    assert game is not None and game.version == 6 and len(game.events) == 6
    assert set(store.games_of(token_hash(TOKEN))) == {PLAYING, ROOM}
    store.close()
    # Opening it again changes nothing; the server then plays the old game on.
    Store(f"sqlite:///{path}").close()
    with web(tmp_path) as client:
        client.cookies.set("casino", TOKEN)
        # The lobby lists this browser's game (its room has lapsed since the dump was made:
        # rooms wait 20 minutes).
        lobby = client.get("/api/games")
        assert lobby.status_code == 200 and PLAYING in lobby.text
        with client.websocket_connect(f"/ws/{PLAYING}") as ws:
            seat = Seat(ws)
            state = seat.hello()
            assert state["version"] >= 6
            seat.until_actionable()
            seat.play_first()
            assert seat.recv_type("state")["version"] > state["version"]
        room = client.get(f"/game/{ROOM}")
        assert room.status_code == 200

