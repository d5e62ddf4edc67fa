"""Several real ``casino serve`` processes on one PostgreSQL database, and browsers that
talk to them (tests/test_web_cluster.py).

Everything here is as a person and an operator see it: a server is the command itself
(``python -m casino serve --port P --database URL ...``) in a process of its own, a
person is a cookie (the ``casino`` browser token) sent over plain HTTP, and a game page
is a WebSocket that says ``hello`` with the last version it has and reconnects when
the server closes it, as ``static/game.js`` does. So a test can put one player on one
process and the other on another, or kill a process dead and carry on elsewhere.

Each test module gets a database of its own on the PostgreSQL server that
``CASINO_TEST_POSTGRES`` names (created with a random name, dropped at the end), so
games left over by another run or another module never meet its games.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

import casino
from casino.web.store import Store, StoredGame, database_url

#: The longest a single wait for the server lasts: a safety net against a hang, never a
#: measure (a feature that is missing fails the test after this long, not never).
WAIT = 20.0
#: The close codes after which a game page gives up rather than reconnect (game.js's
#: CLOSE_CODES_FINAL: no seat, another site, no such game, a lapsed room).
FINAL_CLOSES = frozenset({4401, 4403, 4404, 4410})
#: The folder holding the ``casino`` package the tests import: the servers run the same code.
SOURCE = Path(casino.__file__).resolve().parents[1]


# ----------------------------------------------------------------------
# A database of its own


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the PostgreSQL server at ``server_url`` (a URL of any of
    its databases): its URL; dropped on leaving, whoever is still connected to it."""
    name = f"casino_cluster_{secrets.token_hex(6)}"
    admin = create_engine(database_url(server_url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        base, _, _ = server_url.rpartition("/")
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = :d AND pid <> pg_backend_pid()"), {"d": name})
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def stored(database: str, game: str) -> StoredGame:
    """The game as the database holds it now."""
    store = Store(database)
    try:
        got = store.load(game)
    finally:
        store.close()
    assert got is not None
    return got


# ----------------------------------------------------------------------
# A server: ``casino serve`` in a process of its own


def _free_port() -> int:
    """A TCP port nothing listens on just now (``casino serve`` takes a number, not a
    socket: a port taken in between by a parallel test is retried by :func:`start`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """One ``casino serve`` process: its name in the test (``A``), port and output."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game: str, *, watch: bool = False) -> str:
        """The game's WebSocket: a seat's page's, or (``watch``) a spectator's."""
        return f"ws://127.0.0.1:{self.port}/ws/{'watch/' if watch else ''}{game}"

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the server and everything it started, as a crash would: no shutdown
        code runs, whatever it was doing (a computer thinking) is lost mid-way."""
        if self.alive():
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(20)

    def stop(self) -> None:
        """Stop the server as an operator would (SIGTERM), killing it if it lingers."""
        if self.alive():
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        with suppress(ProcessLookupError):  # any child it left behind
            os.killpg(self.proc.pid, signal.SIGKILL)


def serve_command(port: int, database: str, *, workers_pool: int = 0,
                  computer_pause: float | None = None,
                  limits: dict[str, str] | None = None,
                  extra: Sequence[str] = ()) -> list[str]:
    """The command line of a server. ``computer_pause`` is passed only when given,
    ``limits`` become ``--limit NAME=VALUE``, and ``extra`` is added as it is: a server
    that does not know an option refuses to start, so a test names only what it needs."""
    command = [sys.executable, "-m", "casino", "serve", "--port", str(port),
               "--database", database, "--workers-pool", str(workers_pool)]
    if computer_pause is not None:
        command += ["--computer-pause", f"{computer_pause:g}"]
    for name, value in (limits or {}).items():
        command += ["--limit", f"{name}={value}"]
    return command + list(extra)


def start(name: str, database: str, folder: Path, *, workers_pool: int = 0,
          computer_pause: float | None = None,
          limits: dict[str, str] | None = None, extra: Sequence[str] = ()) -> Server:
    """Start ``casino serve`` on a free port and wait until it answers HTTP; its output
    (stdout and stderr) goes to ``folder/server-<name>.log``. A server that exits
    before answering fails the test with its output."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(SOURCE), os.environ.get("PYTHONPATH", "")])}
    log = folder / f"server-{name}.log"
    command: list[str] = []
    for _attempt in range(3):
        command = serve_command(_free_port(), database, workers_pool=workers_pool,
                                computer_pause=computer_pause, limits=limits, extra=extra)
        with log.open("wb") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=folder, env=env,
                                    start_new_session=True)
        server = Server(name, int(command[command.index("--port") + 1]), proc, log)
        if _answers(server):
            return server
        server.stop()
        if "address already in use" not in server.log_text().lower():
            break
    shown = " ".join(word.rpartition("@")[2] if word == database else word for word in command)
    raise AssertionError(f"server {name} did not start: {shown}\n"  # no password shown
                         + log.read_text(encoding="utf-8", errors="replace"))


def _answers(server: Server) -> bool:
    """Wait until the server answers HTTP (True) or its process ends (False)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not server.alive():
            return False
        try:
            httpx.get(server.base + "/api/games", timeout=1)
            return True
        except httpx.HTTPError:
            time.sleep(0.05)
    return False


@contextmanager
def showing_logs(*servers: Server, whole: bool = False) -> Iterator[None]:
    """When the block fails, print what each server wrote during it (``whole``: since it
    started) to stderr, which pytest shows with the failure."""
    start = {s.name: 0 if whole else s.log.stat().st_size for s in servers}
    try:
        yield
    except BaseException:
        for s in servers:
            wrote = s.log.read_bytes()[start[s.name]:].decode("utf-8", errors="replace")
            print(f"===== server {s.name} (port {s.port}) wrote =====\n{wrote}",
                  file=sys.stderr)
        raise


@contextmanager
def running(name: str, database: str, folder: Path, **options: Any) -> Iterator[Server]:
    """A server for the ``with`` block (:func:`start`'s options); stopped on leaving,
    and its output shown when the block fails."""
    server = start(name, database, folder, **options)
    try:
        with showing_logs(server, whole=True):
            yield server
    finally:
        server.stop()


# ----------------------------------------------------------------------
# People: a browser token over HTTP


class Person:
    """One browser: the ``casino`` cookie the server sets, sent to whichever server it
    talks to (every server of a database knows every seat: the hashes are stored)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.token: str | None = None

    def headers(self, server: Server) -> dict[str, str]:
        """What a page of ``server`` sends: its cookie, and its own site as the Origin."""
        out = {"Origin": server.base}
        if self.token is not None:
            out["Cookie"] = f"casino={self.token}"
        return out

    def _keep(self, response: httpx.Response) -> httpx.Response:
        token = response.cookies.get("casino")
        if token:
            self.token = token
        return response

    def post(self, server: Server, path: str, body: dict[str, Any]) -> httpx.Response:
        return self._keep(httpx.post(server.base + path, json=body, timeout=WAIT,
                                     headers=self.headers(server)))

    def get(self, server: Server, path: str) -> httpx.Response:
        return self._keep(httpx.get(server.base + path, timeout=WAIT,
                                    headers=self.headers(server)))

    def create(self, server: Server, **body: Any) -> dict[str, Any]:
        """A new game on ``server`` (``POST /api/games``): its answer (game, url, invite)."""
        r = self.post(server, "/api/games", {"name": self.name, **body})
        assert r.status_code == 201, r.text
        answer: dict[str, Any] = r.json()
        return answer

    def join(self, server: Server, invite: str) -> None:
        """Follow a room's invite link on ``server`` under this person's name."""
        r = self.get(server, f"{invite}?name={self.name}")
        assert r.status_code == 303, r.text
        assert self.token is not None


# ----------------------------------------------------------------------
# A game page: one seat's WebSocket, reconnecting as the page does


def event_key(e: dict[str, Any]) -> tuple[int, str, int | None, str | None]:
    """An event as every seat sees it (its ``words`` say "You" to the seat that acted)."""
    return e["n"], e["kind"], e["seat"], e["text"]


@dataclass(eq=False)
class Page:
    """A game page of ``person`` on ``server``: every message it got, its latest state,
    and each public event once, in the order of their numbers as they came."""

    person: Person
    server: Server
    game: str
    version: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    #: Every message received, on every connection of the page (for the leak scan).
    payloads: list[dict[str, Any]] = field(default_factory=list)
    #: The events received, each once (an event sent again must be the same).
    events: dict[int, tuple[int, str, int | None, str | None]] = field(default_factory=dict)
    #: The close codes of the connections the server closed (None: no close frame).
    closes: list[int | None] = field(default_factory=list)
    ws: ClientConnection | None = None
    #: A spectator's page (``/ws/watch/<game>``) rather than a seat's.
    watch: bool = False

    async def open(self) -> None:
        """Connect to the page's server and say ``hello`` with the version the page has."""
        last: Exception | None = None
        for _ in range(20):
            try:
                self.ws = await connect(self.server.ws_url(self.game, watch=self.watch),
                                        additional_headers=self.person.headers(self.server),
                                        proxy=None, ping_interval=None, open_timeout=WAIT,
                                        max_queue=None)
                break
            except OSError as e:  # refused: the server is not there (yet)
                last = e
                await asyncio.sleep(0.25)
        else:
            raise AssertionError(f"cannot connect to server {self.server.name}: {last}")
        await self.send({"type": "hello", "since": self.version})

    async def move_to(self, server: Server) -> None:
        """Open the page on another server (its own died, say): ``hello`` from where it was."""
        await self.close()
        self.server = server
        await self.open()

    async def close(self) -> None:
        if self.ws is not None:
            with suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
            self.ws = None

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None, "the page is not connected"
        await self.ws.send(json.dumps(message))

    async def play(self, move: str) -> None:
        """Play ``move``, saying which version it was chosen on (as the page does)."""
        await self.send({"type": "play", "move": move, "version": self.version})

    async def next_round(self) -> None:
        await self.send({"type": "next_round", "version": self.version})

    def first_move(self) -> str:
        """The first move the view offers (captures first, the trail last)."""
        legal = self.view["legal"]
        assert legal, f"no move offered to seat {self.view['you']}: {self.view}"
        return str(legal[0]["text"])

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message that is not a ping (pings are answered); a connection the
        server closes is opened again (unless its code is final), as the page does."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError
            if self.ws is None:
                await self.open()
            assert self.ws is not None
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else None
                self.closes.append(code)
                self.ws = None
                assert code not in FINAL_CLOSES, \
                    f"server {self.server.name} shut the page out: {code} {self.payloads[-1:]}"
                await asyncio.sleep(0.2)  # the page waits a moment before it reconnects
                continue
            m: dict[str, Any] = json.loads(raw)
            self.payloads.append(m)
            if m["type"] == "ping":
                await self.send({"type": "pong"})
                continue
            if m["type"] == "state":
                self._state(m)
            return m

    def _state(self, m: dict[str, Any]) -> None:
        assert m["version"] >= self.version, "versions never go back"
        for e in m["events"]:
            key = event_key(e)
            seen = self.events.setdefault(e["n"], key)
            assert seen == key, f"event {e['n']} came twice, differently: {seen} and {key}"
        self.version, self.view = m["version"], m["view"]

    async def until(self, done: Callable[[Page], bool], what: str,
                    timeout: float = WAIT) -> list[dict[str, Any]]:
        """Read until ``done(self)``: the messages read meanwhile. Past ``timeout``
        seconds the test fails saying ``what`` it waited for."""
        got: list[dict[str, Any]] = []
        deadline = asyncio.get_running_loop().time() + timeout
        while not done(self):
            left = deadline - asyncio.get_running_loop().time()
            try:
                if left <= 0:
                    raise TimeoutError
                got.append(await self.recv(left))
            except TimeoutError:
                raise AssertionError(
                    f"{self.person.name}'s page on server {self.server.name} waited "
                    f"{timeout:g} s for {what}; it is at version {self.version}, "
                    f"last messages {self.payloads[-3:]}") from None
        return got

    async def until_version(self, version: int, timeout: float = WAIT) -> None:
        await self.until(lambda p: p.version >= version, f"version {version}", timeout)

    def event_list(self) -> list[tuple[int, str, int | None, str | None]]:
        return [self.events[n] for n in sorted(self.events)]
