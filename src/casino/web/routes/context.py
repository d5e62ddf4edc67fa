"""What the routes are given, and what they share: the app's parts, its pages, its words.

:func:`casino.web.app.create_app` makes one :class:`WebContext` per app and keeps it in
``app.state.web``; a route asks for it with a parameter annotated :data:`Web` (a FastAPI
dependency), so that routes reach the service and the pages of their own app, never a
global.

The page header shows who is signed in (their name, their account's page and a sign-out
button) or, to a guest, the links to sign in and up: the pages' routers depend on
:func:`signed_in`, which looks the session up once per request and leaves what the
header shows where :meth:`Pages.render` finds it, so that no route passes it.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import Depends
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import TemplateNotFound
from markupsafe import escape
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from casino.engine.presets import short_title
from casino.engine.rules import PRESET_NAMES, player_counts
from casino.i18n import _
from casino.web import seats
from casino.web.accounts.passwords import csrf_token
from casino.web.accounts.service import Accounts
from casino.web.accounts.store import Account
from casino.web.bodies import BodyError, read
from casino.web.body import Body
from casino.web.language import environment, page_language
from casino.web.limits import json_object
from casino.web.service import GameError, GameService, LiveGame
from casino.web.store import OVER, Store
from casino.web.tools import Helpers
from casino.web.who import account_of, session_token


@dataclass(frozen=True)
class Viewer:
    """Who the page header shows as signed in: the account's name, and the token of the
    header's sign-out form (:func:`~casino.web.accounts.passwords.csrf_token`)."""

    name: str
    csrf: str


#: What the header of the page being made shows: ``(viewer,)``, the viewer None for a
#: guest; None when nobody looked (a route outside the pages' routers), so that the
#: header then shows only a link to the account's page. Set by :func:`show_viewer`, in
#: the request's own context (each request runs in a task of its own).
_HEADER: ContextVar[tuple[Viewer | None] | None] = ContextVar("casino_header", default=None)


def show_viewer(account: Account | None, session: str | None) -> None:
    """Have the header of the pages this request makes show ``account``, signed in by
    the session token ``session`` (a guest for None): :func:`signed_in` does, and an
    account's page that signs in or out tells it anew."""
    shown = Viewer(account.name, csrf_token(session)) if account and session else None
    _HEADER.set((shown,))


def page_header() -> dict[str, Any]:
    """The base template's variables for the header: ``viewer`` (None for a guest) and
    ``viewer_known`` (False when nobody looked who is signed in)."""
    header = _HEADER.get()
    return {"viewer": header[0] if header else None, "viewer_known": header is not None}


async def signed_in(connection: HTTPConnection) -> Account | None:
    """The account signed in on the browser of ``connection`` (a request or a
    WebSocket): its session cookie's, while the session is neither revoked nor lapsed.
    Looked up once per request (:func:`casino.web.who.account_of`, which the language
    middleware may have asked first), and shown in the page header
    (:func:`show_viewer`) by the first call of the request."""
    account = await account_of(connection)
    if not getattr(connection.state, "casino_header_shown", False):
        connection.state.casino_header_shown = True
        show_viewer(account, session_token(connection))
    return account


#: The head of the plain page shown when the web client's templates are missing.
PLAIN_PAGE = "<!doctype html><meta charset=utf-8><title>Casino</title>"
#: A route's parameter annotated ``Player`` is given the account signed in, or None.
Player = Annotated[Account | None, Depends(signed_in)]


async def seat_held(connection: HTTPConnection, game: LiveGame) -> int | None:
    """The seat of ``game`` that the browser of ``connection`` holds: by its ``casino``
    token (or an old per-game cookie), else by the account signed in there (a seat it
    took signed in, or claimed), from any browser. None for no seat: a guest, a
    revoked session, another account's seat."""
    seat = game.seat_of_any(seats.seat_tokens(connection, game.id))
    if seat is not None:
        return seat
    account = await signed_in(connection)
    if account is None:
        return None
    accounts: Accounts = connection.app.state.accounts
    holders = await game.service.live.db(accounts.store.holders, game.id)
    return game.seat_of_account(account.id, holders)


class Pages:
    """Jinja2 templates from the client's folder; plain pages when one is missing."""

    def __init__(self, folder: Path) -> None:
        self.env = environment(folder)

    def render(self, template_name: str, /, **context: Any) -> HTMLResponse:
        """The page of ``template_name`` with ``context``; a plain page saying so when the
        web client's files are not installed, rather than a crash."""
        status = 200
        try:
            template = self.env.get_template(template_name)
        except TemplateNotFound:
            words = _("The page %(name)s of the web client is not installed.") % {
                "name": template_name}
            body = f"{PLAIN_PAGE}<p>{escape(words)}</p>"
            return HTMLResponse(body, status_code=status)
        page = template.render(**{**page_header(), **page_language(), **context})
        return HTMLResponse(page, status_code=status)

    def error(self, message: str, status: int, title: str | None = None) -> HTMLResponse:
        """The error page with ``message`` and ``status``; a plain one when the template is
        missing."""
        try:
            template = self.env.get_template("error.html")
        except TemplateNotFound:
            body = (f"{PLAIN_PAGE}<h1>{escape(title or _('Something went wrong'))}</h1>"
                    f"<p>{escape(message)}</p><p><a href=\"/\">{escape(_('Back to the lobby'))}"
                    f"</a></p>")
            return HTMLResponse(body, status_code=status)
        page = template.render(**page_header(), **page_language(), message=message,
                               status=status, title=title)
        return HTMLResponse(page, status_code=status)


@dataclass(frozen=True)
class WebContext:
    """One app's parts that its routes use: the games' service, the database, the move
    helper's workers and the page templates (made once by the app factory, so that two
    apps in one process, as the tests make, never share them)."""

    service: GameService
    store: Store
    helpers: Helpers
    pages: Pages


async def web_context(connection: HTTPConnection) -> WebContext:
    """The :class:`WebContext` of the app serving ``connection`` (a request or a
    WebSocket). Asynchronous, so that FastAPI calls it on the event loop, not in a
    thread."""
    context: WebContext = connection.app.state.web
    return context


#: A route's parameter annotated ``Web`` is given its app's :class:`WebContext`.
Web = Annotated[WebContext, Depends(web_context)]


def error_response(request: Request, pages: Pages, message: str, status: int) -> Response:
    """JSON ``{"error": words}`` for the API, an HTML page otherwise."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    return pages.error(message, status)


def preset_menu() -> list[tuple[str, str, list[int]]]:
    """Each preset's name, title and player counts, as the lobby's and the rules pages'
    menus offer them."""
    return [(name, short_title(name), list(player_counts(name))) for name in PRESET_NAMES]


async def finished(service: GameService, game_id: str) -> LiveGame:
    """The finished game ``game_id``, whose record may be published; GameError (404 for no
    such game, 403 for one still being played) otherwise."""
    game = await service.live.get(game_id)
    if game is None:
        raise GameError(_("there is no such game"), 404)
    if game.status != OVER:
        raise GameError(_("a game's record is published once the game is over"), 403)
    return game


B = TypeVar("B", bound=Body)


async def game_body(request: Request, web: WebContext, model: type[B]) -> B:
    """The JSON API's request body read once into ``model``, within the message size: a
    :class:`GameError` in words naming the field otherwise (the game API's refusal shape),
    and nothing read changes anything."""
    body = await json_object(request, web.service.limits.message_bytes, GameError)
    try:
        return read(model, body)
    except BodyError as e:
        raise GameError(e.message) from None
