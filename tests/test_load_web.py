"""The web load benchmark (benchmarks/load_web.py): its small parts at once, and one
short run against a SQLite server it starts (slow: a server, a warm-up game, two games
against the computer and one between two people, about 20 s).

The run checks that the figures are there and add up, never what they are: the
latencies depend on the machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from tests.benchmark_scripts import load

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "load_web.py"


load_web = load("load_web")


def test_percentiles_are_nearest_rank_in_milliseconds() -> None:
    values = [k / 1000 for k in range(1, 101)]  # 1 ms ... 100 ms
    assert load_web.spread(values) == {50: 50.0, 95: 95.0, 99: 99.0}
    assert load_web.spread([]) == {}


def test_the_database_kind_and_the_shown_url_keep_no_password() -> None:
    assert load_web.database_kind("postgres://u:p@h/db") == "postgresql"
    assert load_web.database_kind("postgresql+psycopg://u:p@h/db") == "postgresql"
    assert load_web.database_kind("sqlite:////tmp/x.db") == "sqlite"
    assert load_web.database_kind(None) == "unknown"
    assert load_web.shown_url("postgresql://casino:secret@127.0.0.1/load") == "127.0.0.1/load"


def test_consecutive_free_ports_are_free() -> None:
    ports = load_web.free_ports(3)
    assert ports == list(range(ports[0], ports[0] + 3))
    assert all(load_web.port_free(p) for p in ports)


def test_the_memory_of_a_server_counts_the_processes_under_it() -> None:
    """A server's workers are its grandchildren (forked from a fork server): all count."""
    shell = subprocess.Popen(["sh", "-c", "sh -c 'sleep 30 & wait' & wait"])
    try:
        for _ in range(200):
            if len(load_web.descendants(shell.pid)) >= 2:
                break
            subprocess.run(["sleep", "0.02"], check=True)
        assert len(load_web.descendants(shell.pid)) >= 2
        assert load_web.tree_rss_kib(shell.pid) > load_web.rss_kib(shell.pid) > 0
    finally:
        for pid in load_web.descendants(shell.pid):
            os.kill(pid, 9)
        shell.kill()
        shell.wait()


@pytest.mark.parametrize(("argv", "words"), [
    (["--servers", "2"], "PostgreSQL"),
    (["--servers", "2", "--database", "sqlite:////tmp/x.db"], "PostgreSQL"),
    (["--servers", "1", "--url", "http://127.0.0.1:1"], "either --url"),
    (["--database", "postgresql://h/db"], "--servers N"),
    (["--games", "0"], "--games"),
])
def test_contradictory_options_are_refused_in_words(
        argv: list[str], words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["load_web.py", *argv])
    with pytest.raises(SystemExit) as stopped:
        load_web.parse()
    assert words in str(stopped.value)


@pytest.mark.slow
def test_a_short_run_plays_every_game_and_times_each_delivery(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "2", "--friends", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())
    assert figures["played"] == 2 and figures["refused"] == figures["failed"] == 0
    assert figures["moves"] > 0 and set(figures["ack_ms"]) == {"50", "95", "99"}
    assert figures["servers"] == 1 and figures["database"] == "sqlite"
    assert figures["rss_per_game_kib"] is not None
    friends = figures["friends"]
    assert friends["finished"] == 1 and friends["not_delivered"] == {}
    assert friends["moves_delivered"] > 0 and friends["delivery_ms"]
    assert "delivery (move to other player)" in done.stdout
    assert "1 server (create_app under uvicorn" in done.stdout


def test_a_friends_page_reconnects_when_its_server_says_so() -> None:
    """A server that reloaded a game closes its pages with 1012; the benchmark's page
    comes back with the last version it saw, as the browser's does, and the state that
    follows still counts as the change's delivery."""
    hellos: list[int] = []

    async def handler(ws: ServerConnection) -> None:
        hellos.append(json.loads(await ws.recv())["since"])
        version = len(hellos)
        await ws.send(json.dumps({"type": "state", "version": version, "view": {}}))
        if version == 1:
            await ws.close(1012, "the game was reloaded")
        else:
            await ws.wait_closed()

    async def scenario() -> None:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            side = load_web.Side(f"ws://127.0.0.1:{port}/ws/g", "token", "127.0.0.1")
            await side.open()
            try:
                assert await side.state_after(-1, 10) is not None
                assert await side.state_after(1, 10) is not None
                assert side.version == 2 and side.reconnects == 1
            finally:
                await side.close()

    asyncio.run(scenario())
    assert hellos == [0, 1]
