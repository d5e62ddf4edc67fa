"""Helpers of the web server tests: an app on a temporary database, a seat's connection,
and the scan of everything a player received for cards they may not see."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from casino.engine.cards import card_symbol, card_text
from casino.engine.record import Record
from casino.web import create_app
from casino.web.limits import Limits
from casino.web.service import GameService
from casino.web.store import Store, database_url

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: Limits that a test client playing as fast as it can never reaches (a player's choices
#: are worked out however long a loaded machine takes).
FAST = Limits(messages_per_second=10_000, message_burst=10_000, games_per_minute=10_000,
              games_burst=10_000, select_seconds=600.0)


#: A PostgreSQL server to run the web tests against instead of SQLite files, as
#: ``postgresql://casino:casino@127.0.0.1/postgres`` (CI sets it; see the Makefile).
POSTGRES = os.environ.get("CASINO_TEST_POSTGRES")


def db_url(tmp_path: Path, name: str = "casino.db") -> str:
    """A new database for a test: a SQLite file, or a fresh PostgreSQL database.

    The same ``tmp_path`` and ``name`` give the same database, so a test can
    restart the server on it.
    """
    if not POSTGRES:
        return f"sqlite:///{tmp_path / name}"
    digest = hashlib.sha256(f"{tmp_path}/{name}".encode()).hexdigest()[:16]
    database = f"casino_test_{digest}"
    admin = create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :d"),
                              {"d": database}).first()
        if not exists:
            conn.execute(text(f'CREATE DATABASE "{database}"'))
    admin.dispose()
    base, _, _ = POSTGRES.rpartition("/")
    return f"{base}/{database}"


@contextmanager
def web(tmp_path: Path, *, limits: Limits = FAST, pool_workers: int = 0,
        name: str = "casino.db") -> Iterator[TestClient]:
    """A TestClient on a new app (started, so its background tasks keep running)."""
    app = create_app(db_url(tmp_path, name), pool_workers=pool_workers, limits=limits,
                     hint_level="beginner")
    with TestClient(app) as client:
        yield client


def guest(client: TestClient) -> TestClient:
    """Another browser (its own cookies) on the same running app and event loop."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def new_game(client: TestClient, **body: Any) -> str:
    """A new game (beginner computers by default); the client now holds the seat cookie."""
    r = client.post("/api/games", json={"rules": "casino", "level": "beginner",
                                        "mode": "computer", **body})
    assert r.status_code == 201, r.text
    return str(r.json()["game"])


def cookie_of(client: TestClient, game_id: str) -> str:
    """The browser token that holds the client's seats (one cookie for every game)."""
    return str(client.cookies["casino"])


class Seat:
    """One player's WebSocket: every payload it received is kept for the leak scan."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.payloads: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.version = -1

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        self.payloads.append(m)
        if m["type"] == "state":
            assert m["version"] >= self.version, "versions never go back"
            self.view = m["view"]
            self.version = m["version"]
        return m

    def recv_type(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] == kind:
                return m

    def hello(self, since: int = 0) -> dict[str, Any]:
        self.send({"type": "hello", "since": since})
        return self.recv_type("state")

    def until_version(self, version: int) -> None:
        while self.version < version:
            self.recv()

    def error(self) -> str:
        return str(self.recv_type("error")["message"])

    def play_first(self) -> None:
        self.send({"type": "play", "move": self.view["legal"][0]["text"]})

    def until_actionable(self) -> dict[str, Any]:
        """States until it is this seat's turn, a round is over, or the game is."""
        while True:
            v = self.view
            if v and (v["your_turn"] or v["status"] in ("round_over", "over")):
                return v
            self.recv()


def play_against_computer(seat: Seat, *, max_moves: int = 1000) -> dict[str, Any]:
    """Play the first legal move at every turn until the game is over; the last view."""
    if not seat.view:
        seat.hello(0)
    for _ in range(max_moves):
        v = seat.until_actionable()
        if v["status"] == "over":
            return v
        if v["status"] == "round_over":
            seat.send({"type": "next_round"})
        else:
            seat.play_first()
        seat.recv_type("state")
    raise AssertionError("the game did not end")


def gone(pid: int) -> bool:
    """Whether process ``pid`` no longer exists (reaped, not even a zombie): how the
    tests of the thinking processes see that one was stopped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# ----------------------------------------------------------------------
# The leak scan


def _patterns(card: int) -> list[re.Pattern[str]]:
    # A card's text stands alone ("8d", "5d+3s", "9d x 9c"); inside a random token
    # (an invite link's "..._8d") it is no card, so "_" and "-" count as word characters.
    return [re.compile(r"(?<![0-9A-Za-z_-])" + re.escape(card_text(card))
                       + r"(?![0-9A-Za-z_-])"),
            re.compile(r"(?<![0-9A-Za-z])" + re.escape(card_symbol(card)))]


PATTERNS = {c: _patterns(c) for c in range(52)}


def hidden_at(record: Record, round_number: int, moves: int, seat: int | None) -> set[int]:
    """The cards ``seat`` may not see after ``moves`` moves of round ``round_number``
    (``None``, a spectator: every hand)."""
    pos = record.rounds[round_number - 1].positions[moves]
    hidden: set[int] = set()
    for s, hand in enumerate(pos.hands):
        if s != seat:
            assert isinstance(hand, tuple)
            hidden.update(hand)
    assert isinstance(pos.stock, tuple)
    hidden.update(pos.stock)
    return hidden


def leaks(payload: dict[str, Any], hidden: set[int]) -> list[str]:
    """The hidden cards whose text or symbol appears anywhere in ``payload``."""
    text = json.dumps(payload, ensure_ascii=False)
    return [card_text(c) for c in sorted(hidden) if any(p.search(text) for p in PATTERNS[c])]


def current_part(m: dict[str, Any]) -> dict[str, Any]:
    """A state without the history of earlier rounds (its cards were dealt again since)."""
    if m["type"] != "state":
        return m
    v = dict(m["view"])
    earlier = {e["text"] for e in v["log"] if e["round"] < v["round"]}
    v["log"] = [e for e in v["log"] if e["round"] == v["round"]]
    v.pop("rounds")
    if v["last"] is not None and v["last"]["round"] < v["round"]:
        v["last"] = None
    events = [e for e in m["events"] if not (e["kind"] == "move" and e["text"] in earlier)]
    return {**m, "view": v, "events": events}


def scan(payloads: list[dict[str, Any]], seat: int | None, record: Record) -> int:
    """Check every payload against the hidden cards at its moment (the moment its view
    shows: a spectator's may be some moves behind); the number checked. ``seat`` None:
    a spectator's payloads, who may see no hand."""
    hidden: set[int] = set()
    checked = 0
    for m in payloads:
        if m["type"] == "state":
            v = m["view"]
            assert v["you"] == seat
            moves = sum(1 for e in v["log"] if e["round"] == v["round"])
            hidden = hidden_at(record, v["round"], moves, seat)
            assert len(v["hand"]) == (v["hand_counts"][seat] if seat is not None else 0)
        found = leaks(current_part(m), hidden)
        assert not found, f"seat {seat} was sent hidden cards {found} in {m}"
        checked += 1
    return checked


# ----------------------------------------------------------------------
# A real server: uvicorn in a subprocess on loopback


@dataclass(frozen=True)
class Served:
    """A server running in a subprocess: where it listens and where its output goes."""

    base: str
    port: int
    log: Path | None

    def ws_url(self, game: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{game}"

    def log_text(self) -> str:
        assert self.log is not None, "this server's output was not kept"
        return self.log.read_text(encoding="utf-8", errors="replace")


def listening_socket() -> socket.socket:
    """A TCP socket listening on 127.0.0.1 at a port the system picked.

    A server is handed the socket itself rather than its port number: a port looked
    up free and bound again later could be taken in between by a test running in
    parallel (``make test`` runs several), and the test would then talk to the other
    test's server.
    """
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


@contextmanager
def real_server(app: str, *, setup: str = "", log: Path | None = None,
                log_level: str = "warning", crash: bool = False) -> Iterator[Served]:
    """``app`` (Python that makes the ASGI app, as ``create_app(url)``) under uvicorn on
    127.0.0.1, a port of its own, in a subprocess of its own, after the lines ``setup``.

    Its output goes to ``log`` when given. On leaving it is stopped as an operator
    would (SIGTERM), or, with ``crash``, killed dead as a crash would (no shutdown
    code runs).
    """
    with listening_socket() as sock:
        port, fd = int(sock.getsockname()[1]), sock.fileno()
        code = ("import socket\nimport uvicorn\nfrom casino.web import create_app\n" + setup
                + f"\napp = {app}\n"
                + f"listener = socket.socket(fileno={fd})\n"
                + f"config = uvicorn.Config(app, log_level={log_level!r})\n"
                + "uvicorn.Server(config).run(sockets=[listener])\n")
        out = log.open("wb") if log is not None else None
        try:
            proc = subprocess.Popen([sys.executable, "-c", code], stdout=out,
                                    stderr=subprocess.STDOUT if out else None,
                                    start_new_session=True, pass_fds=(fd,))
        finally:
            if out is not None:
                out.close()
    served = Served(f"http://127.0.0.1:{port}", port, log)
    try:
        for _ in range(1200):
            try:
                httpx.get(served.base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    shown = served.log_text() if log is not None else ""
                    raise AssertionError("the server did not start:\n" + shown) from None
                time.sleep(0.05)
        yield served
    finally:
        os.killpg(proc.pid, signal.SIGKILL if crash else signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)


@contextmanager
def uvicorn_server(url: str) -> Iterator[str]:
    """The app on database ``url`` in a real uvicorn, killed dead on leaving, as a crash
    would: its base URL."""
    app = f"create_app({url!r}, pool_workers=1, hint_level='beginner')"
    with real_server(app, crash=True) as served:
        yield served.base


async def finish_friends_game(service: GameService, rules: str = "casino",
                              seed: int = 3) -> str:
    """A two-person game of ``rules`` dealt from ``seed``, made through ``service``: Ann
    and Bob play its first round to the end (each seat's first legal move), then Bob
    resigns, so the game is over (what a review needs)."""
    created = service.rooms.create(rules=rules, players=2, level="beginner", mode="friends",
                             name="Ann", seed=seed)
    assert created.invite is not None
    await service.rooms.join(created.game, created.invite.rsplit("/", 1)[1], "Bob")
    game = await service.live.get(created.game)
    assert game is not None
    s = game.session
    for _ in range(200):
        pos = s.match.position
        if pos.result is not None:
            break
        await service.turns.play(game, s.to_move, str(pos.legal_moves()[0]))
    await service.turns.resign(game, 1)
    return str(created.game)


# ----------------------------------------------------------------------
# Accounts (tests/test_web_accounts*.py)

#: Limits for the accounts' tests: the games' fast ones, and Argon2 made cheap (one pass
#: over 8 KiB) so a sign-up takes milliseconds; the server's own cost is argon2-cffi's.
ACCOUNTS = dataclasses.replace(FAST, password_time_cost=1, password_memory_kib=8,
                               password_lanes=1)


def browser(client: TestClient, host: str = "testclient") -> TestClient:
    """Another browser (its own cookies) at the client address ``host``, on the same
    running app and event loop; redirects are not followed, so tests see them."""
    other = TestClient(client.app, client=(host, 50000), follow_redirects=False)
    other.portal = client.portal
    return other


def csrf_of(page: str) -> str:
    """The CSRF token of the (first) form on an account page."""
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m, "the page has no form token"
    return m.group(1)


def sign_up(client: TestClient, name: str, password: str, **more: str) -> httpx.Response:
    """Fill the sign-up form as a browser would (its page first, for the token)."""
    token = csrf_of(client.get("/signup").text)
    r: httpx.Response = client.post("/signup", data={"name": name, "password": password,
                                                     "csrf": token, **more})
    return r


def sign_in(client: TestClient, name: str, password: str) -> httpx.Response:
    """Fill the sign-in form as a browser would."""
    token = csrf_of(client.get("/signin").text)
    r: httpx.Response = client.post("/signin", data={"name": name, "password": password,
                                                     "csrf": token})
    return r


def recovery_codes(page: str) -> list[str]:
    """The recovery codes a page shows."""
    return re.findall(r"<code>([a-z0-9-]+)</code>", page)


def store_of(client: TestClient) -> Store:
    """The app's store."""
    store: Store = client.app.state.service.store  # type: ignore[attr-defined]
    return store
