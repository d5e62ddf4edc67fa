"""Load figures for the web game: N concurrent games over loopback WebSockets.

Starts ``casino.web`` under uvicorn in a subprocess on 127.0.0.1 (a fresh
SQLite file in a temporary folder), then plays N games at once against the
computer: each client creates its game over HTTP, connects its WebSocket with
the seat cookie and plays a random legal move (seeded by the client's number)
at each of its turns, starting the next round when one ends, until the game is
over. A client waits 1 to 2 times ``--think`` seconds (at random) between two
messages: the server allows 20 a second per connection, and people are much
slower still.

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

Memory: the server process's resident set size (RSS, from /proc) once the
server is warm, and again when every game is in memory mid-game; the
difference divided by N is the memory per live game. The pool's worker
processes are not included (they do not grow with the number of games).

Usage::

    .venv/bin/python benchmarks/load_web.py [--games 20] [--level beginner]
        [--pool-workers 1] [--one-address] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def client_address(index: int, one: bool) -> str:
    """The loopback address client ``index`` connects from: a /24 network of its own
    (``127.1.1.1``, ``127.1.2.1``, ...), or 127.0.0.1 for all with ``one``."""
    if one or index < 0:
        return "127.0.0.1"
    return f"127.{1 + index // 250}.{1 + index % 250}.1"


class Game:
    """One client playing one game; its latencies in seconds, or why it did not play."""

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
                sent_version = m["version"]
                acked = False
                self.moves += 1
                move = {"type": "play", "move": self.rng.choice(v["legal"])["text"]}
                wait = self._last_send + self.pause() - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent_at = self._last_send = time.perf_counter()
                await ws.send(json.dumps(move))


async def run_load(base: str, games: int, level: str, server_pid: int,
                   think: float, one_address: bool = False) -> dict[str, Any]:
    # Warm up: one game start and the pool's first job, then the baseline.
    warm = Game(base, level, -1, think)
    barrier = asyncio.Barrier(1)
    go = asyncio.Event()
    go.set()
    await warm.play(barrier, go, 10_000)
    if warm.refused or warm.failed:
        raise SystemExit(f"the warm-up game did not play: {warm.refused or warm.failed}")
    baseline = rss_kib(server_pid)
    midgame = asyncio.Barrier(games + 1)
    resume = asyncio.Event()
    clients = [Game(base, level, i, think, client_address(i, one_address))
               for i in range(games)]
    started = time.perf_counter()
    tasks = [asyncio.create_task(g.play(midgame, resume, 8)) for g in clients]
    await midgame.wait()
    loaded = rss_kib(server_pid)
    resume.set()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - started
    played = [g for g in clients if g.refused is None and g.failed is None]
    ack = [x for g in played for x in g.ack]
    turn = [x for g in played for x in g.turn]
    moves = sum(g.moves for g in played)
    reasons: dict[str, int] = {}
    for g in clients:
        why = g.refused or g.failed
        if why is not None:
            reasons[why] = reasons.get(why, 0) + 1

    def spread(values: list[float]) -> dict[int, float]:
        return {p: 1000 * percentile(values, p) for p in (50, 95, 99)} if values else {}

    return {
        "games": games, "level": level, "think_seconds": think, "moves": moves,
        "one_address": one_address, "played": len(played),
        "refused": sum(1 for g in clients if g.refused is not None),
        "failed": sum(1 for g in clients if g.failed is not None),
        "reasons": reasons, "seconds": elapsed,
        "moves_per_second": moves / elapsed,
        "ack_ms": spread(ack), "turn_ms": spread(turn),
        "rss_baseline_mib": baseline / 1024, "rss_loaded_mib": loaded / 1024,
        "rss_per_game_kib": (loaded - baseline) / max(1, len(played)),
        "mean_ack_ms": 1000 * statistics.fmean(ack) if ack else None,
    }


def start_server(url: str, port: int, pool_workers: int) -> subprocess.Popen[bytes]:
    code = ("import uvicorn; from casino.web import create_app; "
            f"uvicorn.run(create_app({url!r}, pool_workers={pool_workers}), "
            f"host='127.0.0.1', port={port}, log_level='warning')")
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            httpx.get(base + "/api/games", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not answer")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--level", default="beginner", help="computer level (default beginner)")
    ap.add_argument("--pool-workers", type=int, default=1, help="thinking processes")
    ap.add_argument("--think", type=float, default=0.06,
                    help="a client waits 1 to 2 times this between messages (default 0.06 s)")
    ap.add_argument("--one-address", action="store_true",
                    help="every client from 127.0.0.1 (the per-address limits apply)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    if not 1 <= args.games <= 5000:
        raise SystemExit("--games must be between 1 and 5000")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'load.db'}"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start_server(url, port, args.pool_workers)
        try:
            wait_ready(base, proc)
            figures = asyncio.run(run_load(base, args.games, args.level, proc.pid,
                                           args.think, args.one_address))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    figures["machine"] = {"python": platform.python_version(), "platform": platform.platform(),
                          "processor": platform.processor() or platform.machine(),
                          "cpus": os.cpu_count()}
    print(f"{figures['games']} concurrent games at level {figures['level']} "
          f"(clients wait {figures['think_seconds']:g} to {2 * figures['think_seconds']:g} s "
          f"between messages), "
          f"{figures['moves']} moves in {figures['seconds']:.1f} s "
          f"({figures['moves_per_second']:.0f} moves/s)")
    if figures["refused"] or figures["failed"]:
        print(f"  {figures['played']} games played; {figures['refused']} refused and "
              f"{figures['failed']} failed:")
        for why, count in sorted(figures["reasons"].items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {why}")
    for key, label in (("ack_ms", "ack (move applied and sent back)"),
                       ("turn_ms", "turn (move + computer reply)")):
        p = figures[key]
        if p:
            print(f"  {label:<34} p50 {p[50]:7.1f} ms  p95 {p[95]:7.1f} ms  "
                  f"p99 {p[99]:7.1f} ms")
    print(f"  server RSS {figures['rss_baseline_mib']:.1f} MiB warm, "
          f"{figures['rss_loaded_mib']:.1f} MiB with {figures['played']} games live: "
          f"{figures['rss_per_game_kib']:.0f} KiB per game")
    print(f"  Python {figures['machine']['python']} on {figures['machine']['platform']}, "
          f"{figures['machine']['cpus']} CPUs")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
