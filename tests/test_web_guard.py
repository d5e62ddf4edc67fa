"""The HTTP layer against a hostile client (casino/web/guard.py, redact.py, limits.py).

Where the attack is about the wire (a body announced far bigger than it is sent, a
chunked body that never ends, what the access log writes), the app runs under a
real uvicorn in a subprocess and the test talks to it with raw sockets or httpx.
Elsewhere a TestClient or a direct ASGI call says as much, faster; the direct calls
feed the app an endless body and count how much of it was read.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.responses import Response
from starlette.types import Message

from casino.web import tools
from casino.web.guard import Guard, GuardedFastAPI, content_security_policy, security_headers
from casino.web.limits import Limits
from casino.web.redact import REDACTED, RedactSecrets, redact
from casino.web.store import GameRow
from tests.web_helpers import FAST, Served, cookie_of, db_url, guest, new_game, real_server, web

with_timeout = pytest.mark.timeout(120)

#: A body size far beyond anything the server takes: 300 MiB.
HUGE = 300 * 1024 * 1024
#: The headers every response must carry, with a value each must hold.
HEADERS = {"content-security-policy": "default-src 'self'", "x-content-type-options": "nosniff",
           "referrer-policy": "no-referrer", "x-frame-options": "DENY"}


# ----------------------------------------------------------------------
# A real server in a subprocess, its log captured


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``create_app`` under uvicorn with the access log on, as ``casino serve`` runs it;
    its stdout (the access log) and stderr go to one file."""
    folder = tmp_path_factory.mktemp("guard")
    app = f"create_app({db_url(folder)!r}, pool_workers=0, hint_level='beginner')"
    with real_server(app, log=folder / "server.log", log_level="info") as served:
        yield served


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def exchange(port: int, head: str, parts: list[bytes]) -> Answer:
    """Send a request's head and some body parts, then read until the server closes.

    A server that waited for the rest of the body, or kept the connection open to read
    it, would never get there: the socket's timeout (a safety net, not a measure) then
    fails the test.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head.encode("latin-1"))
        try:
            for part in parts:
                sock.sendall(part)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before taking it all: as it should
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(lines[0].split()[1]), headers, body)


def post_head(port: int, path: str, *extra: str) -> str:
    return "\r\n".join([f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
                        "Content-Type: application/json", *extra, "", ""])


# ----------------------------------------------------------------------
# Bodies: limited while they are read, not after


@with_timeout
def test_a_huge_announced_body_is_refused_before_it_is_read(server: Served) -> None:
    # 300 MiB announced, 4 KiB sent: the answer comes at once and the line is closed,
    # so the server never reads (or holds) the rest.
    for path in ("/api/games", "/api/scorepad/apply", "/api/helper", "/api/nothing"):
        answer = exchange(server.port, post_head(server.port, path, f"Content-Length: {HUGE}"),
                          [b" " * 4096])
        assert answer.status == 413, (path, answer)
        words = "the request is too big (at most 2,000,000 bytes)"
        assert json.loads(answer.body) == {"error": words}
        assert answer.headers["connection"] == "close"
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert httpx.get(server.base + "/api/games").status_code == 200  # nothing else hurt


@with_timeout
def test_a_chunked_body_past_the_limit_is_cut_off(server: Served) -> None:
    # No Content-Length, and the body never ends: reading stops once it passes 4 KiB.
    # Five pieces pass the limit; more would only race the server's close of the line.
    chunks = [b"400\r\n" + b" " * 1024 + b"\r\n" for _ in range(5)]
    answer = exchange(server.port, post_head(server.port, "/api/games",
                                             "Transfer-Encoding: chunked"), chunks)
    assert answer.status == 413
    assert json.loads(answer.body) == {"error": "the request is too big (at most 4 KiB)"}
    assert answer.headers["connection"] == "close"


class EndlessBody:
    """An ASGI ``receive`` that hands out 1 KiB chunks and never says the body ended
    (until ``cap`` chunks, so that a server that reads it all still stops)."""

    def __init__(self, cap: int = 10_000) -> None:
        self.pulled = 0
        self.cap = cap

    async def __call__(self) -> dict[str, Any]:
        self.pulled += 1
        return {"type": "http.request", "body": b" " * 1024, "more_body": self.pulled < self.cap}


class Collected:
    """An ASGI ``send`` that keeps the response."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")


def http_scope(method: str, path: str, headers: dict[str, str]) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
            "headers": [(k.encode(), v.encode()) for k, v in
                        {"host": "testserver", **headers}.items()]}


def test_each_route_stops_reading_its_body_at_its_own_limit(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        app = client.app

        async def endless() -> tuple[Collected, EndlessBody]:
            body, out = EndlessBody(), Collected()
            scope = http_scope("POST", "/api/games", {"transfer-encoding": "chunked"})
            await app(scope, body, out)
            return out, body

        out, body = client.portal.call(endless)  # type: ignore[union-attr]
        assert out.status == 413 and json.loads(out.body)["error"].endswith("(at most 4 KiB)")
        assert body.pulled == 5  # 4 KiB, then the chunk that went past: no further
        assert out.headers["connection"] == "close"

        async def announced() -> Collected:
            out = Collected()

            async def never() -> Message:
                raise AssertionError("a body announced too big was read")

            scope = http_scope("POST", "/api/scorepads", {"content-length": "70000"})
            await app(scope, never, out)
            return out

        out = client.portal.call(announced)  # type: ignore[union-attr]
        assert out.status == 413 and "at most 65 KiB" in json.loads(out.body)["error"]
        assert count_games(client) == 0


def test_the_server_wide_ceiling_holds_for_a_route_that_reads_everything() -> None:
    # A route that reads its whole body with no limit of its own is still cut off.
    async def greedy(scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        body = await request.body()
        await JSONResponse({"read": len(body)})(scope, receive, send)

    guard = Guard(greedy, body_bytes=10 * 1024)

    async def endless() -> tuple[Collected, EndlessBody]:
        body, out = EndlessBody(), Collected()
        await guard(http_scope("POST", "/upload", {"transfer-encoding": "chunked"}), body, out)
        return out, body

    import asyncio

    out, body = asyncio.run(endless())
    assert out.status == 413 and body.pulled == 11
    assert json.loads(out.body) == {"error": "the request is too big (at most 10 KiB)"}
    assert out.headers["connection"] == "close"
    assert out.headers["referrer-policy"] == "no-referrer"


def test_the_ceiling_is_the_largest_body_a_route_takes() -> None:
    limits = Limits()
    routes = [tools.MAX_APPLY, tools.MAX_STORED + 1024, tools.MAX_HELPER, limits.message_bytes]
    assert limits.body_bytes == max(routes)


# ----------------------------------------------------------------------
# Changes only from this site's own pages


def count_games(client: Any) -> int:
    with Session(client.app.state.store.engine) as s:
        return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)


def test_changes_from_another_site_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        hostile = [{"origin": "https://evil.example"}, {"origin": "null"},
                   {"origin": "null", "sec-fetch-site": "cross-site"},
                   {"origin": "null", "sec-fetch-site": "same-site"},
                   {"origin": "http://testserver.evil.example"}, {"origin": "http://[::1"},
                   {"sec-fetch-site": "cross-site"},
                   {"origin": "http://testserver", "sec-fetch-site": "cross-site"}]
        for headers in hostile:
            r = client.post("/api/games", json={"level": "beginner"}, headers=headers)
            assert r.status_code == 403, headers
            words = r.json()["error"]
            assert "another site" in words and "nothing was changed" in words
            assert "set-cookie" not in r.headers
        r = client.post("/api/scorepads", json={"pad": {}}, headers=hostile[0])
        assert r.status_code == 403 and "another site" in r.json()["error"]
        r = client.put("/api/scorepads/abcdefgh", json={"pad": {}}, headers=hostile[0])
        assert r.status_code == 403
        page = client.post("/game/0123456789abcdef", headers=hostile[0])
        assert page.status_code == 403 and "text/html" in page.headers["content-type"]
        assert "another site" in page.text
        assert count_games(client) == 0 and not client.cookies

        # This site's own page (and a script with no Origin) may.
        own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        r = client.post("/api/games", json={"level": "beginner"}, headers=own)
        assert r.status_code == 201
        # A form of this site's page, which Chromium posts with "Origin: null" under the
        # pages' no-referrer policy, the browser vouching for it as same-origin.
        own_form = {"origin": "null", "sec-fetch-site": "same-origin"}
        r = client.post("/api/games", json={"level": "beginner"}, headers=own_form)
        assert r.status_code == 201
        r = client.post("/api/games", json={"mode": "friends", "name": "Ann"})
        assert r.status_code == 201
        invite = r.json()["invite"]
        assert count_games(client) == 3

        # An invite link is shared by chat: following it from another site is a link
        # click (a GET with no Origin), and it still takes the seat.
        friend = guest(client)
        r = friend.get(invite, params={"name": "Bob"}, follow_redirects=False,
                       headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
        assert r.status_code == 303 and cookie_of(friend, invite.split("/")[2])


# ----------------------------------------------------------------------
# HEAD, and the headers of every response


def test_head_answers_like_get_without_a_body(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        urls = ["/", f"/game/{gid}", "/rules/casino", f"/records/{gid}", "/svg/card/Td.svg",
                "/svg/back.svg", "/static/app.css", "/static/game.js", "/scorepad", "/helper",
                "/api/games", "/api/scorepad/setup", "/no/such/page"]
        for url in urls:
            got = client.get(url, follow_redirects=False)
            head = client.head(url, follow_redirects=False)
            assert head.status_code == got.status_code, url
            assert head.content == b"", url
            assert head.headers["content-type"] == got.headers["content-type"], url
            assert int(head.headers["content-length"]) == len(got.content), url
        assert client.head("/").status_code == 200
        assert count_games(client) == 1


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with web(tmp_path, limits=FAST) as client:
        answers = [client.get("/"), client.get("/rules/casino"), client.get("/static/lobby.js"),
                   client.get("/svg/back.svg"), client.get("/api/games"), client.get("/nothing"),
                   client.get("/api/nothing"), client.delete("/api/games"), client.head("/"),
                   client.post("/api/games", content=b" " * 5000),
                   client.post("/api/games", json={}, headers={"origin": "https://x.example"})]
        for r in answers:
            for name, value in HEADERS.items():
                assert value in r.headers.get(name, ""), (r.request.url, name)
        csp = answers[0].headers["content-security-policy"]
        for directive in ("script-src 'self'", "img-src 'self' data:", "object-src 'none'",
                          "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'",
                          "connect-src 'self' ws://testserver wss://testserver"):
            assert directive in csp, directive
        assert "unsafe" not in csp


def test_a_host_header_cannot_write_into_the_policy() -> None:
    assert "ws://casino.example:8000 wss://casino.example:8000" in content_security_policy(
        "casino.example:8000")
    assert "ws://[::1]:8000" in content_security_policy("[::1]:8000")
    for host in ("evil; script-src *", "a b", "x'", "", None, "host:99999999"):
        csp = content_security_policy(host)
        assert "connect-src 'self';" in csp and csp.count("script-src") == 1, host
    assert security_headers(None)["x-frame-options"] == "DENY"


def test_even_the_crash_page_carries_the_headers() -> None:
    # The guard wraps Starlette's server-error layer too, not only the routes.
    from starlette.testclient import TestClient

    app = GuardedFastAPI(body_bytes=1024)

    @app.get("/boom")
    async def boom() -> Response:
        raise RuntimeError("a bug")

    @app.exception_handler(Exception)
    async def crash(_request: Request, _exc: Exception) -> Response:
        return JSONResponse({"error": "something went wrong"}, status_code=500)

    r = TestClient(app, raise_server_exceptions=False).get("/boom")
    assert r.status_code == 500
    for name, value in HEADERS.items():
        assert value in r.headers.get(name, ""), name


# ----------------------------------------------------------------------
# The same over the wire


@with_timeout
def test_a_cross_site_post_head_and_headers_on_the_real_server(server: Served) -> None:
    r = httpx.post(server.base + "/api/games", json={"level": "beginner"},
                   headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "set-cookie" not in r.headers
    r = httpx.head(server.base + "/")
    assert r.status_code == 200 and r.content == b"" and int(r.headers["content-length"]) > 0
    for name, value in HEADERS.items():
        assert value in r.headers[name]
    host = f"127.0.0.1:{server.port}"
    assert f"ws://{host} wss://{host}" in r.headers["content-security-policy"]


# ----------------------------------------------------------------------
# No secrets in the logs


@with_timeout
def test_the_access_log_holds_no_invite_code(server: Served) -> None:
    with httpx.Client(base_url=server.base) as ann, httpx.Client(base_url=server.base) as bob:
        r = ann.post("/api/games", json={"mode": "friends", "name": "Ann", "level": "beginner"})
        assert r.status_code == 201
        invite = r.json()["invite"]
        gid, code = invite.split("/")[2:4]
        assert bob.get(invite).status_code == 200  # the invite page asks the name
        assert bob.head(invite).status_code == 200
        r = bob.get(invite, params={"name": "Bob"}, follow_redirects=False)
        assert r.status_code == 303
        stranger = httpx.get(server.base + invite + "x")  # a wrong code is cut out too
        assert stranger.status_code >= 400
    # The log is written line by line; the last request's line may still be on its way.
    for _ in range(200):
        text = server.log_text()
        if text.count(f"/join/{gid}/{REDACTED}") >= 4:
            break
        time.sleep(0.05)
    assert f'"GET /join/{gid}/{REDACTED}?name=Bob HTTP/1.1" 303' in text, text[-2000:]
    assert code not in text


def test_the_redaction_rewrites_records_before_they_are_formatted() -> None:
    assert redact("GET /join/0123abcd/s3cr3t-Code_x?name=Bo HTTP/1.1") == (
        f"GET /join/0123abcd/{REDACTED}?name=Bo HTTP/1.1")
    assert redact("/join/abc/code/") == f"/join/abc/{REDACTED}/"
    assert redact("/game/abc and /rules/casino") == "/game/abc and /rules/casino"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/join/g1/sekrit", "1.1", 200), None)
    assert RedactSecrets().filter(record)
    assert "sekrit" not in record.getMessage() and "/join/g1/" in record.getMessage()
    crash = logging.LogRecord("casino.web", logging.ERROR, __file__, 1,
                              "unexpected error on /join/g1/sekrit", None, None)
    RedactSecrets().filter(crash)
    assert "sekrit" not in crash.getMessage()
