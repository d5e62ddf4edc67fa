"""The web game's FastAPI app factory, and ``casino serve``.

:func:`create_app` only wires the app together: its settings, the database
(:class:`~casino.web.store.Store`), the games' service
(:class:`~casino.web.service.GameService`), the move helper's workers, the guard and
the middleware, the error handlers, and the routers of :mod:`casino.web.routes` (the
tools, the pages, the JSON API, the cards' drawings and the game WebSocket).
docs/server.md documents every route and message; the game state itself only ever
travels over the WebSocket, one seat's view at a time.

A browser holds its seats with one HttpOnly cookie, ``casino`` (a random token
whose hash each seat stores; :mod:`casino.web.seats`); every WebSocket message
is checked against that seat, the turn and the rules.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from casino.i18n import _
from casino.play.session import HINT_LEVEL
from casino.web import language, tools
from casino.web.accounts.ratings import settle_unrated
from casino.web.accounts.service import Accounts
from casino.web.guard import GuardedFastAPI
from casino.web.language import choose_language
from casino.web.limits import Limits
from casino.web.redact import install_log_redaction
from casino.web.reviews import ReviewSetting
from casino.web.routes import accounts as account_routes
from casino.web.routes import (
    admin,
    api,
    daily,
    drawings,
    pages,
    pairing,
    profiles,
    ratings,
    socket,
)
from casino.web.routes import tools as tool_routes
from casino.web.routes.context import Pages, WebContext, error_response
from casino.web.routes.errors import adopt_old_cookies, install_error_handlers
from casino.web.service import GameService
from casino.web.settings import database_from_environment
from casino.web.store import Store

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


def create_app(database_url: str | None = None, *, pool_workers: int = 1,
               limits: Limits | None = None, hint_level: str = HINT_LEVEL,
               bot_pause: float = 0.0, review_setting: ReviewSetting | None = None,
               admins: Sequence[str] = ()) -> FastAPI:
    """The app, storing games at ``database_url`` (else ``$CASINO_DATABASE_URL``, else the
    deprecated ``$DATABASE_URL``, else ./casino.db: :mod:`casino.web.settings`).

    ``pool_workers`` processes think for the computers (0: one thread, for
    tests); ``bot_pause`` is the least time a computer seems to think, so that
    people can follow its moves; ``limits`` bounds what a client may ask.
    ``review_setting`` is what post-game reviews are computed with (the review's
    defaults; tests make it small). ``admins`` are the accounts' names that may read
    the chat's reports (``casino serve --admin``).
    """
    url = database_url or database_from_environment()
    store = Store(url)
    service = GameService(store, pool_workers=pool_workers, limits=limits,
                          hint_level=hint_level, bot_pause=bot_pause,
                          review_setting=review_setting)
    helpers = tools.Helpers(service.limits)  # the move helper's workers, made on use
    accounts = Accounts(service, service.limits)  # optional accounts: casino/web/accounts/

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """The server's life: the service starts hearing other processes' changes before the
        first request, and at the end the helpers, the service and the database close in
        that order."""
        await service.live.start()  # hears of other processes' changes (PostgreSQL)
        await settle_unrated(service)  # rated games a stopped process ended unrated
        try:
            yield
        finally:
            helpers.close()
            accounts.close()
            await service.close()
            store.close()

    templates = Pages(TEMPLATES)
    install_log_redaction()  # any server that runs the app keeps invite codes out of its logs
    # The guard (casino/web/guard.py) wraps everything: origin checks on changes, the body
    # ceiling, HEAD, and the security headers; it refuses in the same forms as the routes.
    app = GuardedFastAPI(
        body_bytes=service.limits.body_bytes,
        refusal=lambda request, words, status: error_response(request, templates, words,
                                                               status),
        title="casino", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    # What the routes are given (routes/context.py), and what tests and tools read.
    app.state.web = WebContext(service=service, store=store, helpers=helpers,
                               pages=templates)
    app.state.service = service
    app.state.store = store
    app.state.helpers = helpers
    app.state.accounts = accounts
    app.state.admins = frozenset(name.casefold() for name in admins)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    app.include_router(tool_routes.router)
    app.middleware("http")(adopt_old_cookies)
    app.middleware("http")(choose_language)  # each request's language (web/language.py)
    app.include_router(language.router)
    install_error_handlers(app)
    for part in (pages, account_routes, ratings, profiles, api, pairing, drawings, socket,
                 admin, daily):
        app.include_router(part.router)
    return app



# ----------------------------------------------------------------------
# `casino serve`


def serve(host: str, port: int, database_url: str | None, pool_workers: int,
          limits: Limits | None = None, *, workers: int = 1, bot_pause: float = 0.6,
          forwarded_allow_ips: str | None = None, admins: Sequence[str] = ()) -> None:
    """Run the web game with uvicorn until interrupted (the ``casino serve`` command).

    ``workers`` processes serve one port (uvicorn's workers; more than one needs a
    PostgreSQL database, where the processes share the games); ``bot_pause`` is the
    least time a computer's move takes; ``forwarded_allow_ips`` are the reverse
    proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (none by
    default: a client could otherwise claim any address and escape its limits);
    ``admins`` the accounts that read the chat's reports.

    Its start-up line, on standard error, says where the games are stored and which
    engine answers (``engine: compiled core (C)``, or pure Python and why), and on which
    event loop uvicorn runs (:func:`~casino.web.slow.event_loop`).

    Anything that stops the server from starting (SQLite with several workers, a
    database that cannot be opened, a SQLite database another process serves, a
    proxy that is no address) raises ValueError with words, for the command to
    print, before anything listens.
    """
    import math
    import sys

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from casino.engine.core import engine_name
    from casino.web.serving import ENV, trusted_proxies
    from casino.web.settings import LimitGroups, ServerSettings
    from casino.web.single import claim_sqlite, refuse_several
    from casino.web.slow import event_loop, guarded_protocols

    if pool_workers < 0:
        raise ValueError("--workers-pool must be 0 (a thread) or more")
    if workers < 1:
        raise ValueError("--workers must be 1 or more")
    if not (math.isfinite(bot_pause) and bot_pause >= 0):
        raise ValueError(f"--computer-pause must be 0 seconds or more, not {bot_pause}")
    proxies = trusted_proxies(forwarded_allow_ips)
    url = database_url or database_from_environment()
    shown = url.split("@")[-1] if "@" in url else url  # no password in messages

    def unopened(e: Exception) -> ValueError:
        return ValueError(f"cannot open the database {shown}: {str(e).splitlines()[0]}")

    refuse_several(url, workers)  # SQLite is served by one process
    run: dict[str, Any] = {
        "host": host, "port": port, "ws_max_size": 64 * 1024, "log_level": "info",
        # Behind a reverse proxy uvicorn puts the forwarded client address into the
        # request (request.client, ws.client), which the per-address limits count.
        "proxy_headers": proxies is not None, "forwarded_allow_ips": proxies,
        # Slow clients: deadlines on a request's headers and body, a cap per address.
        **guarded_protocols(limits or Limits()), "loop": event_loop()}
    if workers == 1:
        claim_sqlite(url)  # a second process on one SQLite file is refused (AlreadyServed)
        try:
            app = create_app(url, pool_workers=pool_workers, bot_pause=bot_pause,
                             limits=limits, admins=admins)
        except (SQLAlchemyError, ImportError) as e:
            raise unopened(e) from None
        print("casino: " + _("games are stored in %(where)s; engine: %(engine)s; event "
                             "loop: %(loop)s") % {"where": shown, "engine": engine_name(),
                                                  "loop": event_loop()}, file=sys.stderr)
        install_log_redaction()  # create_app did; said again where the access log is switched on
        uvicorn.run(app, **run)
        return
    # Several processes: the schema is brought up to date here, once, before any starts
    # (which also shows the database opens); each worker then makes its own app.
    try:
        Store(url).close()
    except (SQLAlchemyError, ImportError) as e:
        raise unopened(e) from None
    settings = ServerSettings(database_url=url, pool_workers=pool_workers,
                              bot_pause=bot_pause, admins=tuple(admins),
                              limits=LimitGroups.from_flat(limits or Limits()))
    os.environ[ENV] = settings.model_dump_json()
    print("casino: " + _("games are stored in %(where)s, served by %(n)s processes; engine: "
                         "%(engine)s; event loop: %(loop)s") % {
        "where": shown, "n": workers, "engine": engine_name(), "loop": event_loop()},
        file=sys.stderr)
    install_log_redaction()
    uvicorn.run("casino.web.serving:worker_app", factory=True, workers=workers, **run)
