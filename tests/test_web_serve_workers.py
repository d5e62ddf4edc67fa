"""``casino serve`` as several processes and behind a reverse proxy (docs/server.md,
"Several processes, several machines"): ``--workers N`` refused on SQLite, its settings
reaching each worker's app, ``--computer-pause``, ``--forwarded-allow-ips`` honoured
only from the named proxies, and, on PostgreSQL (``CASINO_TEST_POSTGRES``, as ``make
test-postgres`` sets), two workers serving one port and schema upgrades that wait for
each other."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from typer import Typer
from typer.testing import CliRunner

from casino.engine.core import engine_name
from casino.web.limits import Limits
from casino.web.serving import ENV, settings_from_json, trusted_proxies, worker_app
from casino.web.settings import LimitGroups, ServerSettings
from casino.web.slow import event_loop
from casino.web.store import database_url
from tests.cluster_harness import running
from tests.web_helpers import POSTGRES, db_url

#: The longest a server may take to answer after it starts: a safety net, never a measure.
START_WAIT = 60.0

needs_postgres = pytest.mark.skipif(not POSTGRES, reason="needs CASINO_TEST_POSTGRES "
                                                         "(make test-postgres)")


def command() -> Typer:
    """``casino serve`` alone on a typer app (two commands: ``serve`` is a subcommand)."""
    from casino.web.cli import serve_command

    app = Typer()
    app.command("serve")(serve_command)
    app.command("other")(lambda: None)
    return app


@contextmanager
def casino_serve(database: str, *options: str, folder: Path, name: str = "S"
                 ) -> Iterator[str]:
    """``python -m casino serve`` on ``database`` with ``options``, computers at once, on
    a free port until it answers (the cluster tests' harness; its output in
    ``folder/server-NAME.log``): its base URL. Stopped with SIGTERM, as an operator
    would."""
    with running(name, database, folder, computer_pause=0, extra=options) as server:
        yield server.base


# ----------------------------------------------------------------------
# --workers on SQLite, and the command's options


def test_several_workers_on_sqlite_are_refused_before_anything_opens(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/casino.db"
    result = CliRunner().invoke(command(), ["serve", "--database", url, "--workers", "2",
                                            "--port", "1"])
    assert result.exit_code == 2
    assert "a SQLite database is served by one process only" in result.output
    assert "PostgreSQL" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # no database made, no claim taken


def test_the_real_command_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "casino", "serve", "--workers", "3", "--database",
         f"sqlite:///{tmp_path}/casino.db"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "--workers 3: a SQLite database is served by one process only" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_options_reach_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    import casino.web.app

    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(casino.web.app, "serve", lambda *a, **k: calls.append((a, k)))
    result = CliRunner().invoke(command(), [
        "serve", "--database", "postgresql://db/casino", "--workers", "3",
        "--computer-pause", "0.25", "--forwarded-allow-ips", "10.0.0.1",
        "--limit", "rooms_per_address=5", "--admin", "Olga", "--admin", "Ivan"])
    assert result.exit_code == 0, result.output
    (args, kwargs), = calls
    assert args[2] == "postgresql://db/casino" and args[4].rooms_per_address == 5
    assert kwargs == {"workers": 3, "bot_pause": 0.25, "forwarded_allow_ips": "10.0.0.1",
                      "admins": ["Olga", "Ivan"]}
    calls.clear()
    monkeypatch.delenv("CASINO_ADMINS", raising=False)
    assert CliRunner().invoke(command(), ["serve"]).exit_code == 0
    assert calls[0][1] == {"workers": 1, "bot_pause": 0.6, "forwarded_allow_ips": None,
                           "admins": []}
    calls.clear()
    monkeypatch.setenv("CASINO_ADMINS", "Olga Ivan")  # the operators from the environment
    assert CliRunner().invoke(command(), ["serve"]).exit_code == 0
    assert calls[0][1]["admins"] == ["Olga", "Ivan"]


@pytest.mark.parametrize("options, words", [
    (["--workers", "0"], "--workers"),
    (["--computer-pause", "-1"], "--computer-pause"),
    (["--forwarded-allow-ips", "proxy.example"], "'proxy.example' is not an address"),
])
def test_bad_options_are_refused_with_words(tmp_path: Path, options: list[str],
                                            words: str) -> None:
    result = CliRunner().invoke(command(), ["serve", "--database",
                                            f"sqlite:///{tmp_path}/casino.db", *options])
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert trusted_proxies(None) is None
    assert trusted_proxies(" ") is None
    assert trusted_proxies("127.0.0.1, 10.0.0.0/8,::1") == "127.0.0.1,10.0.0.0/8,::1"
    assert trusted_proxies("10.0.0.1,*") == "*"  # uvicorn trusts everyone only for "*"
    for bad in ("localhost", "10.0.0.300", "10.0.0.0/33"):
        with pytest.raises(ValueError, match="is not an address or a network"):
            trusted_proxies(bad)


# ----------------------------------------------------------------------
# The settings a worker process is handed


def test_a_worker_makes_its_app_from_the_settings_in_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    url = db_url(tmp_path)
    limits = Limits(rooms_per_address=7, think_seconds=12.5)
    settings = ServerSettings(database_url=url, pool_workers=0, bot_pause=0.25,
                              limits=LimitGroups.from_flat(limits))
    assert settings_from_json(settings.model_dump_json()) == settings
    monkeypatch.setenv(ENV, settings.model_dump_json())
    monkeypatch.setenv("CASINO_DATABASE_URL", "sqlite:///elsewhere.db")  # the model's wins
    app = worker_app()
    service = app.state.service
    assert service.bot_pause == 0.25
    assert service.pool_workers == 0
    assert service.limits == Limits(rooms_per_address=7, think_seconds=12.5)
    assert app.state.store.url == database_url(url)
    with TestClient(app) as client:
        assert client.get("/api/games").status_code == 200


def test_a_worker_without_its_settings_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    with pytest.raises(RuntimeError, match=ENV):
        worker_app()
    with pytest.raises(ValueError, match=f"{ENV} .*limits.no_such_limit"):
        settings_from_json('{"limits": {"no_such_limit": 1}, "database_url": "x"}')
    with pytest.raises(ValueError, match=f"{ENV} .*limits.rooms.rooms_per_address"):
        settings_from_json('{"limits": {"rooms": {"rooms_per_address": 0}}}')
    with pytest.raises(ValueError, match=ENV):
        settings_from_json("not json")


def test_serve_hands_its_workers_the_model_it_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --workers 2`` writes the settings model, limits grouped, into ENV; the
    worker's factory reads back the same model and the same flat limits."""
    import uvicorn

    from casino.web import app as web_app

    started: dict[str, Any] = {}
    # SQLite is refused with several workers before anything starts: let this one through,
    # since uvicorn (which would start the workers) is not run.
    monkeypatch.setattr("casino.web.single.refuse_several", lambda url, workers: None)
    monkeypatch.setattr(uvicorn, "run", lambda target, **run: started.update(target=target))
    monkeypatch.delenv(ENV, raising=False)
    limits = Limits(rooms_per_address=7, review_seconds=60.0, db_threads=2)
    url = db_url(tmp_path)
    web_app.serve("127.0.0.1", 8000, url, 0, limits, workers=2, bot_pause=0.25)
    assert started["target"] == "casino.web.serving:worker_app"
    settings = settings_from_json(os.environ[ENV])
    assert settings == ServerSettings(database_url=url, pool_workers=0, bot_pause=0.25,
                                      limits=LimitGroups.from_flat(limits))
    assert settings.limits.reviews.review_seconds == 60.0
    assert settings.limits.flat() == limits
    monkeypatch.delenv(ENV)


# ----------------------------------------------------------------------
# Behind a reverse proxy


def post_game(base: str, *, source: str, forwarded_for: str) -> int:
    """Start a computer game from the loopback address ``source``, saying it is made for
    ``forwarded_for`` (as a proxy would): the status code."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=base, transport=transport, timeout=30) as client:
        r = client.post("/api/games", json={"rules": "casino", "level": "beginner"},
                        headers={"X-Forwarded-For": forwarded_for})
        return r.status_code


def test_forwarded_addresses_are_believed_only_from_the_named_proxy(tmp_path: Path) -> None:
    # One new game per address (games_burst=1, and the next only a minute later): a
    # second game counts against whichever address the server takes the client to be.
    with casino_serve(db_url(tmp_path), "--forwarded-allow-ips", "127.0.0.1",
                      "--limit", "games_burst=1", "--limit", "games_per_minute=1",
                      folder=tmp_path) as base:
        # From the proxy (127.0.0.1): each client counts under the address it forwards.
        assert post_game(base, source="127.0.0.1", forwarded_for="203.0.113.5") == 201
        assert post_game(base, source="127.0.0.1", forwarded_for="203.0.113.5") == 429
        assert post_game(base, source="127.0.0.1", forwarded_for="203.0.113.6") == 201
        # From anywhere else the header is not believed: both count under 127.0.0.9.
        assert post_game(base, source="127.0.0.9", forwarded_for="203.0.113.7") == 201
        assert post_game(base, source="127.0.0.9", forwarded_for="203.0.113.8") == 429
    log = (tmp_path / "server-S.log").read_text(errors="replace")
    assert "203.0.113.5" in log  # the access log names the client, not the proxy
    # The start-up line says where the games are, which engine answers and which event
    # loop serves (uvloop where installed: it accepts a flood of connections faster).
    started = [line for line in log.splitlines() if line.startswith("casino: games are stored")]
    assert len(started) == 1 and started[0].endswith(
        f"; engine: {engine_name()}; event loop: {event_loop()}"), started
    if sys.platform != "win32" and sys.implementation.name == "cpython":
        assert event_loop() == "uvloop"  # the web extra brings it here


def test_without_the_option_no_forwarded_address_is_believed(tmp_path: Path) -> None:
    with casino_serve(db_url(tmp_path), "--limit", "games_burst=1",
                      "--limit", "games_per_minute=1", folder=tmp_path) as base:
        assert post_game(base, source="127.0.0.1", forwarded_for="203.0.113.5") == 201
        assert post_game(base, source="127.0.0.1", forwarded_for="203.0.113.6") == 429


# ----------------------------------------------------------------------
# PostgreSQL: several processes, and schema upgrades one at a time


@needs_postgres
def test_two_workers_serve_the_lobby_and_share_the_games(tmp_path: Path) -> None:
    with casino_serve(db_url(tmp_path), "--workers", "2", folder=tmp_path) as base:
        browser = httpx.Client(base_url=base, timeout=30)
        assert browser.get("/").status_code == 200
        r = browser.post("/api/games", json={"rules": "casino", "level": "beginner"})
        assert r.status_code == 201, r.text
        game = r.json()["game"]
        browser.close()
        # Each request on a new connection, which either process may take:
        # whichever does finds the game in the database.
        for _ in range(8):
            with httpx.Client(base_url=base, cookies=browser.cookies, timeout=30) as tab:
                listed = tab.get("/api/games")
                assert listed.status_code == 200
                assert game in [g["game"] for g in listed.json()["recent"]]
                assert tab.get(f"/game/{game}").status_code == 200
    text_ = (tmp_path / "server-S.log").read_text(errors="replace")
    assert text_.count("Started server process") == 2, text_
    assert f"served by 2 processes; engine: {engine_name()}" in text_


def waiting_for_lock(url: str, key: int) -> bool:
    """Whether a connection to the database of ``url`` waits for advisory lock ``key``."""
    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            row = conn.execute(text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND ((classid::bigint << 32) | objid::bigint) = :key"), {"key": key}).scalar()
            return bool(row)
    finally:
        engine.dispose()


@needs_postgres
def test_a_schema_upgrade_waits_for_one_under_way(tmp_path: Path) -> None:
    from casino.web.migrations import LOCK_KEY, current, head, upgrade

    url = db_url(tmp_path, "upgrade.db")
    holder = create_engine(database_url(url))
    conn = holder.connect()
    conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK_KEY})
    engine = create_engine(database_url(url))
    failures: list[BaseException] = []

    def upgrading() -> None:
        try:
            upgrade(engine)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)

    thread = threading.Thread(target=upgrading)
    thread.start()
    try:
        deadline = time.monotonic() + START_WAIT
        while not waiting_for_lock(url, LOCK_KEY):
            assert thread.is_alive() and time.monotonic() < deadline, \
                "the upgrade did not wait for the lock"
            time.sleep(0.05)
        assert current(engine) is None  # nothing done while another holds the lock
    finally:
        conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
        conn.close()
        holder.dispose()
        thread.join(START_WAIT)
    assert not failures
    assert current(engine) == head()
    engine.dispose()


@needs_postgres
def test_servers_starting_together_upgrade_a_new_database_once(tmp_path: Path) -> None:
    from casino.web.migrations import current, head, upgrade

    url = db_url(tmp_path, "together.db")
    engines = [create_engine(database_url(url)) for _ in range(4)]
    start = threading.Barrier(len(engines))
    failures: list[BaseException] = []

    def upgrading(engine: Any) -> None:
        start.wait()
        try:
            upgrade(engine)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)

    threads = [threading.Thread(target=upgrading, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(START_WAIT)
    assert not failures, failures
    assert current(engines[0]) == head()
    for e in engines:
        e.dispose()


# ----------------------------------------------------------------------
# A restart, as the game page lives through it


def final_close_codes() -> set[int]:
    """The close codes on which the game page stops reconnecting (static/game.js)."""
    import re

    script = (Path(__file__).parents[1] / "src/casino/web/static/game.js").read_text()
    found = re.search(r"CLOSE_CODES_FINAL = new Set\(\[([0-9, ]+)\]\)", script)
    assert found is not None, "game.js no longer names its final close codes"
    return {int(code) for code in found.group(1).split(",")}


def test_a_page_open_through_a_restart_is_told_to_reconnect_and_finds_its_game(
        tmp_path: Path) -> None:
    import asyncio
    import json
    from contextlib import ExitStack

    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    url = db_url(tmp_path)

    async def hello(base: str, game: str, cookie: str, since: int) -> tuple[Any, int]:
        ws = await connect(base.replace("http", "ws") + f"/ws/{game}",
                           additional_headers={"Cookie": f"casino={cookie}"})
        await ws.send(json.dumps({"type": "hello", "since": since}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), START_WAIT))
            if m["type"] == "state":
                return ws, int(m["version"])

    async def stopped(ws: Any, stack: ExitStack) -> int:
        """Stop the server while the page is open: the close code the page is sent."""
        stopping = asyncio.get_running_loop().run_in_executor(None, stack.close)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), START_WAIT)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "the server closed without a close frame"
            code = closed.rcvd.code
        await stopping
        return code

    with ExitStack() as first:
        base = first.enter_context(casino_serve(url, folder=tmp_path, name="first"))
        with httpx.Client(base_url=base, timeout=30) as browser:
            r = browser.post("/api/games", json={"rules": "casino", "level": "beginner"})
            assert r.status_code == 201, r.text
            game, cookie = r.json()["game"], browser.cookies["casino"]

        async def through_the_stop() -> tuple[int, int]:
            ws, version = await hello(base, game, cookie, 0)
            return version, await stopped(ws, first)

        version, code = asyncio.run(through_the_stop())
    # 1012, "service restart": the page reconnects at once, and keeps retrying (its
    # back-off grows to 15 s) while nothing answers; it stops only on these codes.
    assert code == 1012
    assert not final_close_codes() & {code, 1001, 1006}
    # The server back (on the same database): the page's hello resumes the game.
    with casino_serve(url, folder=tmp_path, name="second") as base:
        async def again() -> int:
            ws, resumed = await hello(base, game, cookie, version)
            await ws.close()
            return resumed

        assert asyncio.run(again()) >= version
