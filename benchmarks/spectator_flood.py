"""Does a flood of spectators slow the players? (issue 47: the players' ack p99 under a
spectator flood must stay within 2x of the same game's without one.)

Starts ``casino serve`` on a free port of 127.0.0.1 with a fresh SQLite database, and
plays two rooms of two people (Ann and Bob, the first listed move of each turn, the
next round dealt when one ends) over the WebSocket, as fast as the acks come:

- the first game alone;
- the second with ``--spectators`` spectators on ``/ws/watch/<id>``, each reading every
  frame and sending ``hello`` ``--hellos`` times a second (each answered with a whole
  state: the costliest thing a spectator may ask for, within the message rate).

An ack is the time from a player's ``play`` to the state of the next version on their
own connection. Prints the figures as JSON (p50, p99 and max of each run, their ratio)
and exits 1 when the p99 under the flood is over twice the p99 without it.

    .venv/bin/python benchmarks/spectator_flood.py --moves 300 --spectators 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

#: Spectators' frames read before the flood counts as having begun.
WARM_FRAMES = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def start(folder: Path, spectators: int) -> tuple[subprocess.Popen[bytes], str]:
    """``casino serve`` with room for the flood from this one address."""
    port = free_port()
    many = str(spectators + 16)
    command = [sys.executable, "-m", "casino", "serve", "--port", str(port),
               "--database", f"sqlite:///{folder / 'casino.db'}", "--workers-pool", "0",
               "--limit", f"spectators_per_game={many}",
               "--limit", f"game_connections_per_address={many}",
               "--limit", f"connections_per_address={many}",
               "--limit", f"sockets_per_address={spectators + 64}"]
    log = (folder / "serve.log").open("wb")
    proc = subprocess.Popen(command, start_new_session=True, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"casino serve stopped: see {folder / 'serve.log'}")
        try:
            httpx.get(base + "/api/games", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("casino serve did not answer within 30 s")


def room(base: str) -> tuple[str, list[str]]:
    """A room of Ann and Bob that may be watched: its id and each seat's browser token."""
    with httpx.Client(base_url=base) as ann, httpx.Client(base_url=base) as bob:
        r = ann.post("/api/games", json={"mode": "friends", "name": "Ann",
                                         "spectators": True})
        r.raise_for_status()
        made = r.json()
        joined = bob.get(f"{made['invite']}?name=Bob", follow_redirects=False)
        assert joined.status_code == 303, joined.text
        return made["game"], [ann.cookies["casino"], bob.cookies["casino"]]


class Player:
    """A seat's connection: the latest view, and a wake-up on each state."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.version = -1
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for raw in self.ws:
            m = json.loads(raw)
            if m["type"] == "state":
                self.view, self.version = m["view"], m["version"]
                self.changed.set()
            elif m["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
            elif m["type"] == "error":
                raise SystemExit(f"the server refused a player's message: {m['message']}")

    async def until(self, version: int) -> None:
        while self.version < version:
            self.changed.clear()
            await self.changed.wait()


async def spectator(url: str, hellos: float, frames: list[int], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "since": 0}))

        async def ask() -> None:
            while not stop.is_set():
                await asyncio.sleep(1 / hellos)
                await ws.send(json.dumps({"type": "hello", "since": 0}))

        asker = asyncio.ensure_future(ask()) if hellos > 0 else None
        try:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                frames[0] += 1
        finally:
            if asker is not None:
                asker.cancel()


async def play(base: str, moves: int, spectators: int, hellos: float,
               pause: float) -> dict[str, Any]:
    """One room played for ``moves`` moves (or to its end); its acks, in seconds."""
    game, tokens = room(base)
    ws_base = base.replace("http", "ws")
    stop = asyncio.Event()
    frames = [0]
    crowd = [asyncio.ensure_future(spectator(f"{ws_base}/ws/watch/{game}", hellos, frames,
                                             stop)) for _ in range(spectators)]
    while spectators and frames[0] < spectators * WARM_FRAMES:
        await asyncio.sleep(0.05)
    async with contextlib.AsyncExitStack() as stack:
        players = []
        for token in tokens:
            ws = await stack.enter_async_context(websockets.connect(
                f"{ws_base}/ws/{game}", additional_headers={"Cookie": f"casino={token}"}))
            players.append(Player(ws))
        readers = [asyncio.ensure_future(p.read()) for p in players]
        for p in players:
            await p.ws.send(json.dumps({"type": "hello", "since": 0}))
            await p.until(0)
        acks: list[float] = []
        while len(acks) < moves:
            await players[0].until(max(p.version for p in players))
            view = players[0].view
            if view["status"] == "over":
                break
            if view["status"] == "round_over":
                version = players[0].version
                await asyncio.sleep(pause)
                await players[0].ws.send(json.dumps({"type": "next_round"}))
                await players[0].until(version + 1)
                continue
            mover = players[view["to_move"]]
            await mover.until(players[0].version)
            await asyncio.sleep(pause)  # within the messages a connection may send
            version = mover.version
            sent = time.perf_counter()
            await mover.ws.send(json.dumps({"type": "play",
                                            "move": mover.view["legal"][0]["text"]}))
            await mover.until(version + 1)
            acks.append(time.perf_counter() - sent)
        for r in readers:
            r.cancel()
    stop.set()
    await asyncio.gather(*crowd, return_exceptions=True)
    return {"moves": len(acks), "p50_ms": round(percentile(acks, 50) * 1000, 2),
            "p99_ms": round(percentile(acks, 99) * 1000, 2),
            "max_ms": round(max(acks) * 1000, 2), "spectators": spectators,
            "spectator_frames": frames[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves timed in each game")
    parser.add_argument("--spectators", type=int, default=60, help="the flood's spectators")
    parser.add_argument("--hellos", type=float, default=10.0,
                        help="hellos a second from each spectator (at most 20: the rate limit)")
    parser.add_argument("--pause", type=float, default=0.05,
                        help="seconds a player waits before each move (the players keep "
                             "within 20 messages a second, the server's limit)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start(Path(tmp), args.spectators)
        try:
            alone = asyncio.run(play(base, args.moves, 0, 0, args.pause))
            flooded = asyncio.run(play(base, args.moves, args.spectators, args.hellos,
                                       args.pause))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(15)
    ratio = flooded["p99_ms"] / alone["p99_ms"] if alone["p99_ms"] else float("inf")
    print(json.dumps({"alone": alone, "flooded": flooded, "hellos_per_second": args.hellos,
                      "p99_ratio": round(ratio, 2), "cpus": os.cpu_count()}, indent=2))
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
