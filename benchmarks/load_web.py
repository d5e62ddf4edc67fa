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

Memory: the resident set size (RSS, from /proc) of each server process the script
started, once the servers are warm and again when every computer game is in memory
mid-game, summed over the servers; the difference divided by the games played is
the memory per live game. It is given for the server processes themselves (the
figure of earlier runs) and for them with every process under them (thinking,
selection and helper workers), which do not grow with the games but may start
between the two counts.

Usage::

    .venv/bin/python benchmarks/load_web.py [--games 20] [--level beginner]
        [--pool-workers 1] [--think 0.06] [--one-address] [--json PATH]
        [--servers N --database URL [--port P] [--computer-pause S] [--limit NAME=VALUE]]
        [--url URL ... | --urls A,B] [--friends K] [--deliver-timeout 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

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
                self.failed = f"{type(exc).__name__}: {exc}"
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
        gid = r.json()["game"]
        token = r.cookies["casino"]
        url = self.base.replace("http://", "ws://") + f"/ws/{gid}"
        async with connect(url, additional_headers={"Cookie": f"casino={token}"},
                           local_addr=(self.address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            sent_at: float | None = None
            sent_version = -1
            acked = True
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
                    acked = True
                if v["status"] == "over":
                    break
                if v["status"] == "round_over":
                    sent_at = None  # the turn after a round's end waits for next_round
                    await self.send(ws, {"type": "next_round"})
                    continue
                if not v["your_turn"]:
                    continue
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
    server may push a change made elsewhere that way."""

    def __init__(self, url: str, token: str, address: str) -> None:
        self.url, self.token, self.address = url, token, address
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
        ws = await connect(self.url, additional_headers={"Cookie": f"casino={self.token}"},
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
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] == "closed":
                raise RuntimeError("the server closed the connection")
            if m["type"] == "state":
                self.version, self.view = m["version"], m["view"]
                if m["version"] > version:
                    return arrived

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

    async def play(self) -> None:
        """Play the game to its end, or until a change is not delivered; never raises."""
        try:
            await self._play()
        except Exception as exc:  # a failed game is reported, not raised
            if self.refused is None:
                self.failed = f"{type(exc).__name__}: {exc}"

    async def _open(self, seat: int, gid: str, token: str) -> Side:
        """Seat ``seat``'s game page on its server, with its first state."""
        side = Side(self.bases[seat].replace("http://", "ws://") + f"/ws/{gid}", token,
                    self.addresses[seat])
        await side.open()
        self.sides.append(side)
        if await side.state_after(-1, self.timeout) is None:
            raise RuntimeError(f"no state within {self.timeout:g} s of hello")
        return side

    async def _play(self) -> None:
        """As people do it: the creator makes the room on the first server and waits on
        its page; the friend follows the invite on the second server (the creator's
        page then learns of the join from the database) and opens their page."""
        hosts = [httpx.AsyncClient(timeout=60, transport=httpx.AsyncHTTPTransport(
            local_address=a)) for a in self.addresses]
        try:
            r = await hosts[0].post(self.bases[0] + "/api/games", json={
                "rules": "casino", "mode": "friends", "name": f"Ann{self.index}"})
            if not r.is_success:
                self.refused = f"{r.status_code}: {_reason(r)}"
                return
            gid, invite = r.json()["game"], r.json()["invite"]
            creator = await self._open(0, gid, r.cookies["casino"])
            waiting = creator.version
            sent = time.perf_counter()
            r = await hosts[1].get(self.bases[1] + invite, params={"name": f"Bob{self.index}"})
            if r.status_code != 303:
                self.refused = f"join {r.status_code}: {_reason(r)}"
                return
            received = await creator.state_after(waiting, self.timeout)
            if received is None:
                self.not_delivered["join"] = 1
                return  # the creator's server holds the room as waiting still
            self.join_delays.append(received - sent)
            await self._open(1, gid, r.cookies["casino"])
            await self._moves(self.sides)
        finally:
            self.ended = time.perf_counter()
            for h in hosts:
                await h.aclose()
            for side in self.sides:
                await side.close()

    async def _moves(self, sides: list[Side]) -> None:
        last = 0  # the seat that changed the game last: it starts the next round
        while True:
            views = [s.view for s in sides]
            if any(v["status"] == "over" for v in views):
                return
            if any(v["status"] == "waiting" for v in views):
                raise RuntimeError("a seat still sees the room waiting for players")
            if self.max_moves and self.moves >= self.max_moves:
                return
            if views[last]["status"] == "round_over":
                kind, seat = "next_round", last
                message: dict[str, Any] = {"type": "next_round"}
            else:
                turns = [k for k, v in enumerate(views) if v["your_turn"]]
                if len(turns) != 1:
                    raise RuntimeError(f"the seats disagree on whose turn it is: {turns}")
                kind, seat = "play", turns[0]
                message = {"type": "play",
                           "move": self.rng.choice(views[seat]["legal"])["text"]}
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
                self.delays.append(received - sent)
            last = seat


def _reason(r: httpx.Response) -> str:
    """The server's words for a refusal."""
    try:
        body = r.json()
    except ValueError:
        return r.text
    return str(body.get("error") or body.get("detail") or r.text) if isinstance(body, dict) \
        else r.text


async def run_load(bases: list[str], games: int, level: str, server_pids: list[int],
                   think: float, one_address: bool = False, friends: int = 0,
                   deliver_timeout: float = 5.0) -> dict[str, Any]:
    # Warm up each server: one game start and the pool's first job, then the baseline.
    warm = [Game(base, level, -1, think) for base in bases]
    go = asyncio.Event()
    go.set()
    await asyncio.gather(*(w.play(asyncio.Barrier(1), go, 10_000) for w in warm))
    for w in warm:
        if w.refused or w.failed:
            raise SystemExit(f"the warm-up game on {w.base} did not play: "
                             f"{w.refused or w.failed}")
    baseline = sum(rss_kib(p) for p in server_pids)
    baseline_tree = sum(tree_rss_kib(p) for p in server_pids)
    midgame = asyncio.Barrier(games + 1)
    resume = asyncio.Event()
    clients = [Game(bases[i % len(bases)], level, i, think, client_address(i, one_address))
               for i in range(games)]
    started = time.perf_counter()
    tasks = [asyncio.create_task(g.play(midgame, resume, 8)) for g in clients]
    await midgame.wait()
    loaded = sum(rss_kib(p) for p in server_pids)
    loaded_tree = sum(tree_rss_kib(p) for p in server_pids)
    resume.set()
    pairs = [Friends((bases[j % len(bases)], bases[(j + 1) % len(bases)]),
                     (client_address(games + 2 * j, one_address),
                      client_address(games + 2 * j + 1, one_address)),
                     j, think, deliver_timeout) for j in range(friends)]
    friends_started = time.perf_counter()
    friend_tasks = [asyncio.create_task(f.play()) for f in pairs]
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - started
    await asyncio.gather(*friend_tasks)
    friends_elapsed = max((f.ended for f in pairs), default=friends_started) - friends_started
    played = [g for g in clients if g.refused is None and g.failed is None]
    ack = [x for g in played for x in g.ack]
    turn = [x for g in played for x in g.turn]
    moves = sum(g.moves for g in played)
    reasons: dict[str, int] = {}
    for g in clients:
        why = g.refused or g.failed
        if why is not None:
            reasons[why] = reasons.get(why, 0) + 1
    friends_reasons: dict[str, int] = {}
    not_delivered: dict[str, int] = {}
    for f in pairs:
        why = f.refused or f.failed
        if why is not None:
            friends_reasons[why] = friends_reasons.get(why, 0) + 1
        for kind, n in f.not_delivered.items():
            not_delivered[kind] = not_delivered.get(kind, 0) + n
    measured = bool(server_pids)
    per_game = max(1, len(played))
    return {
        "games": games, "level": level, "think_seconds": think, "moves": moves,
        "one_address": one_address, "played": len(played),
        "refused": sum(1 for g in clients if g.refused is not None),
        "failed": sum(1 for g in clients if g.failed is not None),
        "reasons": reasons, "seconds": elapsed,
        "moves_per_second": moves / elapsed,
        "unlisted": sum(g.unlisted for g in clients),
        "ack_ms": spread(ack), "turn_ms": spread(turn),
        "rss_baseline_mib": baseline / 1024 if measured else None,
        "rss_loaded_mib": loaded / 1024 if measured else None,
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
            "reasons": friends_reasons,
            "moves_delivered": sum(len(f.delays) for f in pairs),
            "not_delivered": not_delivered,
            "delivery_ms": spread([x for f in pairs for x in f.delays]),
            "join_ms": spread([x for f in pairs for x in f.join_delays]),
            "reconnects": sum(s.reconnects for f in pairs for s in f.sides),
        } if friends else None,
    }


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
    ap.add_argument("--deliver-timeout", type=float, default=5.0,
                    help="seconds to wait for a move to reach the other player (default 5)")
    args = ap.parse_args()
    args.url = [u.rstrip("/") for u in args.url + [u for u in args.urls.split(",") if u]]
    if not 1 <= args.games <= 5000:
        raise SystemExit("--games must be between 1 and 5000")
    if not 0 <= args.friends <= 1000:
        raise SystemExit("--friends must be between 0 and 1000")
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
              f"{figures['rss_loaded_mib']:.1f} MiB with {figures['played']} games live: "
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
        print_spreads(f, (("delivery_ms", "delivery (move to other player)"),
                          ("join_ms", "join (friend's join to creator)")))
        if f["reconnects"]:
            print(f"  {f['reconnects']} reconnections asked for by a server (code 1012)")
        for kind, count in sorted(f["not_delivered"].items()):
            print(f"  not delivered: {count} x {kind} (the other player had no state with it "
                  f"after {f['deliver_timeout_seconds']:g} s; each ended its game)")


def main() -> None:
    args = parse()
    Game.max_moves = Friends.max_moves = args.moves
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        servers, setup = start_servers(args, Path(tmp), stack)
        if args.friends and len({s.base for s in servers}) < 2:
            setup += "; friends games on one server (not across processes)"
        pids = [s.proc.pid for s in servers if s.proc is not None]
        figures = asyncio.run(run_load([s.base for s in servers], args.games, args.level,
                                       pids, args.think, args.one_address, args.friends,
                                       args.deliver_timeout))
    figures["setup"] = setup
    figures["moves_per_person"] = args.moves or None
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
