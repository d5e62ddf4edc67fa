"""Load figures for the web game: N concurrent games over loopback WebSockets, on one
server process or spread over several.

By default it starts ``casino.web`` under uvicorn in a subprocess on 127.0.0.1 (a
fresh SQLite file in a temporary folder, computers answering at once), then plays N
games at once against the computer: each client creates its game over HTTP,
connects its WebSocket with the seat cookie and plays a random legal move (seeded
by the client's number) at each of its turns, starting the next round when one
ends, until the game is over. A client waits 1 to 2 times ``--think`` seconds (at
random) between two messages: the server allows 20 a second per connection, and
people are much slower still.

Several servers:

- ``--servers N --database URL`` starts N ``casino serve`` processes itself, on
  consecutive ports (from ``--port``, else the first free run), against one
  database (PostgreSQL: a SQLite file is served by one process only), each with
  ``--workers-pool`` thinking processes; it waits until each answers and stops them
  at the end. ``casino serve`` makes computers take at least 0.6 s a move, so the
  **turn** figures include that pause (``--computer-pause S`` passes another, where
  the command has the option). The first server is started alone (it brings the
  database's schema up to date), the others once it answers.
- ``--url URL`` (repeatable) or ``--urls A,B`` plays against servers already
  running; their memory is then not measured.

The clients are spread round-robin over the servers (client i on server i mod N).

Each client comes from an address of its own on the loopback network
(``127.A.B.1``, a /24 network each), as people do, so a load run measures the load,
not the server's limits per address and per network (30 new games a minute from
one address). ``--one-address`` sends every client from 127.0.0.1 instead, to see
those limits at work. A game the server refuses (a limit, a full server) is
counted and reported with the server's reason, never waited for; so is a client
whose game failed midway.

Two latencies are measured for every move, from sending ``play``:

- **ack**: until the state that contains the move arrives (the server checked
  it, committed it to the database and broadcast it);
- **turn**: until it is the player's turn again (the computer's reply was
  thought about in the process pool and played too).

**Delivery between processes** (``--friends K``): K more games between two people,
seat 0 playing through one server and seat 1 through the next (friends game j:
servers j mod N and j+1 mod N), each seat waiting 1 to 2 times ``--think`` before
its move. For every move, the delivery delay runs from the mover's ``play`` to the
moment the *other* player's connection receives the state with that move, which
its server learned from the database, not from the mover. A move the other player
has not received after ``--deliver-timeout`` seconds is counted as not delivered
and ends its game (the other process holds a game that has stopped for it). With
one server both seats share it: the same-process delay, for comparison. The friends
games start once the memory has been counted, and play on while the computer games
finish.

**Rated games between accounts** (``--rated K``): K more games between two people
signed in, each with two accounts of its own signed up for it (``load{run}a{j}`` and
``load{run}b{j}``, ``run`` five random letters, so that names never repeat): each
account signs up as the sign-up page does (the page for its form's token, then the
form, ``Origin`` and ``Sec-Fetch-Site`` as a browser sends them), from its own
address; the first makes a rated room for friends, the second joins it by the invite,
and their pages (the WebSocket with the seat's cookie and the session's) play as a
friends game does, each seat waiting 1 to 2 times ``--think`` before its move; for
each move the **ack** (to the mover's own page) and the delivery (to the other's) are
timed. The accounts are signed up before the games, ``SIGNUPS_AT_ONCE`` at a time,
and timed apart (each costs the server an Argon2 hashing; a sign-up refused as busy,
503, is sent again after 1 to 2 s, and counted). The rated games start with the
computer games and play alongside them. Each person leaves after ``--moves`` moves
of their own, as in a computer game, and then one of them resigns, so that every rated
game ends; once all are over, both players' pages (``/player/NAME``) must show one
rated game each, their rating moved: a game that does not is reported.

**Lost moves**: every move a server acknowledged (its mover's page received the state
with it) is looked up, once the servers have stopped, in its game's record as stored
in the database (what a restart would find): a move its seat made fewer times in the
record than it was acknowledged is lost. Counted per kind of game (computer, friends,
rated); not checked against servers given by ``--url``, whose database is not known.

Memory: the resident set size (RSS, from /proc) of each server process the script
started, once the servers are warm and again when every computer game is in memory
mid-game, summed over the servers; the difference divided by the games live then
(the computer games, and the rated games being played) is the memory per live game.
It is given for the server processes themselves (the figure of earlier runs) and for
them with every process under them (thinking, selection and helper workers), which do
not grow with the games but may start between the two counts.

Usage::

    .venv/bin/python benchmarks/load_web.py [--games 20] [--level beginner]
        [--pool-workers 1] [--think 0.06] [--one-address] [--json PATH]
        [--servers N --database URL [--port P] [--computer-pause S] [--limit NAME=VALUE]]
        [--url URL ... | --urls A,B] [--friends K] [--rated K] [--deliver-timeout 5]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import os
import platform
import random
import re
import signal
import socket
import statistics
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int, first: int | None = None) -> list[int]:
    """``count`` consecutive free ports: from ``first``, or the first run found."""
    if first is not None:
        ports = list(range(first, first + count))
        taken = [p for p in ports if not port_free(p)]
        if taken:
            raise SystemExit(f"port {taken[0]} is taken (--port {first} needs {count} free)")
        return ports
    for _ in range(100):
        start = free_port()
        ports = list(range(start, start + count))
        if ports[-1] <= 65535 and all(port_free(p) for p in ports):
            return ports
    raise SystemExit(f"found no {count} consecutive free ports")


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (children, grandchildren...), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: the name may hold spaces and parentheses
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def tree_rss_kib(pid: int) -> int:
    """Resident memory of a process and every process under it, in KiB."""
    return rss_kib(pid) + sum(rss_kib(c) for c in descendants(pid))


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    # The smallest value with at least p% of them at or below it. (It was
    # round(x + 0.5), which Python rounds to even: on 100 values p99 was the largest.)
    k = max(0, min(len(ordered) - 1, math.ceil(p * len(ordered) / 100) - 1))
    return ordered[k]


def spread(values: list[float]) -> dict[int, float]:
    """p50, p95 and p99 of ``values`` (seconds) in milliseconds; empty for no values."""
    return {p: 1000 * percentile(values, p) for p in (50, 95, 99)} if values else {}


def client_address(index: int, one: bool) -> str:
    """The loopback address client ``index`` connects from: a /24 network of its own
    (``127.1.1.1``, ``127.1.2.1``, ...), or 127.0.0.1 for all with ``one``."""
    if one or index < 0:
        return "127.0.0.1"
    return f"127.{1 + index // 250}.{1 + index % 250}.1"


def cpu_model() -> str:
    """The processor's name (``model name`` of /proc/cpuinfo), else what platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def database_kind(url: str | None) -> str:
    """``sqlite``, ``postgresql``... from a SQLAlchemy URL (``unknown`` without one)."""
    if not url:
        return "unknown"
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    return "postgresql" if scheme == "postgres" else scheme


def shown_url(url: str) -> str:
    """A database URL without its password (``user@host/db``), for the report."""
    return url.rsplit("@", 1)[-1] if "@" in url else url


#: How long a browser keeps an idle connection to reuse: less than the server's own
#: keep-alive (uvicorn's 5 s), or a request sent as the server closes it fails.
KEEPALIVE_SECONDS = 2.0


def browser(address: str) -> httpx.AsyncClient:
    """A browser's HTTP client from ``address``: its cookies kept, its idle connections
    reused for :data:`KEEPALIVE_SECONDS`."""
    return httpx.AsyncClient(timeout=60, transport=httpx.AsyncHTTPTransport(
        local_address=address, limits=httpx.Limits(keepalive_expiry=KEEPALIVE_SECONDS)))


def failure(exc: Exception) -> str:
    """A failed game's reason: the exception, and the request it failed on, if one."""
    words = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, httpx.RequestError):
        with suppress(RuntimeError):  # a request attached, as there always is
            words += f" ({exc.request.method} {exc.request.url.path})"
    return words


class Game:
    """One client playing one game; its latencies in seconds, or why it did not play."""

    #: Leave after this many moves of one's own (0: play the game to its end).
    max_moves = 0

    def __init__(self, base: str, level: str, index: int, think: float,
                 address: str = "127.0.0.1") -> None:
        self.base = base
        self.address = address
        #: Why the server would not start the game (its status and words), if it would not.
        self.refused: str | None = None
        #: What went wrong mid-game, if anything did.
        self.failed: str | None = None
        self.arrived = False
        self.think = think
        self._last_send = 0.0
        self.level = level
        self.index = index
        self.ack: list[float] = []
        self.turn: list[float] = []
        self.moves = 0
        #: Turns whose view listed no move (the server too busy to work them out in time).
        self.unlisted = 0
        self.rng = random.Random(index)
        #: The game's id and the person's seat, once the game is made.
        self.game_id: str | None = None
        self.seat = 0
        #: The text of every move of the person's the server acknowledged, in order: the
        #: stored record is checked for each once the servers have stopped.
        self.acked_moves: list[str] = []

    def pause(self) -> float:
        """Between 1 and 2 times ``think``: clients in step would only measure a queue."""
        return self.think * self.rng.uniform(1.0, 2.0)

    async def send(self, ws: Any, message: dict[str, Any]) -> None:
        """Send at most one message per ``think`` seconds (the server allows 20 a second)."""
        wait = self._last_send + self.pause() - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_send = time.perf_counter()
        await ws.send(json.dumps(message))

    async def ask(self, ws: Any, view: dict[str, Any]) -> str:
        """A move when the view lists none (the server was too busy to work them out in
        time): ask ``options`` for each card in hand, as the page does when a person picks
        a card, until one has a move; an answer the server could not work out either is
        asked again after a pause."""
        for _ in range(20):
            for card in view["hand"]:
                await self.send(ws, {"type": "options", "card": card, "uses": [],
                                     "version": view["version"]})
                while True:
                    m = json.loads(await ws.recv())
                    if m["type"] == "ping":
                        await ws.send(json.dumps({"type": "pong"}))
                    elif m["type"] == "error":
                        raise RuntimeError(m["message"])
                    elif m["type"] == "options":
                        break
                moves = m["exact"] + m["more"]
                if moves:
                    return str(self.rng.choice(moves)["text"])
            await asyncio.sleep(0.5)
        raise RuntimeError("no move could be found through options in 20 tries")

    async def play(self, midgame: asyncio.Barrier, resume: asyncio.Event,
                   pause_after: int) -> None:
        """Play the game to its end; whatever happens, take part in the mid-game count
        once (a refused or failed client arrives at once: nobody waits for it)."""
        try:
            await self._play(midgame, resume, pause_after)
        except Exception as exc:  # a failed client is reported, not raised
            if self.refused is None:
                self.failed = failure(exc)
        finally:
            if not self.arrived:
                self.arrived = True
                await midgame.wait()

    async def _play(self, midgame: asyncio.Barrier, resume: asyncio.Event,
                    pause_after: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=self.address)
        async with httpx.AsyncClient(timeout=60, transport=transport) as http:
            r = await http.post(self.base + "/api/games", json={
                "rules": "casino", "level": self.level, "mode": "computer",
                "name": f"Load{self.index}"})
        if not r.is_success:
            try:
                reason = r.json().get("error") or r.json().get("detail") or r.text
            except ValueError:
                reason = r.text
            self.refused = f"{r.status_code}: {reason}"
            return
        gid = self.game_id = r.json()["game"]
        token = r.cookies["casino"]
        url = self.base.replace("http://", "ws://") + f"/ws/{gid}"
        async with connect(url, additional_headers={"Cookie": f"casino={token}"},
                           local_addr=(self.address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            sent_at: float | None = None
            sent_version = -1
            acked = True
            text = ""
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    raise RuntimeError(m["message"])
                if m["type"] == "ping":  # the heartbeat: a silent client is closed
                    await ws.send(json.dumps({"type": "pong"}))
                    continue
                if m["type"] != "state":
                    continue
                v = m["view"]
                now = time.perf_counter()
                if sent_at is not None and m["version"] > sent_version and not acked:
                    self.ack.append(now - sent_at)
                    self.acked_moves.append(text)
                    acked = True
                if v["status"] == "over":
                    break
                if v["status"] == "round_over":
                    sent_at = None  # the turn after a round's end waits for next_round
                    await self.send(ws, {"type": "next_round"})
                    continue
                if not v["your_turn"]:
                    continue
                self.seat = int(v["you"])
                if sent_at is not None:
                    self.turn.append(now - sent_at)
                    sent_at = None
                if not self.arrived and self.moves == pause_after:
                    self.arrived = True
                    await midgame.wait()
                    await resume.wait()
                if self.max_moves and self.moves >= self.max_moves:
                    break  # the person leaves: the game stays stored, mid-round
                sent_version = m["version"]
                acked = False
                self.moves += 1
                if v["legal"]:
                    text = self.rng.choice(v["legal"])["text"]
                else:  # the server was too busy to list them: pick a card, as a person would
                    self.unlisted += 1
                    text = await self.ask(ws, v)
                move = {"type": "play", "move": text}
                wait = self._last_send + self.pause() - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent_at = self._last_send = time.perf_counter()
                await ws.send(json.dumps(move))


#: The close code of a server that reloaded the game or restarts: "reconnect now".
CLOSE_RECONNECT = 1012


class Side:
    """One seat's game page in a friends game: a reader task keeps its messages, each
    with the moment it arrived, answers the heartbeat, and reconnects (``hello`` with
    the last version seen) when the server says to (code 1012), as the page does: a
    server may push a change made elsewhere that way. ``session``: the account's session
    cookie, sent beside the seat's token as a signed-in browser sends it."""

    def __init__(self, url: str, token: str, address: str, session: str | None = None) -> None:
        self.url, self.token, self.address = url, token, address
        self.cookie = f"casino={token}" + (f"; casino_session={session}" if session else "")
        self.version = -1
        self.view: dict[str, Any] = {}
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.reconnects = 0
        self._seen = 0  # the newest version the reader passed on, for a reconnect's hello
        self._closing = False

    async def open(self) -> None:
        self.ws = await self._connect()
        self.reader = asyncio.create_task(self._read())

    async def _connect(self) -> ClientConnection:
        ws = await connect(self.url, additional_headers={"Cookie": self.cookie},
                           local_addr=(self.address, 0))
        await ws.send(json.dumps({"type": "hello", "since": self._seen}))
        return ws

    async def _read(self) -> None:
        try:
            while True:
                try:
                    async for raw in self.ws:
                        arrived = time.perf_counter()
                        m = json.loads(raw)
                        if m["type"] == "ping":
                            await self.ws.send(json.dumps({"type": "pong"}))
                            continue
                        if m["type"] == "state":
                            self._seen = max(self._seen, m["version"])
                        self.inbox.put_nowait((arrived, m))
                except ConnectionClosed:
                    pass
                if self._closing or self.ws.close_code != CLOSE_RECONNECT:
                    return
                self.reconnects += 1
                self.ws = await self._connect()
        finally:
            self.inbox.put_nowait((time.perf_counter(), {"type": "closed"}))

    async def state_after(self, version: int, timeout: float) -> float | None:
        """When the first state newer than ``version`` arrived (perf_counter seconds);
        None if none came within ``timeout``. An error or a closed connection raises."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            try:
                arrived, m = await asyncio.wait_for(self.inbox.get(), left)
            except TimeoutError:
                return None
            if self._take(m) and m["version"] > version:
                return arrived

    async def reply(self, kind: str, timeout: float) -> dict[str, Any]:
        """The next message of type ``kind`` (the states before it are kept as
        :meth:`state_after` keeps them); an error, a closed connection or none within
        ``timeout`` raises."""
        deadline = time.perf_counter() + timeout
        while True:
            try:
                _, m = await asyncio.wait_for(self.inbox.get(),
                                              max(0.0, deadline - time.perf_counter()))
            except TimeoutError:
                raise RuntimeError(f"no {kind} answer within {timeout:g} s") from None
            self._take(m)
            if m["type"] == kind:
                return m

    def _take(self, m: dict[str, Any]) -> bool:
        """Keep ``m`` if it is a state (True); an error or a closed connection raises."""
        if m["type"] == "error":
            raise RuntimeError(m["message"])
        if m["type"] == "closed":
            raise RuntimeError("the server closed the connection")
        if m["type"] != "state":
            return False
        self.version, self.view = m["version"], m["view"]
        return True

    async def close(self) -> None:
        self._closing = True
        await self.ws.close()
        self.reader.cancel()


class Friends:
    """One two-person game with each seat on its own server: the delay of every move
    from the mover's send to the other player's receipt, or why there is none."""

    #: Stop after this many moves and rounds begun (0: play the game to its end).
    max_moves = 0

    def __init__(self, bases: tuple[str, str], addresses: tuple[str, str], index: int,
                 think: float, timeout: float) -> None:
        self.bases = bases
        self.addresses = addresses
        self.index = index
        self.think = think
        self.timeout = timeout
        self.rng = random.Random(100_000 + index)
        #: Seconds from a move's send to the other player's state with it.
        self.delays: list[float] = []
        self.moves = 0
        #: Seconds from the friend's join (an HTTP request to the second server) to the
        #: creator's state with it (on the first).
        self.join_delays: list[float] = []
        #: Changes (``join``, ``play`` or ``next_round``) the other player never received
        #: in time, by kind (at most one: it ends the game).
        self.not_delivered: dict[str, int] = {}
        self.ended = 0.0
        self.sides: list[Side] = []
        self.refused: str | None = None
        self.failed: str | None = None
        #: Seconds from a move's send to the mover's own state with it.
        self.acks: list[float] = []
        #: The game's id once made, and the text of every move each seat's server
        #: acknowledged, by seat: the stored record is checked for each at the end.
        self.game_id: str | None = None
        self.acked_moves: dict[int, list[str]] = {0: [], 1: []}
        #: Each seat's account session cookie (rated games), sent to its WebSocket.
        self.sessions: list[str | None] = [None, None]
        #: Turns whose view listed no move (the mover asked ``options``, as the page does).
        self.unlisted = 0

    async def play(self) -> None:
        """Play the game to its end, or until a change is not delivered; never raises."""
        try:
            await self._play()
        except Exception as exc:  # a failed game is reported, not raised
            if self.refused is None:
                self.failed = failure(exc)

    def limit(self) -> int:
        """The moves after which the game stops (both seats' moves; 0: none)."""
        return self.max_moves

    async def _open(self, seat: int, gid: str, token: str) -> Side:
        """Seat ``seat``'s game page on its server, with its first state."""
        side = Side(self.bases[seat].replace("http://", "ws://") + f"/ws/{gid}", token,
                    self.addresses[seat], self.sessions[seat])
        await side.open()
        self.sides.append(side)
        if await side.state_after(-1, self.timeout) is None:
            raise RuntimeError(f"no state within {self.timeout:g} s of hello")
        return side

    async def _play(self) -> None:
        """As people do it: the creator makes the room on the first server and waits on
        its page; the friend follows the invite on the second server (the creator's
        page then learns of the join from the database) and opens their page."""
        hosts = [browser(a) for a in self.addresses]
        try:
            if await self._meet(hosts, {"name": f"Ann{self.index}"}, f"Bob{self.index}"):
                await self._moves(self.sides)
        finally:
            self.ended = time.perf_counter()
            for h in hosts:
                await h.aclose()
            for side in self.sides:
                await side.close()

    async def _meet(self, hosts: list[httpx.AsyncClient], room: dict[str, Any],
                    name: str, headers: dict[str, str] | None = None) -> bool:
        """The room made by ``hosts[0]`` (``room``: more of its body), joined by
        ``hosts[1]`` by its invite as ``name``, both pages open: whether all went so
        (else the refusal, or the join not delivered, is noted)."""
        r = await hosts[0].post(self.bases[0] + "/api/games", headers=headers, json={
            "rules": "casino", "mode": "friends", **room})
        if not r.is_success:
            self.refused = f"{r.status_code}: {_reason(r)}"
            return False
        gid = self.game_id = r.json()["game"]
        invite = r.json()["invite"]
        creator = await self._open(0, gid, _seat_token(hosts[0], r))
        waiting = creator.version
        sent = time.perf_counter()
        r = await hosts[1].get(self.bases[1] + invite, params={"name": name})
        if r.status_code != 303:
            self.refused = f"join {r.status_code}: {_reason(r)}"
            return False
        received = await creator.state_after(waiting, self.timeout)
        if received is None:
            self.not_delivered["join"] = 1
            return False  # the creator's server holds the room as waiting still
        self.join_delays.append(received - sent)
        await self._open(1, gid, _seat_token(hosts[1], r))
        return True

    async def _ask(self, side: Side) -> str:
        """A move when the view lists none (the server was too busy to work them out in
        time): ``options`` for each card in hand, as the page asks when a person picks a
        card, until one has a move."""
        self.unlisted += 1
        for _ in range(20):
            for card in side.view["hand"]:
                await asyncio.sleep(self.think)  # the server allows 20 messages a second
                await side.ws.send(json.dumps({"type": "options", "card": card, "uses": [],
                                               "version": side.version}))
                m = await side.reply("options", self.timeout)
                moves = m["exact"] + m["more"]
                if moves:
                    return str(self.rng.choice(moves)["text"])
            await asyncio.sleep(0.5)
        raise RuntimeError("no move could be found through options in 20 tries")

    async def _moves(self, sides: list[Side]) -> None:
        last = 0  # the seat that changed the game last: it starts the next round
        while True:
            views = [s.view for s in sides]
            if any(v["status"] == "over" for v in views):
                return
            if any(v["status"] == "waiting" for v in views):
                raise RuntimeError("a seat still sees the room waiting for players")
            if self.limit() and self.moves >= self.limit():
                return
            if views[last]["status"] == "round_over":
                kind, seat = "next_round", last
                message: dict[str, Any] = {"type": "next_round"}
            else:
                turns = [k for k, v in enumerate(views) if v["your_turn"]]
                if len(turns) != 1:
                    raise RuntimeError(f"the seats disagree on whose turn it is: {turns}")
                kind, seat = "play", turns[0]
                legal = views[seat]["legal"]
                move = (str(self.rng.choice(legal)["text"]) if legal
                        else await self._ask(sides[seat]))
                message = {"type": "play", "move": move}
            mover, other = sides[seat], sides[1 - seat]
            version = mover.version
            message["version"] = version
            await asyncio.sleep(self.think * self.rng.uniform(1.0, 2.0))  # a person thinks
            sent = time.perf_counter()
            await mover.ws.send(json.dumps(message))
            acked, received = await asyncio.gather(mover.state_after(version, self.timeout),
                                                   other.state_after(version, self.timeout))
            if acked is None:
                raise RuntimeError(f"the mover's server did not answer a {kind} "
                                   f"within {self.timeout:g} s")
            if received is None:
                self.not_delivered[kind] = self.not_delivered.get(kind, 0) + 1
                return  # the other player's server holds a game that stopped for it
            if kind == "play":
                self.moves += 1
                self.acks.append(acked - sent)
                self.acked_moves[seat].append(message["move"])
                self.delays.append(received - sent)
            last = seat


def _seat_token(host: httpx.AsyncClient, r: httpx.Response) -> str:
    """The browser token holding the seat just taken: the cookie the answer set, else
    the one the browser had (a browser keeps its one token for every game)."""
    token = r.cookies.get("casino") or host.cookies.get("casino")
    if not token:
        raise RuntimeError("the server set no seat cookie")
    return str(token)


def _reason(r: httpx.Response) -> str:
    """The server's words for a refusal."""
    try:
        body = r.json()
    except ValueError:
        return r.text
    return str(body.get("error") or body.get("detail") or r.text) if isinstance(body, dict) \
        else r.text


#: How many sign-ups the load client sends at once, before the games: each costs the
#: server an Argon2 hashing (two at a time, a few more waiting; past those it answers
#: 503 "busy", and the sign-up is sent again after 1 to 2 s, as a person would).
SIGNUPS_AT_ONCE = 8
#: The password of every account a load run signs up.
PASSWORD = "load run password"
#: A player page's line for one pool of ratings: the rating, twice its deviation, and
#: how many rated games made it.
RATING_LINE = re.compile(r'class="player-rating">(\d+) ± (\d+)</span> '
                         r'<span class="muted">\((\d+) rated games?\)')
#: A rating before any game (Glicko-2's start), as a player page rounds it.
START_RATING = 1500


def page_words(r: httpx.Response) -> str:
    """The refusal an HTML page states (a form's error, an error page's message), else
    its status."""
    for pattern in (r'id="form-error"[^>]*>([^<]+)<', r'class="error-message">([^<]+)<'):
        found = re.search(pattern, r.text)
        if found:
            return html.unescape(found.group(1)).strip()
    return _reason(r) if r.headers.get("content-type", "").startswith("application/json") \
        else f"HTTP {r.status_code}"


async def rated_once(http: httpx.AsyncClient, base: str, name: str,
                     wait: float = 20.0) -> str | None:
    """Whether the player page of ``name`` shows its one rated game: one pool of ratings,
    made by one game, moved off the start. None if so, else what it shows; a page with
    no rating yet is asked again until ``wait`` seconds have passed (a game's end is
    rated on a task of its own)."""
    deadline = time.perf_counter() + wait
    while True:
        r = await http.get(base + "/player/" + quote(name, safe=""))
        if r.status_code != 200:
            return f"{name}'s page: {page_words(r)}"
        pools = RATING_LINE.findall(r.text)
        if pools or time.perf_counter() > deadline:
            break
        await asyncio.sleep(0.25)
    if not pools:
        return f"{name} was not rated within {wait:g} s"
    if len(pools) != 1 or int(pools[0][2]) != 1:
        return f"{name} has {len(pools)} pools of ratings, of {[int(p[2]) for p in pools]} games"
    if int(pools[0][0]) == START_RATING:
        return f"{name}'s rating did not move ({pools[0][0]})"
    return None


class Rated(Friends):
    """A rated game between two accounts signed up for it (fresh names, this run's): the
    creator makes a rated room signed in, the other account joins it by the invite, and
    they play as a friends game does (the same moves, delays and timeouts, both seats
    signed in). Each person leaves after ``max_moves`` moves of their own: then the
    player of seat ``index mod 2`` resigns, so that every rated game ends and is rated.

    The accounts are signed up before the games (:meth:`sign_up`), and the players'
    pages are read once every game is over (:meth:`check_ratings`): each finished game
    must have moved both players' ratings, once."""

    #: Each person's moves (0: play to the game's end).
    max_moves = 0

    def __init__(self, bases: tuple[str, str], addresses: tuple[str, str], index: int,
                 think: float, timeout: float, names: tuple[str, str]) -> None:
        super().__init__(bases, addresses, index, think, timeout)
        self.rng = random.Random(200_000 + index)
        self.names = names
        #: The two browsers (cookies kept: the seat token, the account's session).
        self.hosts = [browser(a) for a in addresses]
        #: Seconds from asking for the sign-up page to the account made, per account.
        self.signups: list[float] = []
        #: Sign-ups the server refused as busy hashing (each sent again).
        self.busy = 0
        self.signed_up = False
        self.over = False
        #: What the players' pages showed wrong at the end, if anything; None if right.
        self.rating_problem: str | None = None
        self.rating_checked = False

    def _headers(self, seat: int) -> dict[str, str]:
        """What a browser sends with a form or a fetch from the site's own page."""
        return {"Origin": self.bases[seat], "Sec-Fetch-Site": "same-origin"}

    async def sign_up(self) -> None:
        """Sign both accounts up, each in its own browser, as the sign-up page does (the
        form's token from the page first); never raises: a refusal is noted."""
        try:
            for seat in (0, 1):
                if not await self._sign_up(seat):
                    return
            self.signed_up = True
        except Exception as exc:  # a failed sign-up is reported, not raised
            self.refused = f"sign-up {type(exc).__name__}: {exc}"

    async def _sign_up(self, seat: int) -> bool:
        host, base = self.hosts[seat], self.bases[seat]
        started = time.perf_counter()
        for _ in range(60):
            page = await host.get(base + "/signup")
            found = re.search(r'name="csrf" value="([^"]+)"', page.text)
            if found is None:
                raise RuntimeError(f"the sign-up page ({page.status_code}) has no form token")
            r = await host.post(base + "/signup", headers=self._headers(seat), data={
                "name": self.names[seat], "password": PASSWORD, "csrf": found.group(1)})
            if r.status_code == 503:  # busy hashing others' passwords: again, later
                self.busy += 1
                await asyncio.sleep(self.rng.uniform(1.0, 2.0))
                continue
            if r.status_code != 201 or not host.cookies.get("casino_session"):
                self.refused = f"sign-up {r.status_code}: {page_words(r)}"
                return False
            self.sessions[seat] = host.cookies.get("casino_session")
            self.signups.append(time.perf_counter() - started)
            return True
        raise RuntimeError("the server was busy at 60 sign-ups in a row")

    async def _play(self) -> None:
        if not self.signed_up:
            return  # its refusal is noted
        try:
            if await self._meet(self.hosts, {"rated": True}, "", self._headers(0)):
                await self._moves(self.sides)
                await self._end()
        finally:
            self.ended = time.perf_counter()
            for side in self.sides:
                await side.close()

    def limit(self) -> int:
        return 2 * self.max_moves  # each person's moves, as in a game against the computer

    async def _end(self) -> None:
        """The game over, both pages told: resigned by seat ``index mod 2`` unless it is
        over already (or stopped: a change not delivered)."""
        if self.not_delivered:
            return
        if all(s.view["status"] == "over" for s in self.sides):
            self.over = True
            return
        seat = self.index % 2
        mover, other = self.sides[seat], self.sides[1 - seat]
        await asyncio.sleep(self.think * self.rng.uniform(1.0, 2.0))
        version = mover.version
        await mover.ws.send(json.dumps({"type": "resign"}))
        acked, received = await asyncio.gather(mover.state_after(version, self.timeout),
                                               other.state_after(version, self.timeout))
        if acked is None:
            raise RuntimeError(f"the server did not answer a resign within {self.timeout:g} s")
        if received is None:
            self.not_delivered["resign"] = 1
            return
        views = [mover.view["status"], other.view["status"]]
        if views != ["over", "over"]:
            raise RuntimeError(f"the game was not over after a resign: {views}")
        self.over = True

    async def check_ratings(self, http: httpx.AsyncClient) -> None:
        """Read both players' pages: each must show one rated game (see :func:`rated_once`)."""
        problems = [await rated_once(http, self.bases[seat], name)
                    for seat, name in enumerate(self.names)]
        self.rating_problem = "; ".join(p for p in problems if p) or None
        self.rating_checked = True

    async def close(self) -> None:
        for host in self.hosts:
            await host.aclose()


def tally(reasons: list[str | None]) -> dict[str, int]:
    """How many times each reason was given (None: none)."""
    out: dict[str, int] = {}
    for why in reasons:
        if why is not None:
            out[why] = out.get(why, 0) + 1
    return out


def run_name() -> str:
    """Five letters naming a run's accounts (``load{run}a{j}``), so that a run against a
    server already running signs up names no earlier run took."""
    return "".join(random.SystemRandom().choices(string.ascii_lowercase, k=5))


#: Game id -> (kind: ``computer``, ``friends`` or ``rated``; each seat's acknowledged
#: moves): what :func:`lost_moves` checks the stored records against.
Acked = dict[str, tuple[str, dict[int, list[str]]]]


async def after(seconds: float, work: Coroutine[Any, Any, None]) -> None:
    """``work``, started ``seconds`` from now (``--stagger``)."""
    if seconds > 0:
        await asyncio.sleep(seconds)
    await work


async def run_load(bases: list[str], games: int, level: str, server_pids: list[int],
                   think: float, one_address: bool = False, friends: int = 0,
                   deliver_timeout: float = 5.0, rated: int = 0, run: str = "",
                   acked: Acked | None = None, stagger: float = 0.0) -> dict[str, Any]:
    # Warm up each server: one game start and the pool's first job, then the baseline.
    warm = [Game(base, level, -1, think) for base in bases]
    go = asyncio.Event()
    go.set()
    await asyncio.gather(*(w.play(asyncio.Barrier(1), go, 10_000) for w in warm))
    for w in warm:
        if w.refused or w.failed:
            raise SystemExit(f"the warm-up game on {w.base} did not play: "
                             f"{w.refused or w.failed}")
    # The rated games' accounts are signed up before anything is measured (a server
    # hashing passwords is busy: their cost is timed on its own).
    run = run or run_name()
    first = games + 2 * friends  # the rated games' clients' addresses follow the others'
    tables = [Rated((bases[j % len(bases)], bases[(j + 1) % len(bases)]),
                    (client_address(first + 2 * j, one_address),
                     client_address(first + 2 * j + 1, one_address)),
                    j, think, deliver_timeout, (f"load{run}a{j}", f"load{run}b{j}"))
              for j in range(rated)]
    gate = asyncio.Semaphore(SIGNUPS_AT_ONCE)

    async def sign_up(table: Rated) -> None:
        async with gate:
            await table.sign_up()

    signing = time.perf_counter()
    await asyncio.gather(*(sign_up(t) for t in tables))
    signup_seconds = time.perf_counter() - signing
    baseline = sum(rss_kib(p) for p in server_pids)
    baseline_tree = sum(tree_rss_kib(p) for p in server_pids)
    midgame = asyncio.Barrier(games + 1)
    resume = asyncio.Event()
    clients = [Game(bases[i % len(bases)], level, i, think, client_address(i, one_address))
               for i in range(games)]
    started = time.perf_counter()
    # Alongside, at once; or each kind's games spread evenly over --stagger seconds.
    tasks = [asyncio.create_task(after(stagger * i / max(games, 1),
                                       g.play(midgame, resume, 8)))
             for i, g in enumerate(clients)]
    rated_tasks = [asyncio.create_task(after(stagger * j / max(rated, 1), t.play()))
                   for j, t in enumerate(tables)]
    await midgame.wait()
    loaded = sum(rss_kib(p) for p in server_pids)
    loaded_tree = sum(tree_rss_kib(p) for p in server_pids)
    rated_live = sum(1 for t in tables if len(t.sides) == 2 and not t.ended)
    resume.set()
    pairs = [Friends((bases[j % len(bases)], bases[(j + 1) % len(bases)]),
                     (client_address(games + 2 * j, one_address),
                      client_address(games + 2 * j + 1, one_address)),
                     j, think, deliver_timeout) for j in range(friends)]
    friends_started = time.perf_counter()
    friend_tasks = [asyncio.create_task(f.play()) for f in pairs]
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - started
    await asyncio.gather(*friend_tasks, *rated_tasks)
    friends_elapsed = max((f.ended for f in pairs), default=friends_started) - friends_started
    rated_elapsed = max((t.ended for t in tables), default=started) - started
    # Every rated game that ended moved both its players' ratings, once.
    checking = asyncio.Semaphore(8)

    async def check(table: Rated, http: httpx.AsyncClient) -> None:
        async with checking:
            await table.check_ratings(http)

    async with httpx.AsyncClient(timeout=60) as http:
        await asyncio.gather(*(check(t, http) for t in tables if t.over))
    for t in tables:
        await t.close()
    if acked is not None:
        for g in clients:
            if g.game_id is not None:
                acked[g.game_id] = ("computer", {g.seat: g.acked_moves})
        for kind, pairing in (("friends", pairs), ("rated", tables)):
            for f in pairing:
                if f.game_id is not None:
                    acked[f.game_id] = (kind, f.acked_moves)
    played = [g for g in clients if g.refused is None and g.failed is None]
    ack = [x for g in played for x in g.ack]
    turn = [x for g in played for x in g.turn]
    moves = sum(g.moves for g in played)
    not_delivered: dict[str, int] = {}
    for f in pairs:
        for kind, n in f.not_delivered.items():
            not_delivered[kind] = not_delivered.get(kind, 0) + n
    rated_not_delivered: dict[str, int] = {}
    for t in tables:
        for kind, n in t.not_delivered.items():
            rated_not_delivered[kind] = rated_not_delivered.get(kind, 0) + n
    rated_ack = [x for t in tables for x in t.acks]
    measured = bool(server_pids)
    per_game = max(1, len(played) + rated_live)
    return {
        "games": games, "level": level, "think_seconds": think, "moves": moves,
        "one_address": one_address, "played": len(played),
        "refused": sum(1 for g in clients if g.refused is not None),
        "failed": sum(1 for g in clients if g.failed is not None),
        "reasons": tally([g.refused or g.failed for g in clients]), "seconds": elapsed,
        "moves_per_second": moves / elapsed,
        "unlisted": sum(g.unlisted for g in clients),
        "ack_ms": spread(ack), "turn_ms": spread(turn),
        "ack_all_ms": spread(ack + rated_ack) if tables else None,
        "rss_baseline_mib": baseline / 1024 if measured else None,
        "rss_loaded_mib": loaded / 1024 if measured else None,
        "rss_games_live": len(played) + rated_live,
        "rss_per_game_kib": (loaded - baseline) / per_game if measured else None,
        "rss_tree_baseline_mib": baseline_tree / 1024 if measured else None,
        "rss_tree_loaded_mib": loaded_tree / 1024 if measured else None,
        "rss_tree_per_game_kib": (loaded_tree - baseline_tree) / per_game if measured else None,
        "mean_ack_ms": 1000 * statistics.fmean(ack) if ack else None,
        "friends": {
            "games": friends, "deliver_timeout_seconds": deliver_timeout,
            "cross_process": len(set(bases)) > 1, "seconds": friends_elapsed,
            "finished": sum(1 for f in pairs if f.refused is None and f.failed is None
                            and not f.not_delivered),
            "refused": sum(1 for f in pairs if f.refused is not None),
            "failed": sum(1 for f in pairs if f.failed is not None),
            "reasons": tally([f.refused or f.failed for f in pairs]),
            "moves_delivered": sum(len(f.delays) for f in pairs),
            "not_delivered": not_delivered,
            "ack_ms": spread([x for f in pairs for x in f.acks]),
            "delivery_ms": spread([x for f in pairs for x in f.delays]),
            "join_ms": spread([x for f in pairs for x in f.join_delays]),
            "reconnects": sum(s.reconnects for f in pairs for s in f.sides),
            "unlisted": sum(f.unlisted for f in pairs),
        } if friends else None,
        "rated": {
            "games": rated, "run": run, "deliver_timeout_seconds": deliver_timeout,
            "cross_process": len(set(bases)) > 1,
            "accounts": sum(len(t.signups) for t in tables),
            "signup_seconds": signup_seconds, "signups_at_once": SIGNUPS_AT_ONCE,
            "signup_ms": spread([x for t in tables for x in t.signups]),
            "signup_busy": sum(t.busy for t in tables),
            "seconds": rated_elapsed, "live_at_memory_count": rated_live,
            "finished": sum(1 for t in tables if t.over and t.failed is None
                            and not t.not_delivered),
            "refused": sum(1 for t in tables if t.refused is not None),
            "failed": sum(1 for t in tables if t.failed is not None),
            "reasons": tally([t.refused or t.failed for t in tables]),
            "moves": sum(t.moves for t in tables),
            "moves_per_second": sum(t.moves for t in tables) / max(rated_elapsed, 1e-9),
            "not_delivered": rated_not_delivered,
            "ack_ms": spread(rated_ack),
            "delivery_ms": spread([x for t in tables for x in t.delays]),
            "join_ms": spread([x for t in tables for x in t.join_delays]),
            "reconnects": sum(s.reconnects for t in tables for s in t.sides),
            "unlisted": sum(t.unlisted for t in tables),
            "ratings_checked": sum(1 for t in tables if t.rating_checked),
            "ratings_right": sum(1 for t in tables
                                 if t.rating_checked and t.rating_problem is None),
            "rating_problems": tally([t.rating_problem for t in tables]),
        } if rated else None,
    }


def stored_records(database: str, ids: list[str]) -> dict[str, str]:
    """The stored record of each game of ``ids`` found in ``database`` (a SQLAlchemy URL)."""
    from sqlalchemy import bindparam, create_engine, text

    from casino.web.store import database_url

    engine = create_engine(database_url(database))
    query = text("SELECT id, record FROM games WHERE id IN :ids").bindparams(
        bindparam("ids", expanding=True))
    found: dict[str, str] = {}
    try:
        with engine.connect() as conn:
            for k in range(0, len(ids), 500):
                for game_id, record in conn.execute(query, {"ids": ids[k:k + 500]}):
                    found[str(game_id)] = str(record)
    finally:
        engine.dispose()
    return found


def lost_moves(record: str | None, acked: dict[int, list[str]]) -> int:
    """How many of the moves each seat's server acknowledged (``acked``: their texts by
    seat) the stored ``record`` lacks: a move is lost when its seat made it fewer times
    in the record than it was acknowledged. No record: every one is lost."""
    from collections import Counter

    from casino.engine.record import read_record

    if record is None:
        return sum(len(moves) for moves in acked.values())
    stored: dict[int, Counter[str]] = {}
    for rnd in read_record(record).rounds:
        for seat, move in zip(rnd.movers, rnd.moves, strict=True):
            stored.setdefault(seat, Counter())[str(move)] += 1
    return sum(sum((Counter(moves) - stored.get(seat, Counter())).values())
               for seat, moves in acked.items())


def check_records(database: str | None, acked: Acked) -> dict[str, Any]:
    """Lost moves by kind of game: every acknowledged move looked up in its game's record
    as stored, once the servers have stopped (what a restart would find)."""
    kinds = sorted({kind for kind, _ in acked.values()})
    if database is None:
        return {"checked": False, "why": "the servers' database is not known (--url)"}
    records = stored_records(database, list(acked))
    lost = dict.fromkeys(kinds, 0)
    moves = dict.fromkeys(kinds, 0)
    unreadable: list[str] = []
    for game_id, (kind, seats) in acked.items():
        moves[kind] += sum(len(m) for m in seats.values())
        try:
            lost[kind] += lost_moves(records.get(game_id), seats)
        except Exception as exc:  # a record the engine cannot read: said, not raised
            unreadable.append(f"{game_id}: {type(exc).__name__}: {exc}")
    return {"checked": True, "games": len(acked), "games_stored": len(records),
            "moves": moves, "lost": lost, "unreadable": unreadable}


@dataclass
class Server:
    """A server the clients play against; ``proc`` when this script started it."""

    base: str
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None


def start_server(url: str, port: int, pool_workers: int,
                 log: Path | None = None) -> subprocess.Popen[bytes]:
    """The default server: ``create_app`` under uvicorn, computers answering at once."""
    code = ("import uvicorn; from casino.web import create_app; "
            f"uvicorn.run(create_app({url!r}, pool_workers={pool_workers}), "
            f"host='127.0.0.1', port={port}, log_level='warning')")
    out = log.open("wb") if log else None
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True,
                            stdout=out, stderr=subprocess.STDOUT if out else None)


def casino_command() -> list[str]:
    """How to run the ``casino`` command: ``python -m casino`` where this Python has the
    package, else the console script installed beside this Python."""
    if find_spec("casino") is not None:
        return [sys.executable, "-m", "casino"]
    script = Path(sys.executable).with_name("casino")
    if not script.exists():
        raise SystemExit(f"neither `{sys.executable} -m casino` nor {script} is there: "
                         "install the project (make venv) or set PYTHONPATH=src")
    return [str(script)]


def start_casino_serve(database: str, port: int, pool_workers: int, log: Path,
                       computer_pause: float | None, limits: list[str]) -> subprocess.Popen[bytes]:
    """``casino serve --port P --database URL --workers-pool K`` in a session of its own,
    its output (uvicorn's access log included) in ``log``."""
    command = [*casino_command(), "serve", "--port", str(port), "--database", database,
               "--workers-pool", str(pool_workers)]
    if computer_pause is not None:
        command += ["--computer-pause", f"{computer_pause:g}"]
    for limit in limits:
        command += ["--limit", limit]
    with log.open("wb") as out:
        return subprocess.Popen(command, start_new_session=True, stdout=out,
                                stderr=subprocess.STDOUT)


def serve_knows(option: str) -> bool:
    """Whether ``casino serve`` has ``option`` (an option being added elsewhere)."""
    done = subprocess.run([*casino_command(), "serve", "--help"], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "200"}, check=False)
    return option in done.stdout


def _tail(log: Path | None) -> str:
    if log is None or not log.exists():
        return ""
    lines = log.read_text(errors="replace").splitlines()[-15:]
    return "\n" + "\n".join("    " + line for line in lines) if lines else ""


def wait_ready(base: str, proc: subprocess.Popen[bytes], log: Path | None = None) -> None:
    for _ in range(1200):
        if proc.poll() is not None:
            raise SystemExit(f"the server for {base} did not start (exit code "
                             f"{proc.returncode}){_tail(log)}")
        try:
            httpx.get(base + "/api/games", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit(f"the server for {base} did not answer within a minute{_tail(log)}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a started server and everything in its session (its worker processes)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--level", default="beginner", help="computer level (default beginner)")
    ap.add_argument("--pool-workers", "--workers-pool", dest="pool_workers", type=int,
                    default=1, help="thinking processes of each server it starts")
    ap.add_argument("--moves", type=int, default=0,
                    help="each person leaves after this many moves (default 0: whole games)")
    ap.add_argument("--think", type=float, default=0.06,
                    help="a client waits 1 to 2 times this between messages (default 0.06 s)")
    ap.add_argument("--one-address", action="store_true",
                    help="every client from 127.0.0.1 (the per-address limits apply)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--url", action="append", default=[],
                    help="a running server to play against (repeatable; clients round-robin)")
    ap.add_argument("--urls", default="", help="running servers, comma-separated")
    ap.add_argument("--servers", type=int, default=0,
                    help="start this many `casino serve` processes on consecutive ports")
    ap.add_argument("--database", help="the started servers' database URL (PostgreSQL for "
                                       "more than one; default a fresh SQLite file)")
    ap.add_argument("--port", type=int, help="the first started server's port "
                                             "(default the first free run)")
    ap.add_argument("--computer-pause", type=float,
                    help="passed to the started `casino serve` (default its own, 0.6 s)")
    ap.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                    help="passed to the started `casino serve` (repeatable)")
    ap.add_argument("--friends", type=int, default=0,
                    help="also play this many two-person games, the seats on different "
                         "servers, timing each move's delivery to the other player")
    ap.add_argument("--rated", type=int, default=0,
                    help="also play this many rated games, each between two accounts "
                         "signed up for it, alongside the computer games")
    ap.add_argument("--stagger", type=float, default=0.0, metavar="S",
                    help="start each kind's games spread evenly over S seconds instead of "
                         "all at once, as people come (default 0: all at once)")
    ap.add_argument("--deliver-timeout", type=float, default=5.0,
                    help="seconds to wait for a move to reach the other player (default 5)")
    args = ap.parse_args()
    args.url = [u.rstrip("/") for u in args.url + [u for u in args.urls.split(",") if u]]
    if not 1 <= args.games <= 5000:
        raise SystemExit("--games must be between 1 and 5000")
    if not 0 <= args.friends <= 1000:
        raise SystemExit("--friends must be between 0 and 1000")
    if not 0 <= args.rated <= 1000:
        raise SystemExit("--rated must be between 0 and 1000")
    if args.url and args.servers:
        raise SystemExit("either --url (servers running) or --servers N (started here)")
    if not args.servers and (args.database or args.port or args.computer_pause is not None
                             or args.limit):
        raise SystemExit("--database, --port, --computer-pause and --limit are for the "
                         "servers started with --servers N")
    if not 0 <= args.servers <= 64:
        raise SystemExit("--servers must be between 1 and 64")
    if args.servers > 1 and database_kind(args.database) in ("sqlite", "unknown"):
        raise SystemExit("several servers share a PostgreSQL database (--database "
                         "postgresql://...): a SQLite file is served by one process only")
    return args


def start_servers(args: argparse.Namespace, tmp: Path,
                  stack: ExitStack) -> tuple[list[Server], str]:
    """The servers to play against, started here unless given; and the header's words."""
    if args.url:
        return [Server(u) for u in args.url], (
            f"{len(args.url)} server{'s' * (len(args.url) > 1)} given by --url "
            f"({', '.join(args.url)}), database not known")
    if not args.servers:
        port = free_port()
        server = Server(f"http://127.0.0.1:{port}", log=tmp / "server.log")
        server.proc = start_server(f"sqlite:///{tmp / 'load.db'}", port, args.pool_workers,
                                   server.log)
        stack.callback(stop, server.proc)
        wait_ready(server.base, server.proc, server.log)
        return [server], (f"1 server (create_app under uvicorn, computers at once, "
                          f"{args.pool_workers} pool worker{'s' * (args.pool_workers != 1)}) "
                          "on sqlite (a fresh file)")
    if args.computer_pause is not None and not serve_knows("--computer-pause"):
        raise SystemExit("this `casino serve` has no --computer-pause option")
    database = args.database or f"sqlite:///{tmp / 'load.db'}"
    servers = [Server(f"http://127.0.0.1:{p}", log=tmp / f"server-{p}.log")
               for p in free_ports(args.servers, args.port)]
    for k, server in enumerate(servers):
        assert server.log is not None
        server.proc = start_casino_serve(database, int(server.base.rsplit(":", 1)[1]),
                                         args.pool_workers, server.log,
                                         args.computer_pause, args.limit)
        stack.callback(stop, server.proc)
        if k == 0:  # the first brings the schema up to date before the others open it
            wait_ready(server.base, server.proc, server.log)
    for server in servers[1:]:
        assert server.proc is not None
        wait_ready(server.base, server.proc, server.log)
    pause = ("computers pause casino serve's default" if args.computer_pause is None
             else f"computers pause {args.computer_pause:g} s")
    ports = servers[0].base.rsplit(":", 1)[1] + (
        f"-{servers[-1].base.rsplit(':', 1)[1]}" if len(servers) > 1 else "")
    return servers, (f"{len(servers)} server{'s' * (len(servers) > 1)} (casino serve "
                     f"--workers-pool {args.pool_workers}, port{'s' * (len(servers) > 1)} "
                     f"{ports}, {pause}) on {database_kind(database)} "
                     f"({shown_url(database) if args.database else 'a fresh file'})")


def print_spreads(figures: dict[str, Any], labels: tuple[tuple[str, str], ...]) -> None:
    """One line of p50 / p95 / p99 for each (key, label) of ``figures`` measured."""
    for key, label in labels:
        p = figures[key]
        if p:
            print(f"  {label:<34} p50 {p[50]:7.1f} ms  p95 {p[95]:7.1f} ms  "
                  f"p99 {p[99]:7.1f} ms")


def report(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    print(f"load_web: {figures['setup']}")
    print(f"  machine: {m['cpus']} CPUs ({m['cpu_model']}), Python {m['python']} "
          f"on {m['platform']}")
    print(f"{figures['games']} concurrent games at level {figures['level']} "
          f"(clients wait {figures['think_seconds']:g} to {2 * figures['think_seconds']:g} s "
          f"between messages), "
          f"{figures['moves']} moves in {figures['seconds']:.1f} s "
          f"({figures['moves_per_second']:.0f} moves/s)"
          + (f"; each person leaves after {figures['moves_per_person']} moves"
             if figures.get("moves_per_person") else ""))
    if figures["refused"] or figures["failed"]:
        print(f"  {figures['played']} games played; {figures['refused']} refused and "
              f"{figures['failed']} failed:")
        for why, count in sorted(figures["reasons"].items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {why}")
    if figures.get("unlisted"):
        print(f"  {figures['unlisted']} turns listed no move (the server was too busy to work "
              f"them out in time): the client asked `options` for its cards, as the page does")
    print_spreads(figures, (("ack_ms", "ack (move applied and sent back)"),
                            ("turn_ms", "turn (move + computer reply)")))
    if figures["rss_per_game_kib"] is None:
        print("  server RSS not measured (servers given by --url)")
    else:
        servers = figures["servers"]
        where = "server" if servers == 1 else f"{servers} servers' (summed)"
        print(f"  {where} RSS {figures['rss_baseline_mib']:.1f} MiB warm, "
              f"{figures['rss_loaded_mib']:.1f} MiB with {figures['rss_games_live']} games live: "
              f"{figures['rss_per_game_kib']:.0f} KiB per game")
        print(f"  with their worker processes {figures['rss_tree_baseline_mib']:.1f} MiB warm, "
              f"{figures['rss_tree_loaded_mib']:.1f} MiB live: "
              f"{figures['rss_tree_per_game_kib']:.0f} KiB per game")
    f = figures["friends"]
    if f:
        where = ("the seats on different servers" if f["cross_process"]
                 else "both seats on one server")
        print(f"{f['games']} friends game{'s' * (f['games'] != 1)} ({where}), "
              f"{f['moves_delivered']} moves "
              f"delivered in {f['seconds']:.1f} s; {f['finished']} played to the end, "
              f"{f['refused']} refused, {f['failed']} failed")
        for why, count in sorted(f["reasons"].items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {why}")
        print_spreads(f, (("ack_ms", "ack (move back to its mover)"),
                          ("delivery_ms", "delivery (move to other player)"),
                          ("join_ms", "join (friend's join to creator)")))
        report_pairs(f)
    r = figures.get("rated")
    if r:
        where = ("the seats on different servers" if r["cross_process"]
                 else "both seats on one server")
        ending = (f"each person resigning or leaving after {figures['moves_per_person']} "
                  "moves" if figures.get("moves_per_person") else "played to their end")
        print(f"{r['games']} rated game{'s' * (r['games'] != 1)} between accounts ({where}), "
              f"{r['moves']} moves in {r['seconds']:.1f} s ({r['moves_per_second']:.0f} "
              f"moves/s); {r['finished']} over ({ending}), {r['refused']} refused, "
              f"{r['failed']} failed")
        for why, count in sorted(r["reasons"].items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {why}")
        print(f"  {r['accounts']} accounts signed up before the games, {r['signups_at_once']} "
              f"at once, in {r['signup_seconds']:.1f} s ({r['signup_busy']} sign-ups "
              f"refused as busy and sent again)")
        print_spreads(r, (("signup_ms", "sign-up (page, form, account)"),
                          ("ack_ms", "ack (move back to its mover)"),
                          ("delivery_ms", "delivery (move to other player)"),
                          ("join_ms", "join (account's join to creator)")))
        report_pairs(r)
        print(f"  ratings: {r['ratings_right']} of {r['ratings_checked']} games over moved "
              f"both players' ratings once (their player pages)")
        for why, count in sorted(r["rating_problems"].items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {why}")
        print_spreads(figures, (("ack_all_ms", "ack, every game (computer, rated)"),))
    records = figures.get("records")
    if records is not None:
        if not records["checked"]:
            print(f"  lost moves not checked: {records['why']}")
        else:
            kinds = ", ".join(f"{records['lost'][k]} of {records['moves'][k]} in {k} games"
                              for k in sorted(records["lost"]))
            print(f"  lost moves (acknowledged, missing from the stored record): {kinds} "
                  f"({records['games_stored']} of {records['games']} games stored)")
            for why in records["unreadable"]:
                print(f"    unreadable record: {why}")


def report_pairs(f: dict[str, Any]) -> None:
    """What a friends or rated game's figures say of reconnections, turns that listed
    no move, and changes not delivered."""
    if f["reconnects"]:
        print(f"  {f['reconnects']} reconnections asked for by a server (code 1012)")
    if f.get("unlisted"):
        print(f"  {f['unlisted']} turns listed no move: the mover asked `options`")
    for kind, count in sorted(f["not_delivered"].items()):
        print(f"  not delivered: {count} x {kind} (the other player had no state with it "
              f"after {f['deliver_timeout_seconds']:g} s; each ended its game)")


def main() -> None:
    args = parse()
    Game.max_moves = Friends.max_moves = Rated.max_moves = args.moves
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        servers, setup = start_servers(args, Path(tmp), stack)
        if (args.friends or args.rated) and len({s.base for s in servers}) < 2:
            kinds = " and ".join(k for k, n in (("friends", args.friends),
                                                ("rated", args.rated)) if n)
            setup += f"; {kinds} games on one server (not across processes)"
        if args.stagger:
            setup += f"; each kind's games started over {args.stagger:g} s"
        pids = [s.proc.pid for s in servers if s.proc is not None]
        acked: Acked = {}
        figures = asyncio.run(run_load([s.base for s in servers], args.games, args.level,
                                       pids, args.think, args.one_address, args.friends,
                                       args.deliver_timeout, args.rated, acked=acked,
                                       stagger=args.stagger))
        stack.close()  # the servers stop: their database holds what a restart would find
        database = None if args.url else args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
        figures["records"] = check_records(database, acked)
    figures["setup"] = setup
    figures["moves_per_person"] = args.moves or None
    figures["stagger"] = args.stagger
    figures["servers"] = len(servers)
    figures["database"] = (database_kind(args.database or "sqlite://") if not args.url
                           else "unknown")
    figures["machine"] = {"python": platform.python_version(), "platform": platform.platform(),
                          "processor": platform.processor() or platform.machine(),
                          "cpu_model": cpu_model(), "cpus": os.cpu_count()}
    report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
