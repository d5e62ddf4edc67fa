"""Clients of a real server as hostile players use it (tests/test_web_attacks.py and
tests/test_web_crowded.py): a server in a subprocess, browsers that each come from a
loopback address of their own, and the WebSockets of their game pages.

Linux routes all of 127.0.0.0/8 to the loopback, so a client socket bound to
127.0.0.7 reaches the server from 127.0.0.7, and the server's per-address limits
count it apart. Each test process (one per parallel worker) hands out its own
addresses to its own servers.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import json
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from casino.web.limits import Limits
from tests.web_helpers import Served, db_url, real_server

#: The longest any single wait lasts: a safety net against a hang, never a measure.
SAFETY = 60.0


def _changed_limits(limits: Limits) -> dict[str, Any]:
    """The limits that differ from the defaults: all the server's command line carries."""
    return {f.name: getattr(limits, f.name) for f in dataclasses.fields(Limits)
            if getattr(limits, f.name) != f.default}


@contextmanager
def serve(folder: Path, limits: Limits) -> Iterator[Served]:
    """``create_app`` under uvicorn on 127.0.0.1, one thinking process, computers at once."""
    changed = json.dumps(_changed_limits(limits))
    setup = ("import json\nfrom casino.web.limits import Limits\n"
             f"limits = Limits(**json.loads({changed!r}))\n")
    app = f"create_app({db_url(folder)!r}, pool_workers=1, limits=limits, bot_pause=0)"
    with real_server(app, setup=setup, log=folder / "server.log") as served:
        yield served


_next_network = iter(range(1, 1 << 16))


def fresh_address() -> str:
    """A loopback address in a /24 no other test of this process has used (127.0.1.2,
    127.0.2.2, ...): the server counts rooms per network too, so attackers meant to be
    unrelated must not share one."""
    return str(ipaddress.IPv4Address("127.0.0.2") + 256 * next(_next_network))


def fresh_network(size: int) -> list[str]:
    """``size`` addresses of one fresh /24 (127.0.N.2, 127.0.N.3, ...)."""
    first = ipaddress.IPv4Address(fresh_address())
    return [str(first + k) for k in range(size)]


class Browser:
    """One person's (or attacker's) browser: its own source address and cookie jar."""

    def __init__(self, served: Served, address: str) -> None:
        self.served = served
        self.address = address
        self.http = httpx.Client(base_url=served.base, timeout=SAFETY,
                                 transport=httpx.HTTPTransport(local_address=address))

    def close(self) -> None:
        self.http.close()

    def post_game(self, **body: Any) -> httpx.Response:
        return self.http.post("/api/games", json=body)

    def new_game(self, **body: Any) -> str:
        """A game against a beginner computer (unless ``body`` says otherwise); its id."""
        r = self.post_game(**{"level": "beginner", **body})
        assert r.status_code == 201, r.text
        return str(r.json()["game"])

    def cookie_header(self) -> str:
        """Every cookie the server set in this browser, whatever their names."""
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    async def tab(self, game: str, *, pongs: bool = True) -> Tab:
        """A game page's WebSocket, from this browser's address with its cookies."""
        ws = await connect(self.served.ws_url(game), local_addr=(self.address, 0),
                           additional_headers={"Cookie": self.cookie_header()},
                           proxy=None, ping_interval=None, open_timeout=SAFETY,
                           max_queue=None)
        return Tab(ws, pongs=pongs)


@dataclass
class Tab:
    """One open game page. ``pongs``: answer the server's pings, as the page does.

    ``arrivals`` is shared by the tabs of a test when it wants the order in which
    messages reached the client across connections (one event loop reads them all).
    """

    ws: ClientConnection
    pongs: bool = True
    version: int = -1
    view: dict[str, Any] = field(default_factory=dict)
    pings: int = 0
    received: list[dict[str, Any]] = field(default_factory=list)
    #: Least seconds between two sends, for a test that plays as fast as the server
    #: answers but must stay under the per-connection message rate (0: no pacing).
    pace: float = 0.0
    sent_at: float = -1e9

    async def send(self, message: dict[str, Any]) -> None:
        if self.pace:
            loop = asyncio.get_running_loop()
            wait = self.sent_at + self.pace - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self.sent_at = loop.time()
        await self.ws.send(json.dumps(message))

    async def next(self) -> dict[str, Any]:
        """The next message, pings included (counted, and answered if ``pongs``)."""
        raw = await asyncio.wait_for(self.ws.recv(), SAFETY)
        m: dict[str, Any] = json.loads(raw)
        self.received.append(m)
        if m["type"] == "ping":
            self.pings += 1
            if self.pongs:
                await self.send({"type": "pong"})
        elif m["type"] == "state":
            assert m["version"] >= self.version, "versions never go back"
            self.version, self.view = m["version"], m["view"]
        return m

    async def recv(self) -> dict[str, Any]:
        """The next message that is not a ping."""
        while True:
            m = await self.next()
            if m["type"] != "ping":
                return m

    async def recv_type(self, kind: str) -> dict[str, Any]:
        for _ in range(10_000):
            m = await self.recv()
            if m["type"] == kind:
                return m
        raise AssertionError(f"no {kind} message came")

    async def answer(self) -> dict[str, Any]:
        """The next hint or error: the answer to a request (states pass by)."""
        for _ in range(10_000):
            m = await self.recv()
            if m["type"] in ("hint", "error"):
                return m
        raise AssertionError("no answer came")

    async def hello(self) -> dict[str, Any]:
        await self.send({"type": "hello", "since": 0})
        return await self.recv_type("state")

    async def my_turn(self) -> dict[str, Any]:
        """States until it is this seat's turn (the computer may move first)."""
        for _ in range(10_000):
            if self.view and self.view["your_turn"]:
                return self.view
            await self.recv()
        raise AssertionError("it never became this seat's turn")

    async def closed(self) -> int:
        """Read until the server closes the connection; its close code."""
        for _ in range(100_000):
            try:
                await self.next()
            except ConnectionClosed as e:
                assert e.rcvd is not None, "the server closed without a close frame"
                return e.rcvd.code
        raise AssertionError("the server never closed the connection")

    async def close(self) -> None:
        await self.ws.close()


def run(scenario: Callable[[AsyncExitStack], Any]) -> Any:
    """Run an async scenario; every tab it opens through the stack is closed at the end."""
    async def main() -> Any:
        async with AsyncExitStack() as stack:
            return await asyncio.wait_for(scenario(stack), 4 * SAFETY)

    return asyncio.run(main())


async def opened(stack: AsyncExitStack, browser: Browser, game: str, *,
                 pongs: bool = True) -> Tab:
    tab = await browser.tab(game, pongs=pongs)
    stack.push_async_callback(tab.close)
    return tab


@contextmanager
def browsers(served: Served, addresses: list[str]) -> Iterator[list[Browser]]:
    made = [Browser(served, a) for a in addresses]
    try:
        yield made
    finally:
        for b in made:
            b.close()
