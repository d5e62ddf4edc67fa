"""Slow clients: deadlines for a request's headers and body, and a cap on the connections
one address holds open, in the HTTP protocol that ``casino serve`` gives uvicorn.

uvicorn (h11) never times a request out while it arrives: a client that sends its
headers a byte at a time, or announces a body and never sends it, keeps its connection,
and a file descriptor of the server, for as long as it likes. Enough of them (twenty
thousand, from two small processes) use up the server's file descriptors, and then
nobody's request is accepted. So :class:`GuardedH11Protocol`, uvicorn's own protocol
with three checks added, closes

* a connection whose request headers are not all in within ``header_seconds`` of its
  opening (or, on a kept-alive connection, of the next request's first byte): with
  ``408 Request Timeout`` when part of a request came, silently when nothing did;
* a request whose whole body is not in within ``body_seconds`` of its headers (``408``
  unless the app has started its answer);
* a connection from an address that already holds ``sockets_per_address`` open
  ones (WebSockets included: :class:`GuardedWebSocketProtocol` gives the place back
  when it closes), at once, so that one address cannot take every descriptor. A
  reverse proxy that ``--forwarded-allow-ips`` names is not capped (its clients are
  many); it is expected to guard against slow clients itself;
* a WebSocket handshake that the WebSocket library cannot read (a header line over
  8 KiB): uvicorn left it open, unanswered, for ever; it is answered (``431``) and
  closed by :class:`GuardedWebSocketProtocol`.

The limits are fields of :class:`~casino.web.limits.Limits`; uvicorn makes a protocol
per connection from its class alone, so each serving process is told them once, by
:func:`guarded_protocols` (``casino serve``, one process) or :func:`configure` (each
worker of ``--workers N``, from the settings it is handed). The counts per address are
kept in each process's memory. A request that is answered keeps uvicorn's keep-alive
timeout, and a WebSocket, once upgraded, its own heartbeat.
"""

from __future__ import annotations

import asyncio
import importlib.util
import ipaddress
import logging
import time
from collections import Counter
from functools import lru_cache
from typing import Any, Literal

import h11
from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from casino.web.limits import Limits, address_key

log = logging.getLogger("casino.web.slow")

#: What a request too slow to arrive is answered before its connection is closed.
TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8"
                  b"\r\nconnection: close\r\ncontent-length: 36\r\n\r\n"
                  b"the request took too long to arrive\r\n")
#: The least time between two log lines about closed connections: an attack of
#: thousands is told as counts, not a line for each.
LOG_EVERY = 60.0

Deadline = Literal["headers", "body"]


def event_loop() -> Literal["uvloop", "asyncio"]:
    """The event loop ``casino serve`` runs uvicorn on: uvloop where it is installed (the
    web extra brings it where it has wheels), else asyncio's own.

    A flood of connections is accepted, checked and closed by the loop one at a time,
    and a fresh request waits behind the flood in the listening socket's queue: under
    the audit's 20,000 slow connections the slowest of 180 fresh pages took 1.6-2.4 s
    on asyncio's loop and 0.14-0.21 s on uvloop's (docs/server.md, "Slow clients")."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


class AddressSlots:
    """The open connections of each address (:func:`~casino.web.limits.address_key`)
    in this process, so that one address can be refused more than its share."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()

    def take(self, key: str, cap: int) -> bool:
        """Count one more connection of ``key``, unless it holds ``cap`` already (False:
        refuse it)."""
        if self._open[key] >= cap:
            return False
        self._open[key] += 1
        return True

    def give_back(self, key: str) -> None:
        """A connection of ``key`` has closed; an address with none left is forgotten."""
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]

    def held(self, key: str) -> int:
        """How many connections ``key`` holds open now."""
        return self._open[key]


class _Tally:
    """The connections closed for being slow or over the cap, logged as counts at most
    every :data:`LOG_EVERY` seconds (the first at once)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.last = float("-inf")

    def note(self, what: str) -> None:
        self.counts[what] += 1
        now = time.monotonic()
        if now - self.last >= LOG_EVERY:
            self.last = now
            log.warning("closed slow or excess connections: %s",
                        ", ".join(f"{n} {why}" for why, n in sorted(self.counts.items())))
            self.counts.clear()


class _Process:
    """This process's limits (set by :func:`configure`), its counts per address and its
    tally of closings."""

    def __init__(self) -> None:
        self.limits = Limits()
        self.slots = AddressSlots()
        self.tally = _Tally()


_PROCESS = _Process()

#: The key of a peer's address, remembered for the addresses seen last: a flood comes
#: from few addresses, and reading one anew costs more than the rest of refusing it.
_address_key = lru_cache(maxsize=4096)(address_key)


def configure(limits: Limits) -> None:
    """Have this process's connections kept to ``limits``' ``header_seconds``,
    ``body_seconds`` and ``sockets_per_address`` (uvicorn makes the protocols from
    their class alone, so they read them here)."""
    _PROCESS.limits = limits


def current_limits() -> Limits:
    """The limits this process's connections are kept to (:func:`configure`)."""
    return _PROCESS.limits


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit (the processes it
    starts inherit it), so that the per-address cap, not a low default, decides who is
    refused: the (soft, hard) limits afterwards; (-1, -1) where there are none."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1, -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # some systems cap it lower than they say
            pass
    return soft, hard


def guarded_protocols(limits: Limits) -> dict[str, Any]:
    """uvicorn's ``http`` and ``ws`` options for ``casino serve``: the guarded protocols,
    kept to ``limits`` in this process (and in the workers, which :func:`configure`
    themselves), with the limit of open files raised first."""
    configure(limits)
    raise_open_files()
    return {"http": GuardedH11Protocol, "ws": GuardedWebSocketProtocol}


@lru_cache(maxsize=16)
def _proxies(names: tuple[str, ...]) -> tuple[bool, tuple[ipaddress.IPv4Network
                                                          | ipaddress.IPv6Network, ...]]:
    """uvicorn's trusted proxies (``forwarded_allow_ips``) read once: anyone, and the
    networks (an unreadable name, which serve() refuses anyway, trusts nothing)."""
    networks = []
    for name in names:
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            continue
    return "*" in names, tuple(networks)


def trusted_proxy(config: Config, host: str) -> bool:
    """Whether ``host`` is a reverse proxy whose forwarded addresses uvicorn believes
    (``--forwarded-allow-ips``): its connections carry many clients', so it is not capped."""
    if not config.proxy_headers:
        return False
    allowed = config.forwarded_allow_ips
    names = allowed.split(",") if isinstance(allowed, str) else allowed
    anyone, networks = _proxies(tuple(name.strip() for name in names if name.strip()))
    if anyone:
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline on a request's headers and on its
    body, and a cap on the connections one address holds open (the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._limits = _PROCESS.limits
        self._slot: str | None = None  # the address counted for this connection
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: Deadline | None = None
        self._requested = False  # a request's headers have come on this connection
        self._upgraded = False
        self._app = self.app  # uvicorn runs _app_after_body, which runs the app
        self.app = self._app_after_body
        self._body_in: asyncio.Event | None = None  # set when the app may start

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the connection against its address (closing it at once over the cap),
        and start the deadline for its first request's headers."""
        super().connection_made(transport)  # type: ignore[arg-type]
        if self.client is not None and not trusted_proxy(self.config, self.client[0]):
            key = _address_key(self.client[0])
            if not _PROCESS.slots.take(key, self._limits.sockets_per_address):
                _PROCESS.tally.note("over sockets_per_address")
                self.transport.abort()
                return
            self._slot = key
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the deadline and give the address its place back."""
        self._disarm()
        self._give_back()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """uvicorn's reading of what arrived, then the deadline that applies now."""
        super().handle_events()
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Hand the connection to the WebSocket protocol: no deadline (the WebSocket
        has its heartbeat), and the address's place goes with it."""
        self._disarm()
        self._upgraded = True
        slot, self._slot = self._slot, None
        super().handle_websocket_upgrade(event)
        protocol = self.transport.get_protocol()
        if isinstance(protocol, GuardedWebSocketProtocol):
            protocol.hold_slot(slot)
        elif slot is not None:
            _PROCESS.slots.give_back(slot)

    # ------------------------------------------------------------------

    def _watch(self) -> None:
        """The deadline the connection's state calls for: the body's while a request's
        body arrives; the headers' while a request's headers are incomplete (or nothing
        came yet on a new connection); none while the app answers or the connection
        idles between requests (uvicorn's keep-alive timeout closes it)."""
        if self._upgraded or self.transport.is_closing():
            self._disarm()
            return
        theirs = self.conn.their_state
        if theirs is not h11.IDLE:
            self._requested = True
        if theirs is h11.SEND_BODY:
            self._arm("body")
            if self.flow.read_paused:  # as much as uvicorn holds: the app must read on
                self._let_app_start()
        elif theirs is h11.IDLE and (not self._requested or self.conn.trailing_data[0]):
            self._arm("headers")
        else:
            self._disarm()

    def _arm(self, what: Deadline) -> None:
        """Start the deadline for ``what``, unless it runs already."""
        if self._waiting_for == what:
            return
        self._disarm()
        seconds = (self._limits.header_seconds if what == "headers"
                   else self._limits.body_seconds)
        self._waiting_for = what
        self._deadline = self.loop.call_later(seconds, self._expire, what)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._waiting_for = None
        self._let_app_start()

    def _let_app_start(self) -> None:
        if self._body_in is not None:
            self._body_in.set()
            self._body_in = None

    async def _app_after_body(self, scope: Scope, receive: ASGIReceiveCallable,
                              send: ASGISendCallable) -> None:
        """The app, once the request's body is in (or cut off: then not at all).

        uvicorn starts the app as soon as the headers are in, and a request whose body
        never comes would hold the app's work (its middleware, its route, their memory)
        for the whole ``body_seconds``: thousands of them stalled the server. A body
        announced at up to 64 KiB (what uvicorn holds before the app reads) is waited
        for here instead, in a small task; a larger or chunked one, or a client that
        waits for ``100 Continue``, starts the app at once, as uvicorn does."""
        cycle = self.cycle
        if (self._waiting_for == "body" and not self.conn.they_are_waiting_for_100_continue
                and 0 <= _declared_length(self.headers) <= HIGH_WATER_LIMIT):
            self._body_in = asyncio.Event()
            await self._body_in.wait()
            if cycle.disconnected:  # timed out, or the client left: nobody to answer
                return
        await self._app(scope, receive, send)

    def _expire(self, what: Deadline) -> None:
        """The request's headers or body did not arrive in time: close the connection,
        with a 408 when part of a request came and nothing was answered yet."""
        self._deadline = None
        self._waiting_for = None
        if self.transport.is_closing():
            self._let_app_start()
            return
        if what == "body":
            cycle = self.cycle
            answer = cycle is not None and not cycle.response_started
            if cycle is not None:  # the app reading the body hears that it was cut off
                cycle.disconnected = True
                cycle.message_event.set()
            self._let_app_start()  # which, not started, is not started at all
        else:
            answer = bool(self.conn.trailing_data[0])
        if answer:
            self.transport.write(TIMEOUT_ANSWER)
        self.transport.close()
        _PROCESS.tally.note("over header_seconds" if what == "headers" else "over body_seconds")

    def _give_back(self) -> None:
        if self._slot is not None:
            _PROCESS.slots.give_back(self._slot)
            self._slot = None


def _declared_length(headers: list[tuple[bytes, bytes]]) -> int:
    """The body's ``Content-Length`` (lower-case header names, as uvicorn keeps them);
    -1 when there is none, or it is unreadable (h11 refuses those before this)."""
    for name, value in headers:
        if name == b"content-length":
            return int(value) if value.strip().isdigit() else -1
    return -1


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, holding the place of its address that the HTTP
    connection it was upgraded from took, until it closes; and answering a handshake
    the WebSocket library refused rather than leaving it open."""

    _slot: str | None = None

    def hold_slot(self, key: str | None) -> None:
        """Hold the address's place (``key``; None: not counted) until the socket closes."""
        self._slot = key

    def data_received(self, data: bytes) -> None:
        """uvicorn's reading, and an answer to a handshake the WebSocket library refused.

        The library refuses a handshake it cannot read (a header line over 8 KiB, more
        than 128 headers) by preparing an answer (``431``, ``414``, ``400``), which
        uvicorn never sends: the connection would stay open, answered by nobody and
        under no deadline. It is sent here, and the connection closed."""
        super().data_received(data)
        if (self.conn.handshake_exc is not None and not self.handshake_initiated
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()
            _PROCESS.tally.note("WebSocket handshakes refused")

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's closing, then the address's place given back."""
        try:
            super().connection_lost(exc)
        finally:
            if self._slot is not None:
                _PROCESS.slots.give_back(self._slot)
                self._slot = None


__all__ = ["LOG_EVERY", "TIMEOUT_ANSWER", "AddressSlots", "GuardedH11Protocol",
           "GuardedWebSocketProtocol", "configure", "current_limits", "guarded_protocols",
           "raise_open_files", "trusted_proxy"]
