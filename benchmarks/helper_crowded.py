"""The move helper (``POST /api/helper``) on a crowded table, against a real server.

Starts ``casino.web`` under uvicorn in a subprocess on 127.0.0.1 (a fresh
SQLite file in a temporary folder) and posts the table that once held a server
core for minutes and grew the server by 814 MB: Finnish Kasino, 24 loose
cards (every A to 6), the 10♦ in hand; then the same table with three 7s more
(27 loose cards, 754,001 legal moves with a hand of four), and a table of 21
cards of every rank met in a game where both players trailed. The helper used to
list every legal move and was refused as "too crowded" at ``helper_seconds``;
it now answers from the engine's bounded questions: a ranked list of at most
40 plays, with ``complete`` false (a selection). Reports each answer's status,
time, plays shown and size in bytes, and the server process's resident memory
(RSS, from /proc) before and after; the helper's worker processes are not
included. The first request also starts the helper's worker process.

Usage::

    .venv/bin/python benchmarks/helper_crowded.py [--requests 3] [--level expert]
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

#: Every A to 6: 24 cards.
TABLE_24 = [r + s for r in "A23456" for s in "cdhs"]
CROWDED = {"rules": "kasino", "table": TABLE_24, "hand": ["Td"], "level": None}
CROWDED_27 = {**CROWDED, "table": [*TABLE_24, "7c", "7d", "7h"],
              "hand": ["Td", "8s", "9c", "Ks"]}
#: A table met in a game where both players only trailed (tests/crowded_tables.py,
#: seed 1): 21 loose cards of every rank, so few of them alike.
GAME_21 = {**CROWDED, "table": "5d 3c 6h 2c Ah 3d 5h 4d Th 7c Kc 8c Ad 6d 3s 9s Qd Tc Kh Jd 6s",
           "hand": ["4s", "7h", "Qs", "Kd"]}
CASES = (("24 loose, 10♦ in hand", CROWDED), ("27 loose, 4 in hand", CROWDED_27),
         ("a game's 21 loose of every rank, 4 in hand", GAME_21))


def _rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    raise RuntimeError(f"no memory figure for process {pid}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3)
    parser.add_argument("--level", default=None,
                        help="ask this computer level for its pick too (default: none)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    port = _free_port()
    code = ("import uvicorn; from casino.web import create_app; "
            f"uvicorn.run(create_app('sqlite:///{folder}/bench.db'), host='127.0.0.1', "
            f"port={port}, log_level='warning')")
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        before = _rss_mb(proc.pid)
        print(f"Python {platform.python_version()} on {platform.platform()}, "
              f"{os.cpu_count()} CPUs")
        for name, case in CASES:
            print(f"{name}:")
            for _ in range(args.requests):
                start = time.perf_counter()
                r = httpx.post(base + "/api/helper", json={**case, "level": args.level},
                               timeout=120)
                took = time.perf_counter() - start
                body = r.json()
                what = body.get("error") or (
                    f"{len(body['moves'])} plays, complete {body['complete']}, "
                    f"{len(r.content):,} bytes")
                print(f"  {r.status_code} in {took:.2f} s: {what}")
        print(f"  server RSS {before} MB before, {_rss_mb(proc.pid)} MB after")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)


if __name__ == "__main__":
    main()
