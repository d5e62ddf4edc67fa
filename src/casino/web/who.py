"""The account signed in on a browser, looked up once per request or WebSocket.

The language middleware (:mod:`casino.web.language`) asks before any route does, for
the account's language, and the pages' routers ask for the header
(:func:`casino.web.routes.context.signed_in`): the answer is kept in the connection's
state (``casino_account``, shared by the middleware and the route, which see one ASGI
scope) so that the session is looked up at most once.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from casino.web.accounts.passwords import SESSION_COOKIE
from casino.web.accounts.service import Accounts
from casino.web.accounts.store import Account


def session_token(connection: HTTPConnection) -> str | None:
    """The browser's session token from its cookie, if it has a plausible one."""
    token = connection.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 200 else None


def looked_up(connection: HTTPConnection) -> tuple[Account | None] | None:
    """``(account,)`` when this connection's account was looked up already (the account
    None for a guest); None when nobody looked yet."""
    known: tuple[Account | None] | None = getattr(connection.state, "casino_account", None)
    return known


async def account_of(connection: HTTPConnection) -> Account | None:
    """The account signed in on the browser of ``connection`` (a request or a
    WebSocket): its session cookie's, while the session is neither revoked nor lapsed.
    Looked up once (none for a browser without the cookie: a guest costs nothing)."""
    known = looked_up(connection)
    if known is not None:
        return known[0]
    token = session_token(connection)
    accounts: Accounts = connection.app.state.accounts
    account = await accounts.who(token) if token else None
    connection.state.casino_account = (account,)
    return account
