"""The move helper (``POST /api/helper``) on a crowded table, against a real server.

Starts ``casino.web`` under uvicorn in a subprocess on 127.0.0.1 (a fresh
SQLite file in a temporary folder) and posts the table that once held a server
core for minutes and grew the server by 814 MB: Finnish Kasino, 24 loose
cards (every A to 6), the 10♦ in hand. Reports each answer's status, words and
time, and the server process's resident memory (RSS, from /proc) before and
after; the helper's worker processes are not included (they are stopped and
replaced when a job runs past ``helper_seconds``).

Usage::

    .venv/bin/python benchmarks/helper_crowded.py [--requests 3]
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

CROWDED = {"rules": "kasino", "table": [r + s for r in "A23456" for s in "cdhs"],
           "hand": ["Td"], "level": None}


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
        for _ in range(args.requests):
            start = time.perf_counter()
            r = httpx.post(base + "/api/helper", json=CROWDED, timeout=120)
            took = time.perf_counter() - start
            print(f"  {r.status_code} in {took:.2f} s: {r.json().get('error', 'answered')}")
        print(f"  server RSS {before} MB before, {_rss_mb(proc.pid)} MB after")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)


if __name__ == "__main__":
    main()
