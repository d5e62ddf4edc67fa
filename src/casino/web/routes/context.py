"""What the routes are given, and what they share: the app's parts, its pages, its words.

:func:`casino.web.app.create_app` makes one :class:`WebContext` per app and keeps it in
``app.state.web``; a route asks for it with a parameter annotated :data:`Web` (a FastAPI
dependency), so that routes reach the service and the pages of their own app, never a
global.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from markupsafe import escape
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from casino.engine.rules import PRESET_NAMES, player_counts
from casino.web.service import GameError, GameService, LiveGame
from casino.web.store import OVER, Store
from casino.web.tools import Helpers
from casino.web.views import title


class Pages:
    """Jinja2 templates from the client's folder; plain pages when one is missing."""

    def __init__(self, folder: Path) -> None:
        self.env = Environment(loader=FileSystemLoader(folder),
                               autoescape=select_autoescape(default=True, default_for_string=True))

    def render(self, template_name: str, /, **context: Any) -> HTMLResponse:
        """The page of ``template_name`` with ``context``; a plain page saying so when the
        web client's files are not installed, rather than a crash."""
        status = 200
        try:
            template = self.env.get_template(template_name)
        except TemplateNotFound:
            body = (f"<!doctype html><meta charset=utf-8><title>Casino</title>"
                    f"<p>The page {escape(template_name)} of the web client is not installed.</p>")
            return HTMLResponse(body, status_code=status)
        return HTMLResponse(template.render(**context), status_code=status)

    def error(self, message: str, status: int, title: str | None = None) -> HTMLResponse:
        """The error page with ``message`` and ``status``; a plain one when the template is
        missing."""
        try:
            template = self.env.get_template("error.html")
        except TemplateNotFound:
            body = (f"<!doctype html><meta charset=utf-8><title>Casino</title>"
                    f"<h1>{escape(title or 'Something went wrong')}</h1>"
                    f"<p>{escape(message)}</p><p><a href=\"/\">Back to the lobby</a></p>")
            return HTMLResponse(body, status_code=status)
        return HTMLResponse(template.render(message=message, status=status, title=title),
                            status_code=status)


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
    return [(name, title(name), list(player_counts(name))) for name in PRESET_NAMES]


async def finished(service: GameService, game_id: str) -> LiveGame:
    """The finished game ``game_id``, whose record may be published; GameError (404 for no
    such game, 403 for one still being played) otherwise."""
    game = await service.live.get(game_id)
    if game is None:
        raise GameError("there is no such game", 404)
    if game.status != OVER:
        raise GameError("a game's record is published once the game is over", 403)
    return game
