"""Input limits: what one client may ask of the server, so that nobody can stall it.

Over any limit the client gets an error in words and nothing changes; the
server keeps running for everybody else. The figures live in one
:class:`Limits` value that :func:`casino.web.app.create_app` takes, so tests
can make them small; :mod:`casino.web.settings` groups them by what they guard and
checks the operators' settings of them (``casino serve --limit``).
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import ClientDisconnect, Request

from casino.i18n import _, format_number, ngettext


@dataclass(frozen=True)
class Limits:
    """Every bound the server enforces (docs/server.md explains each)."""

    #: Largest WebSocket message a client may send, in bytes (UTF-8).
    message_bytes: int = 4096
    #: Messages per second per connection, and the burst allowed above that rate.
    messages_per_second: float = 20.0
    message_burst: int = 20
    #: A connection that goes on sending after this many refused messages in a row is closed.
    refused_before_close: int = 100
    #: Rooms waiting for friends at once, across the server and from one address.
    waiting_rooms: int = 1000
    rooms_per_address: int = 3
    #: ... and from one network (an IPv4 /24, an IPv6 /48: see :func:`network_key`).
    rooms_per_network: int = 30
    #: A room whose seats are not all taken lapses after this many seconds.
    room_lifetime: float = 20 * 60.0
    #: Seconds between the server's ``ping`` messages on a game connection; a connection
    #: that sends nothing (not even ``pong``) for ``heartbeat_timeout`` seconds is closed.
    heartbeat_seconds: float = 10.0
    heartbeat_timeout: float = 25.0
    #: Games held in memory at once; idle ones beyond this are evicted (they reload).
    live_games: int = 500
    #: Open connections to one game (tabs of the same seat included), shared out among its
    #: seats: each seat may hold ``connections_per_game // seats`` of them (at least 2), so
    #: that no seat's tabs can fill another seat's share (:func:`seat_share`).
    connections_per_game: int = 16
    #: Open connections to one game from one address, and to all the games of this process
    #: from one address: a few browsers cannot hold a game's every share, nor one address
    #: the server's connections.
    game_connections_per_address: int = 8
    connections_per_address: int = 100
    #: Spectators watching one game at once (docs/server.md, "Spectators"), each also
    #: counted by its address above: a crowd cannot hold every connection of a process.
    spectators_per_game: int = 64
    #: New games one address may start per minute, and the burst above that rate.
    games_per_minute: float = 30.0
    games_burst: int = 30
    #: Longest player name, in characters.
    name_length: int = 24
    #: Hints one address may ask for a minute, and the burst above that rate.
    hints_per_minute: float = 20.0
    hint_burst: int = 5
    #: Hints waiting for a worker across the server (beyond: "busy, ask again"), and
    #: the longest one waits (seconds) before its asker is told the same.
    hint_queue: int = 32
    hint_wait: float = 15.0
    #: Seconds a person may be away on their turn (no page of theirs open) before the
    #: others may let a computer play their seat (``claim``); until then the game waits.
    abandon_after: float = 180.0
    #: The longest a computer's move or a hint may think (seconds): then its worker process
    #: is stopped (killed and replaced); a computer then plays a quick beginner move, a
    #: hint says there is none. Each thinking process is capped at ``think_memory_mb`` of
    #: address space.
    think_seconds: float = 30.0
    think_memory_mb: int = 1024
    #: Several processes may serve one game (PostgreSQL): the one thinking for its
    #: computer (or of its hint) holds a lease in the database for this many seconds,
    #: pushed forward while it thinks. A process that dies mid-think costs its game at
    #: most this long before another process takes over.
    lease_seconds: float = 10.0
    #: Threads that do the server's database work (commits, loads, lists), so that no
    #: query ever holds up the event loop.
    db_threads: int = 4
    #: The move helper (``POST /api/helper``) thinks in worker processes of its own
    #: (:mod:`casino.web.workers`): this many, each job stopped (its worker killed) after
    #: ``helper_seconds`` and each worker capped at ``helper_memory_mb`` of address space;
    #: ``helper_waiting`` more requests may wait for a worker across the server, and one
    #: player (an account, or a guest's network: :mod:`casino.web.requester`) may have
    #: ``helper_per_player`` running or waiting; they are answered by player in turn
    #: (:mod:`casino.web.fairqueue`), and beyond these bounds refused at once ("busy, try
    #: again"), unless a player holding more places gives up their newest.
    helper_workers: int = 1
    helper_seconds: float = 5.0
    helper_memory_mb: int = 512
    helper_waiting: int = 4
    helper_per_player: int = 2
    #: A player's choices on a crowded table (each card's moves in the view, the answer to
    #: an ``options`` message) are worked out in worker processes of their own: this many,
    #: each job stopped (its worker killed) after ``select_seconds``, each worker capped at
    #: ``select_memory_mb`` (a small table's are worked out at once, without a worker:
    #: :data:`casino.web.turns.INLINE_STEPS`). The jobs wait in a line served by seat of
    #: a game in turn, the turn's choices of a seat to move before any ``options`` answer
    #: (:class:`~casino.web.fairqueue.RankedLine`): ``select_waiting`` of each kind may
    #: wait, and one seat may have ``select_per_seat`` of each kind worked out or waiting;
    #: beyond these the asker is told the server is busy (an ``options`` answer: that
    #: their seat has asked enough), unless a seat holding more places gives up its newest.
    select_workers: int = 1
    select_seconds: float = 5.0
    select_memory_mb: int = 512
    select_waiting: int = 16
    select_per_seat: int = 2
    #: Post-game reviews (``/api/games/<id>/review``) are computed in worker processes of
    #: their own, never the thinking pool's, so a review (minutes for a long game) never
    #: holds a computer's move: ``review_workers`` processes, each review stopped (its
    #: worker killed) after ``review_seconds`` (sized for a whole game at the default
    #: setting: docs/review.md has a round's time per preset), each worker capped at
    #: ``review_memory_mb``. ``review_waiting`` more reviews may wait for a worker across
    #: the server and one player (an account, or a guest's network) may have
    #: ``reviews_per_player`` computing or waiting; they are computed by player in turn,
    #: and beyond these bounds the asker is told the server is busy, unless a player
    #: holding more places gives up their newest (a review already kept is always
    #: answered at once).
    review_workers: int = 1
    review_seconds: float = 900.0
    review_memory_mb: int = 1024
    review_waiting: int = 4
    reviews_per_player: int = 1
    #: Failed sign-ins counted against one account, and against one network (an IPv4
    #: /24, an IPv6 /64), within ``signin_window`` seconds; past either, sign-ins to that
    #: account, or from that network, are refused until the window passes. The counts are
    #: kept in the database, so they hold across the server's processes.
    signin_failures_per_account: int = 5
    signin_failures_per_network: int = 30
    signin_window: float = 15 * 60.0
    #: Accounts signed up from one network (as above) within ``signin_window``: each
    #: costs a password hashing and a row, so a flood of sign-ups is bounded too.
    signups_per_network: int = 10
    #: Passwords hashed at once (each in a thread of its own, off the event loop), and
    #: Argon2id's cost: passes, memory (KiB) and lanes (argon2-cffi's defaults, RFC 9106's
    #: low-memory profile; tests make them small).
    password_hashes_at_once: int = 2
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_lanes: int = 4
    #: A signed-in session nobody has used for this many days lapses.
    session_days: float = 30.0
    #: Largest request body the server reads for any route, in bytes: the largest a route
    #: takes (the score pad's calculator, ``casino.web.tools.MAX_APPLY``, reads pads with
    #: their undo history). Each route's own smaller limit still applies within it.
    body_bytes: int = 2_000_000
    #: A slow client holds a connection (a file descriptor) for as long as it is let:
    #: a request's headers must all arrive within ``header_seconds`` of the connection's
    #: opening (or of the next request's first byte), and its body within
    #: ``body_seconds`` of the headers, or the connection is closed (``408`` when part of
    #: a request came); one address may hold ``sockets_per_address`` connections
    #: open at once, WebSockets included (more are closed as they open), so that no
    #: address takes every descriptor (:mod:`casino.web.slow`).
    header_seconds: float = 5.0
    body_seconds: float = 30.0
    sockets_per_address: int = 128
    #: The chat (docs/server.md, "Chat"): the longest message, in characters; the
    #: messages one player (an account, else a guest's network) may send a minute across
    #: every game and process, and the burst above that rate; the recent messages a page
    #: is sent when it connects, and the messages before a reported one kept with the
    #: report; the reports one player may make a minute, and their burst.
    chat_length: int = 300
    chat_per_minute: float = 12.0
    chat_burst: int = 6
    chat_history: int = 50
    chat_report_context: int = 20
    chat_reports_per_minute: float = 1.0
    chat_report_burst: int = 3


def seat_share(limits: Limits, seats: int) -> int:
    """The connections one seat of a game of ``seats`` may hold: its even share of
    ``connections_per_game``, at least 2 (a page and the one reloading it), so that
    the tabs of one seat can never shut another seat's owner out of the game."""
    return max(2, limits.connections_per_game // max(1, seats))


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The client's address (an IPv4 address sent as IPv6 is the IPv4 one), or None."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(host: str) -> str:
    """The key of a client's limits: its IPv4 address, or its IPv6 /64 network.

    One IPv6 subscriber is usually given a whole /64, so counting single
    addresses there would give an attacker billions of fresh limits.
    """
    ip = _ip(host)
    if ip is None:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def network_key(host: str) -> str:
    """The network a client's address belongs to: an IPv4 /24, or an IPv6 /48.

    Counting rooms per address alone lets one subscriber with many addresses
    (an IPv6 /48 holds 65,536 /64s) fill the server's rooms; a network's count,
    larger than an address's, bounds them without shutting out a shared office.
    """
    ip = _ip(host)
    if ip is None:
        return f"network of {host}"  # not an address (a test client): a network of its own
    prefix = 24 if isinstance(ip, ipaddress.IPv4Address) else 48
    return str(ipaddress.ip_network((ip, prefix), strict=False))


class TokenBucket:
    """``rate`` tokens a second up to ``burst``: a steady flow passes, a flood does not."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        """Spend a token if there is one; False means "over the limit, refuse"."""
        t = self.clock()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def size_words(limit: int) -> str:
    """A byte limit as people read it: "4 KiB" when it is whole KiB, else "2,000,000 bytes"."""
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return ngettext("%(n)s byte", "%(n)s bytes", limit) % {"n": format_number(limit)}


def declared_length(request_headers: Mapping[str, str]) -> int | None:
    """The body size the ``Content-Length`` header announces (None: absent or unreadable).

    An unreadable one is left to the HTTP server, which refuses it before any app runs.
    """
    value = (request_headers.get("content-length") or "").strip()
    if not (value.isascii() and value.isdigit()):
        return None
    return int(value)


async def json_object(request: Request, limit: int,
                      refuse: Callable[[str, int], Exception]) -> dict[str, Any]:
    """The JSON object of a request body of at most ``limit`` bytes.

    The limit holds while the body arrives: a ``Content-Length`` over it is refused
    before a byte is read, and a body without one (chunked) is read no further than
    one chunk past it, so no client can make the server hold more than that.
    Anything else raises ``refuse(words, HTTP status)``, the caller's own error,
    so each part of the server answers in its usual form.
    """
    too_big = _("the request is too big (at most %(size)s)") % {"size": size_words(limit)}
    declared = declared_length(request.headers)
    if declared is not None and declared > limit:
        raise refuse(too_big, 413)
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise refuse(too_big, 413)
    except ClientDisconnect:  # nobody is left to read the answer; nothing to log either
        raise refuse(_("the request was cut off before its end"), 400) from None
    try:
        body = json.loads(bytes(raw) or b"{}")
    except (ValueError, RecursionError):
        raise refuse(_("the request is not valid JSON"), 400) from None
    if not isinstance(body, dict):
        raise refuse(_("the request must be a JSON object, as %(example)s")
                     % {"example": '{"rules": "casino"}'}, 400)
    return body
