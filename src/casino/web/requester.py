"""Who asks: the identity that the fair shares of the server's workers count (issue 46).

A signed-in player is their account, whatever address they come from (a phone that
moves between networks stays one player; an office's players each have their own
share). A guest is their network, an IPv4 /24 or an IPv6 /64, as the sign-in limits
count it (:func:`casino.web.accounts.service.signin_network`): one subscriber usually
holds a whole /64, and the audit's flood came from five addresses of one /24, so
counting single addresses would give each of them a share of its own.

Behind a trusted proxy the client's address is the one it forwarded (uvicorn's
``proxy_headers``, set by ``casino serve --proxies``), so the network is the player's,
not the proxy's.

The key is plain text (``account <id>``, ``network <net>``), so that the queues that
count it (:mod:`casino.web.fairqueue`) need nothing else; :func:`holder_words` says
in words whose share a refusal is about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

from casino.i18n import pgettext

if TYPE_CHECKING:
    from casino.web.accounts.service import Accounts

ACCOUNT, NETWORK = "account ", "network "


async def requester(connection: HTTPConnection) -> str:
    """The identity of whoever sent ``connection``: ``account <id>`` when its session
    cookie signs an account in, else ``network <its network>``."""
    # Imported here: the accounts import the game service, which imports the reviews,
    # which word their refusals with this module's holder_words.
    from casino.web.accounts.service import signin_network
    from casino.web.routes.accounts import SESSION_COOKIE

    token = connection.cookies.get(SESSION_COOKIE)
    accounts: Accounts | None = getattr(connection.app.state, "accounts", None)
    if token and accounts is not None:
        account = await accounts.who(token)
        if account is not None:
            return ACCOUNT + account.id
    host = connection.client.host if connection.client else ""
    return NETWORK + signin_network(host)


def holder_words(key: str) -> str:
    """Whose share the identity ``key`` is, as a refusal says it: "your account has",
    "your network has", or (an address, as older callers count) "you have"."""
    if key.startswith(ACCOUNT):
        return pgettext("holder", "your account has")
    if key.startswith(NETWORK):
        return pgettext("holder", "your network has")
    return pgettext("holder", "you have")


__all__ = ["holder_words", "requester"]
