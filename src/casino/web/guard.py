"""The HTTP guard: the layer every request and response passes, whatever the route.

It wraps the whole app (even the page shown for a crash), so no route can forget
it, and a route added later is covered the day it is written. For each request:

- **Changes from another site are refused.** A POST, PUT, PATCH or DELETE whose
  ``Origin`` is not this site (the ``Host`` it was sent to), or that the browser
  marks ``Sec-Fetch-Site: cross-site``, gets 403 before any route runs. Browsers
  attach a visitor's cookies to such requests, so without this another site's page
  could start games in the visitor's name. A request with neither header (curl, a
  script) passes: it is not a browser page and carries no visitor's cookies.
- **The body is bounded while it arrives** (:attr:`~casino.web.limits.Limits.body_bytes`):
  a ``Content-Length`` over the limit is refused before a byte is read, and a body
  without one (chunked) stops being read once it passes it. A response sent before
  the body was read to its end closes the connection, so the server never goes on
  reading, or holding, what nobody wants.
- **HEAD is answered as GET without the body**, for every page and file.
- **Security headers go on every response** (:func:`security_headers`).

Refusals are words in the app's usual form: the app passes its ``refusal``, which
answers JSON ``{"error": words}`` under ``/api/`` and a page elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from casino import i18n
from casino.i18n import _, pgettext, pN_
from casino.web.language import request_language
from casino.web.limits import declared_length, size_words

#: The methods that change something; GET and HEAD must not (the two GET links that do,
#: joining and following a rematch, are meant to be followed from anywhere: see
#: docs/server.md).
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: A Host fit to be written into the Content-Security-Policy: a name or an IP address
#: and a port, nothing that could end the directive or add another.
_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")

#: How a refusal is answered: the request, the words and the HTTP status.
Refusal = Callable[[Request, str, int], Response]

CROSS_SITE = pN_("guard", "changes are taken only from this site's own pages: this request "
                          "came from another site, and nothing was changed")


def same_origin(headers: Mapping[str, str]) -> bool:
    """Whether a browser page's ``Origin`` is this site (the ``Host`` it was sent to).

    No other site may act with a visitor's cookies. Without an Origin it is no
    browser page (a script or a test), which holds its own tokens: it passes.
    ``Origin: null`` is this site only when the browser says so by ``Sec-Fetch-Site:
    same-origin`` (no page can set that header): Chromium sends ``null`` for a form
    posted from a page whose ``Referrer-Policy`` is ``no-referrer``, as every page
    here is, while a sandboxed frame of another site sends ``null`` as ``cross-site``.
    """
    origin = headers.get("origin")
    if not origin:
        return True
    if origin == "null":
        return headers.get("sec-fetch-site", "").lower() == "same-origin"
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # "http://[::1" and the like: no site at all
        return False
    return netloc.lower() == headers.get("host", "").lower()


def cross_site(headers: Mapping[str, str]) -> bool:
    """Whether a request comes from another site's page, by its Origin or the browser's word."""
    return headers.get("sec-fetch-site", "").lower() == "cross-site" or not same_origin(headers)


def content_security_policy(host: str | None) -> str:
    """The pages' policy: everything from this site only, nothing inline, no framing.

    The client is plain files under /static (no inline script, style or handler),
    cards are /svg images, and the game speaks over a WebSocket to this same host
    (listed as ws:/wss: for browsers whose ``'self'`` does not cover WebSockets).
    """
    connect = "'self'"
    if host and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join([
        "default-src 'self'", "script-src 'self'", "style-src 'self'",
        "img-src 'self' data:", f"connect-src {connect}", "font-src 'self'",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'",
    ])


def security_headers(host: str | None) -> dict[str, str]:
    """The headers every response carries.

    ``Referrer-Policy: no-referrer`` matters most: an invite link's code is a room's
    key, and a page opened from the invite page would otherwise receive it in Referer.
    """
    return {
        "content-security-policy": content_security_policy(host),
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
    }


class BodyTooBig(HTTPException):
    """A request body that went past the server's ceiling while it was being read.

    An HTTPException, so the app's own handler answers it in the app's usual form.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_big(limit))


def too_big(limit: int) -> str:
    """The words refusing a request body over ``limit`` bytes, in the language in force."""
    return _("the request is too big (at most %(size)s)") % {"size": size_words(limit)}


def _json_refusal(_request: Request, words: str, status: int) -> Response:
    return JSONResponse({"error": words}, status_code=status)


class Guard:
    """ASGI middleware around an app: see the module's description for what it does."""

    def __init__(self, app: ASGIApp, *, body_bytes: int, refusal: Refusal | None = None
                 ) -> None:
        if body_bytes < 0:
            raise ValueError("body_bytes is a number of bytes: 0 or more")
        self.app = app
        self.body_bytes = body_bytes
        self.refusal = refusal or _json_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        passage = _Passage(scope, receive, send, self.body_bytes)
        if scope["method"] in UNSAFE_METHODS and cross_site(passage.headers):
            await passage.refuse(self.refusal, lambda: pgettext("guard", CROSS_SITE), 403)
            return
        if passage.declared is not None and passage.declared > self.body_bytes:
            await passage.refuse(self.refusal, lambda: too_big(self.body_bytes), 413)
            return
        try:
            await self.app(passage.scope, passage.receive, passage.send)
        except BodyTooBig as exc:  # an app without Starlette's handlers let it through
            if passage.started:
                raise
            detail = str(exc.detail)
            await passage.refuse(self.refusal, lambda: detail, 413)


class _Passage:
    """One request on its way through the guard: what it announced, read and was sent."""

    def __init__(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        self.headers = Headers(scope=scope)
        self.head = scope["method"] == "HEAD"
        # A copy: the server keeps its own scope, and must still know it answers a HEAD.
        self.scope: Scope = {**scope, "method": "GET"} if self.head else scope
        self.limit = limit
        self.declared = declared_length(self.headers)
        #: Whether some of the body may still be unread (then the answer closes the line).
        self.pending = (self.declared or 0) > 0 or "transfer-encoding" in self.headers
        self.read = 0
        self.started = False
        self.extra = security_headers(self.headers.get("host"))
        self._receive = receive
        self._send = send

    async def receive(self) -> Message:
        if self.read > self.limit:  # already past the limit: never read further
            raise BodyTooBig(self.limit)
        message = await self._receive()
        if message["type"] == "http.request":
            self.read += len(message.get("body", b""))
            if not message.get("more_body", False):
                self.pending = False
            if self.read > self.limit:
                raise BodyTooBig(self.limit)
        elif message["type"] == "http.disconnect":
            self.pending = False
        return message

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            self.started = True
            headers = MutableHeaders(raw=list(message.get("headers", [])))
            for name, value in self.extra.items():
                headers.setdefault(name, value)
            if self.pending:
                headers["connection"] = "close"
            message = {**message, "headers": headers.raw}
        elif self.head and kind == "http.response.body":
            message = {**message, "body": b""}
        elif self.head and kind == "http.response.pathsend":
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await self._send(message)

    async def refuse(self, refusal: Refusal, words: Callable[[], str], status: int) -> None:
        """Answer with ``refusal``, in the request's language (the guard runs before the
        app's middleware chooses it: its cookie, else its Accept-Language)."""
        request = Request(self.scope)
        with i18n.using(request_language(request)):
            response = refusal(request, words(), status)
        await response(self.scope, self.receive, self.send)


class GuardedFastAPI(FastAPI):
    """A FastAPI app whose outermost layer is a :class:`Guard`.

    ``add_middleware`` would put the guard inside Starlette's server-error layer,
    and the page of a crash would then leave without the security headers.
    """

    def __init__(self, *, body_bytes: int, refusal: Refusal | None = None,
                 **options: Any) -> None:
        self.guard_body_bytes = body_bytes
        self.guard_refusal = refusal
        super().__init__(**options)

    def build_middleware_stack(self) -> ASGIApp:
        """Starlette's stack with the guard outside it, so that even the crash page carries
        the headers and the size limit holds for every route."""
        return Guard(super().build_middleware_stack(), body_bytes=self.guard_body_bytes,
                     refusal=self.guard_refusal)
