"""What the app does around its routes: errors said in words, never tracebacks, and the
old per-game cookies moved to the browser's one token (the app factory installs both)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from casino.i18n import _
from casino.web import seats
from casino.web.routes.context import WebContext, error_response
from casino.web.service import GameError

log = logging.getLogger("casino.web")


def _context(request: Request) -> WebContext:
    context: WebContext = request.app.state.web
    return context


async def game_error(request: Request, exc: GameError) -> Response:
    """A refusal of the game's (an illegal move, a full room...) in its own words and
    status."""
    return error_response(request, _context(request).pages, exc.message, exc.status)


async def invalid(request: Request, exc: RequestValidationError) -> Response:
    """A request FastAPI could not read: said in words, never as its validation dump."""
    return error_response(request, _context(request).pages,
                          _("the request is not in the expected form"), 422)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """Starlette's errors (no such page, a method not allowed) in words."""
    words = {404: _("there is no such page"), 405: _("that method is not allowed here")}
    return error_response(request, _context(request).pages,
                          words.get(exc.status_code, str(exc.detail)), exc.status_code)


async def crash(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback, and the browser told only that something went
    wrong."""
    log.exception("unexpected error on %s", request.url.path)
    return error_response(request, _context(request).pages,
                          _("something went wrong on the server; try again"), 500)


def install_error_handlers(app: FastAPI) -> None:
    """Have ``app`` answer every error in words: the game's refusals, unreadable requests,
    Starlette's errors and bugs (as JSON on the API, as a page elsewhere)."""
    app.add_exception_handler(GameError, game_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, crash)


async def adopt_old_cookies(request: Request, call_next: Any) -> Response:
    """Move the seats of old per-game cookies to the browser's one token, and drop them.

    Only on pages and the API (a browser fetches a page's files in parallel,
    and those could each mint a different token). The route then sees the
    browser's token, new or not, as if the browser had sent it.
    """
    legacy = seats.legacy_tokens(request.cookies)
    path = request.url.path
    if not legacy or path.startswith(("/static/", "/svg/")):
        response: Response = await call_next(request)
        return response
    service = _context(request).service
    token = seats.browser_token(request)
    fresh = token is None
    if token is None:
        token = seats.new_token()
        seats.add_request_cookie(request.scope, token)
    moved = await service.live.db(service.rooms.adopt, legacy, token)
    response = await call_next(request)
    if fresh and moved and not any(v.startswith(seats.COOKIE + "=")
                                   for v in response.headers.getlist("set-cookie")):
        seats.set_token(response, request, token)
    seats.forget_legacy(response, list(legacy))
    return response
