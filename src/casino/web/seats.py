"""How a browser holds its seats: one secret cookie for all of them.

A browser gets one random token (``secrets.token_urlsafe(24)``, 192 bits) in
one ``HttpOnly`` cookie, ``casino``; every seat it takes stores only the
token's SHA-256 hash. So the cookies a browser sends stay the same size
however many games it plays. (The server once set a cookie per game,
``casino_<game id>``, for 60 days: after about 150 games their headers passed
8 KB and the WebSocket handshake stalled. Such old cookies are adopted: the
seats they hold move to the browser's token, and the old cookies are deleted.)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import Response

#: The browser's cookie, and how long it lasts (refreshed whenever it is set).
COOKIE = "casino"
COOKIE_AGE = 365 * 24 * 3600
#: The old per-game cookies, ``casino_<16 hex digits>``.
LEGACY_PREFIX = "casino_"
_LEGACY = re.compile(r"casino_([0-9a-f]{16})")
#: Old cookies adopted in one request at most (a browser has far fewer in practice).
LEGACY_AT_ONCE = 400


def new_token() -> str:
    """A new browser token: 24 random bytes, URL-safe, too many to guess."""
    return secrets.token_urlsafe(24)


def browser_token(conn: HTTPConnection) -> str | None:
    """The browser's token from its cookie, if it has a plausible one."""
    token = conn.cookies.get(COOKIE)
    return token if token and len(token) <= 200 else None


def seat_tokens(conn: HTTPConnection, game_id: str) -> list[str]:
    """The tokens that may hold a seat of ``game_id``: the browser's, then an old cookie's."""
    out = [t for t in (browser_token(conn), conn.cookies.get(LEGACY_PREFIX + game_id)) if t]
    return [t for t in out if len(t) <= 200]


def legacy_tokens(cookies: Mapping[str, str]) -> dict[str, str]:
    """The old per-game cookies: token by game id (at most :data:`LEGACY_AT_ONCE`)."""
    out: dict[str, str] = {}
    for key, value in cookies.items():
        m = _LEGACY.fullmatch(key)
        if m and value and len(value) <= 200:
            out[m.group(1)] = value
            if len(out) >= LEGACY_AT_ONCE:
                break
    return out


def add_request_cookie(scope: MutableMapping[str, Any], token: str) -> None:
    """Make a request carry the browser token ``token``, as if the browser had sent it."""
    headers = [(k, v) for k, v in scope["headers"] if k != b"cookie"]
    old = b"; ".join(v for k, v in scope["headers"] if k == b"cookie")
    cookie = f"{COOKIE}={token}".encode()
    headers.append((b"cookie", old + b"; " + cookie if old else cookie))
    scope["headers"] = headers


def set_token(response: Response, conn: HTTPConnection, token: str) -> None:
    """Give the browser its token (HttpOnly: no script can read it; Lax: no cross-site use)."""
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, path="/", httponly=True,
                        samesite="lax", secure=conn.url.scheme == "https")


def forget_legacy(response: Response, game_ids: list[str]) -> None:
    """Delete old per-game cookies from the browser."""
    for game_id in game_ids:
        response.delete_cookie(LEGACY_PREFIX + game_id, path="/")
