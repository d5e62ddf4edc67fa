"""Slow clients against a real ``casino serve`` (docs/server.md, "Slow clients"): a
request whose headers or body trickle in is closed at its deadline, an address cannot
hold more than its share of connections, WebSockets and kept-alive connections still
work, and a fresh request is answered while far more slow connections are attempted
than the server has file descriptors (:mod:`casino.web.slow`)."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from casino.web.limits import Limits
from casino.web.settings import limits_from
from casino.web.slow import AddressSlots, configure, current_limits, raise_open_files, trusted_proxy
from tests.cluster_harness import SOURCE, Person, Server, running, serve_command
from tests.web_helpers import db_url

#: The deadlines the servers here keep to: short, so the tests wait little.
HEADER_SECONDS = 1.0
BODY_SECONDS = 2.0
#: The longest a test waits for the server to close a slow connection: a safety net far
#: above the deadline (a loaded machine), never a measure of it.
CLOSE_WAIT = 15.0
#: The longest a test waits for an answer: the same kind of safety net.
ANSWER_WAIT = 10.0

pytestmark = pytest.mark.skipif(sys.platform != "linux",
                                reason="needs loopback addresses beyond 127.0.0.1 (Linux)")

SLOW_LIMITS = {"header_seconds": f"{HEADER_SECONDS:g}", "body_seconds": f"{BODY_SECONDS:g}",
               "sockets_per_address": "4"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module, with short deadlines and 4 connections per address."""
    folder = tmp_path_factory.mktemp("slow")
    with running("S", db_url(folder), folder, limits=SLOW_LIMITS) as s:
        yield s


def open_socket(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to ``server`` from the loopback address ``source``."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_WAIT,
                                 source_address=(source, 0))
    s.settimeout(CLOSE_WAIT)
    return s


def read_until_closed(s: socket.socket, *, trickle: bytes = b"") -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that
    took; ``trickle`` is sent every 0.2 s meanwhile (a slowloris). Fails after
    :data:`CLOSE_WAIT` seconds of a connection left open."""
    start = time.monotonic()
    got = b""
    s.settimeout(0.2)
    while time.monotonic() - start < CLOSE_WAIT:
        try:
            data = s.recv(4096)
        except TimeoutError:
            if trickle:
                with suppress(OSError):
                    s.sendall(trickle)
            continue
        except ConnectionResetError:
            break
        if not data:
            break
        got += data
    else:
        raise AssertionError(f"the server held the connection for {CLOSE_WAIT} s")
    return got, time.monotonic() - start


def read_answer(s: socket.socket) -> bytes:
    """One whole answer (headers and a ``content-length`` body) read from ``s``."""
    got = b""
    while b"\r\n\r\n" not in got:
        data = s.recv(4096)
        assert data, f"closed after {got!r}"
        got += data
    head, _, body = got.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        data = s.recv(4096)
        assert data, f"closed after {got!r}"
        body += data
    return head + b"\r\n\r\n" + body


def fetch(server: Server, source: str = "127.0.0.1", path: str = "/") -> int:
    """``GET path`` from ``source`` on a new connection: the status code."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=server.base, transport=transport, timeout=ANSWER_WAIT) as c:
        return c.get(path).status_code


# ----------------------------------------------------------------------
# The deadlines


def test_headers_trickled_in_are_cut_off_with_a_408(server: Server) -> None:
    s = open_socket(server)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    got, took = read_until_closed(s, trickle=b"X-a: b\r\n")
    assert got.startswith(b"HTTP/1.1 408 "), got
    assert took >= HEADER_SECONDS * 0.5  # not refused at once: let in, then timed out
    s.close()


def test_a_connection_that_sends_nothing_is_closed_silently(server: Server) -> None:
    s = open_socket(server)
    got, _took = read_until_closed(s)
    assert got == b""  # no request came, so no answer (a browser's spare connection)
    s.close()


def test_a_body_announced_and_never_sent_is_cut_off_with_a_408(server: Server) -> None:
    s = open_socket(server)
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 4000\r\n\r\n{")
    got, took = read_until_closed(s, trickle=b" ")
    assert got.startswith(b"HTTP/1.1 408 "), got
    assert took >= BODY_SECONDS * 0.5
    s.close()
    assert fetch(server) == 200  # the app that was reading the body is fine


def test_a_body_that_comes_in_pieces_within_the_deadline_is_served(server: Server) -> None:
    """The app starts once a small body is in (the server waits for it, not the app):
    a body sent in two pieces, and one sent after ``100 Continue``, are served."""
    body = json.dumps({"rules": "casino", "level": "beginner"}).encode()
    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n" % len(body))
    s = open_socket(server)
    s.sendall(head + b"\r\n" + body[:10])
    time.sleep(BODY_SECONDS / 4)
    s.sendall(body[10:])
    assert read_answer(s).startswith(b"HTTP/1.1 201 ")
    s.close()
    s = open_socket(server)
    s.sendall(head + b"Expect: 100-continue\r\n\r\n")
    assert s.recv(4096).startswith(b"HTTP/1.1 100 ")  # asked for by the app, at once
    s.sendall(body)
    assert read_answer(s).startswith(b"HTTP/1.1 201 ")
    s.close()


def test_a_kept_alive_connection_gets_a_new_deadline_for_each_request(server: Server) -> None:
    """The header deadline starts at a request's first byte, not at the previous answer:
    a connection kept alive longer than the deadline (less than uvicorn's keep-alive
    timeout, 5 s) is served, and a request trickled on it is cut off."""
    s = open_socket(server)
    request = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    s.sendall(request)
    assert read_answer(s).startswith(b"HTTP/1.1 200 ")
    time.sleep(HEADER_SECONDS * 1.5)
    s.sendall(request)
    assert read_answer(s).startswith(b"HTTP/1.1 200 ")
    s.sendall(b"GET / HTTP/1.1\r\n")
    got, _took = read_until_closed(s, trickle=b"X-a: b\r\n")
    assert b"HTTP/1.1 408 " in got, got
    s.close()


def test_a_websocket_outlives_the_header_deadline(server: Server) -> None:
    person = Person("Ann")
    game = person.create(server, rules="casino", level="beginner")["game"]

    async def play() -> None:
        async with connect(server.ws_url(game), additional_headers=person.headers(server),
                           proxy=None, ping_interval=None, open_timeout=ANSWER_WAIT) as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            assert await state_of(ws)
            await asyncio.sleep(HEADER_SECONDS * 2.5)
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            assert await state_of(ws)  # still open, still answered

    asyncio.run(play())


def test_a_websocket_handshake_too_big_to_read_is_answered_and_closed(server: Server) -> None:
    """A header line over the WebSocket library's 8 KiB, sent whole: uvicorn left such a
    handshake open and unanswered for ever."""
    s = open_socket(server)
    s.sendall(b"GET /ws/0123456789abcdef HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              b"Sec-WebSocket-Version: 13\r\nCookie: c=" + b"y" * 10_000 + b"\r\n\r\n")
    got, took = read_until_closed(s)
    assert got.startswith(b"HTTP/1.1 431 "), got
    assert took < HEADER_SECONDS  # answered at once, not left to a deadline
    s.close()


async def state_of(ws: ClientConnection) -> dict[str, Any]:
    """The next ``state`` message (pings answered, anything else skipped)."""
    while True:
        m: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_WAIT))
        if m["type"] == "ping":
            await ws.send(json.dumps({"type": "pong"}))
        elif m["type"] == "state":
            return m


# ----------------------------------------------------------------------
# Connections per address


def test_an_address_over_its_share_is_refused_while_others_are_served(server: Server) -> None:
    held = [open_socket(server, "127.0.3.1") for _ in range(4)]
    for s in held:
        s.sendall(b"GET / HTTP/1.1\r\n")  # slow, but within the deadline for a moment
    extra = open_socket(server, "127.0.3.1")
    got, took = read_until_closed(extra)
    assert got == b""
    assert took < HEADER_SECONDS  # refused at once, not timed out
    assert fetch(server, "127.0.3.2") == 200  # another address is served meanwhile
    for s in held:
        s.close()
    deadline = time.monotonic() + CLOSE_WAIT  # the server hears of the closings soon
    while True:
        try:
            assert fetch(server, "127.0.3.1") == 200  # the address has its places back
            break
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the address never got its places back"
            time.sleep(0.1)


def test_a_websocket_holds_its_addresss_place_until_it_closes(server: Server) -> None:
    person = Person("Bo")
    game = person.create(server, rules="casino", level="beginner")["game"]
    source = "127.0.4.1"

    async def sockets() -> None:
        opened = [await connect(server.ws_url(game), additional_headers=person.headers(server),
                                proxy=None, ping_interval=None, open_timeout=ANSWER_WAIT,
                                local_addr=(source, 0)) for _ in range(4)]
        refused = open_socket(server, source)
        got, took = await asyncio.to_thread(read_until_closed, refused)
        refused.close()
        assert got == b"" and took < HEADER_SECONDS  # four WebSockets fill its share
        await opened.pop().close()
        await asyncio.sleep(0.5)
        assert await asyncio.to_thread(fetch, server, source, "/api/games") == 200
        for ws in opened:
            await ws.close()

    asyncio.run(sockets())


# ----------------------------------------------------------------------
# Many slow connections against few file descriptors


@contextmanager
def few_descriptors(folder: Path, descriptors: int, limits: dict[str, str]) -> Iterator[Server]:
    """A server that may open only ``descriptors`` files (soft and hard limit, so that it
    cannot raise them), from a folder of its own; stopped on leaving."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(SOURCE), os.environ.get("PYTHONPATH", "")])}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = serve_command(port, db_url(folder), limits=limits)
    log = folder / "server.log"

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=folder,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                                preexec_fn=cap)
    server = Server("F", port, proc, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.alive(), server.log_text()
            try:
                httpx.get(server.base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, server.log_text()
                time.sleep(0.05)
        yield server
    finally:
        server.stop()


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def slowloris(server: Server, attempts: int, addresses: int) -> list[asyncio.StreamWriter]:
    """``attempts`` connections from ``addresses`` loopback addresses, each sending the
    start of a request's headers and nothing more: the ones that opened."""
    opened: list[asyncio.StreamWriter] = []
    for i in range(attempts):
        try:
            _r, w = await asyncio.open_connection(
                "127.0.0.1", server.port, local_addr=(f"127.0.{10 + i % addresses}.9", 0))
        except OSError:
            continue
        w.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        opened.append(w)
        if i % 100 == 99:
            await asyncio.sleep(0)
    return opened


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts /proc/PID/fd")
def test_a_fresh_request_is_answered_while_more_slow_connections_come_than_descriptors(
        tmp_path: Path) -> None:
    """2,500 slow connections from 125 addresses against a server of 700 file
    descriptors: each address holds 4 (500 in all) and the rest are refused at once, a
    fresh page is answered meanwhile, and the slow ones are all closed at the deadline.
    (uvicorn alone held every one of them until its descriptors ran out, and then
    accepted nobody.)"""
    raise_open_files()  # this process opens 2,500 sockets
    limits = {"header_seconds": "3", "sockets_per_address": "4"}
    with few_descriptors(tmp_path, 700, limits) as server:
        idle = open_descriptors(server.proc.pid)

        async def attack() -> None:
            opened = await slowloris(server, 2500, 125)
            try:
                start = time.monotonic()
                status = await asyncio.to_thread(fetch, server)
                assert status == 200
                assert time.monotonic() - start < ANSWER_WAIT
                assert open_descriptors(server.proc.pid) <= idle + 125 * 4 + 10
                deadline = time.monotonic() + CLOSE_WAIT
                while open_descriptors(server.proc.pid) > idle + 10:
                    assert time.monotonic() < deadline, "the slow connections were kept"
                    await asyncio.sleep(0.2)
            finally:
                for w in opened:
                    w.close()

        asyncio.run(attack())
        assert fetch(server) == 200


# ----------------------------------------------------------------------
# The pieces


def test_the_deadlines_and_the_share_are_limits_checked_like_the_others() -> None:
    limits = limits_from(["header_seconds=2.5", "connections.body_seconds=10",
                          "sockets_per_address=8"])
    assert (limits.header_seconds, limits.body_seconds, limits.sockets_per_address) == (
        2.5, 10.0, 8)
    for bad in ("header_seconds=0", "body_seconds=inf", "sockets_per_address=1.5"):
        with pytest.raises(ValueError, match=bad.partition("=")[0]):
            limits_from([bad])


def test_address_slots_count_each_address_up_to_its_cap() -> None:
    slots = AddressSlots()
    assert [slots.take("a", 2) for _ in range(3)] == [True, True, False]
    assert slots.take("b", 2)
    slots.give_back("a")
    assert slots.held("a") == 1 and slots.take("a", 2)
    slots.give_back("a")
    slots.give_back("a")
    assert slots.held("a") == 0


def test_only_a_named_proxy_escapes_the_cap() -> None:
    from uvicorn.config import Config

    def config(proxies: str | None) -> Config:
        return Config(app=None, proxy_headers=proxies is not None,  # type: ignore[arg-type]
                      forwarded_allow_ips=proxies)

    assert not trusted_proxy(config(None), "127.0.0.1")  # uvicorn's default is not ours
    assert trusted_proxy(config("10.0.0.0/8,::1"), "10.1.2.3")
    assert trusted_proxy(config("10.0.0.0/8,::1"), "::ffff:10.1.2.3")
    assert trusted_proxy(config("10.0.0.0/8,::1"), "::1")
    assert not trusted_proxy(config("10.0.0.0/8,::1"), "192.168.1.1")
    assert trusted_proxy(config("*"), "192.168.1.1")


def test_serve_runs_the_guarded_protocols_in_one_process_and_in_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from casino.web import app as web_app
    from casino.web import serving
    from casino.web.slow import GuardedH11Protocol, GuardedWebSocketProtocol

    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda target, **run: runs.append(run))
    monkeypatch.setattr("casino.web.single.refuse_several", lambda *_: None)
    monkeypatch.setattr("casino.web.single.claim_sqlite", lambda *_: None)
    monkeypatch.setattr("casino.web.slow._PROCESS.limits", Limits())  # put back after
    monkeypatch.delenv(serving.ENV, raising=False)
    limits = Limits(header_seconds=2.0, sockets_per_address=9)
    web_app.serve("127.0.0.1", 8000, db_url(tmp_path, "one.db"), 0, limits)
    assert current_limits() == limits
    web_app.serve("127.0.0.1", 8000, db_url(tmp_path, "two.db"), 0, limits, workers=2)
    configure(Limits())
    serving.worker_app()  # a worker is told its limits by the settings it is handed
    assert current_limits() == limits
    assert len(runs) == 2
    for run in runs:
        assert run["http"] is GuardedH11Protocol and run["ws"] is GuardedWebSocketProtocol
    soft, hard = raise_open_files()
    assert soft == hard or hard == resource.RLIM_INFINITY
    monkeypatch.delenv(serving.ENV)
