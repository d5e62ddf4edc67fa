"""The web game's FastAPI app: pages, the JSON API, card drawings and the game WebSocket.

Routes stay thin: they read the request, ask :class:`~casino.web.service.GameService`
and turn its answer (or its :class:`~casino.web.service.GameError`) into a
response. docs/server.md documents every route and message; the game state
itself only ever travels over the WebSocket, one seat's view at a time.

A browser holds its seats with one HttpOnly cookie, ``casino`` (a random token
whose hash each seat stores; :mod:`casino.web.seats`); every WebSocket message
is checked against that seat, the turn and the rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from markupsafe import escape
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

from casino.bots.levels import LEVELS
from casino.engine.cards import card_text, parse_card
from casino.engine.errors import CardError, CasinoError, RulesError
from casino.engine.record import read_record
from casino.engine.rules import PRESET_NAMES, describe, player_counts, preset
from casino.play.session import HINT_LEVEL
from casino.teach.review import default_seat
from casino.web import seats, tools
from casino.web.guard import GuardedFastAPI
from casino.web.guard import same_origin as _same_origin
from casino.web.limits import Limits, TokenBucket, address_key, json_object
from casino.web.redact import install_log_redaction
from casino.web.reviews import COMPUTING, DONE, ReviewSetting
from casino.web.service import (
    Client,
    GameError,
    GameService,
    LiveGame,
    OptionsJob,
    resignation_words,
)
from casino.web.store import DEFAULT_DATABASE_URL, OVER, Store
from casino.web.views import items_json, result_json, rules_json, title
from casino.words import svg
from casino.words.narrate import told_play

log = logging.getLogger("casino.web")

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
#: WebSocket close codes: a missing or forged seat, no such game, too many connections,
#: another site's page; too many messages (the page waits before it reconnects); a
#: connection silent past the heartbeat's deadline; and "reconnect now" (the game reloads).
CLOSE_NO_SEAT, CLOSE_NO_GAME, CLOSE_LIMIT, CLOSE_ORIGIN = 4401, 4404, 4429, 4403
CLOSE_TOO_FAST, CLOSE_SILENT, CLOSE_RECONNECT = 4408, 4000, 1012
MESSAGE_TYPES = ("hello", "play", "options", "hint", "undo", "next_round", "rematch", "resign",
                 "claim", "pong")


def create_app(database_url: str | None = None, *, pool_workers: int = 1,
               limits: Limits | None = None, hint_level: str = HINT_LEVEL,
               bot_pause: float = 0.0, review_setting: ReviewSetting | None = None) -> FastAPI:
    """The app, storing games at ``database_url`` (else ``$DATABASE_URL``, else ./casino.db).

    ``pool_workers`` processes think for the computers (0: one thread, for
    tests); ``bot_pause`` is the least time a computer seems to think, so that
    people can follow its moves; ``limits`` bounds what a client may ask.
    ``review_setting`` is what post-game reviews are computed with (the review's
    defaults; tests make it small).
    """
    url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    store = Store(url)
    service = GameService(store, pool_workers=pool_workers, limits=limits,
                          hint_level=hint_level, bot_pause=bot_pause,
                          review_setting=review_setting)
    helpers = tools.Helpers(service.limits)  # the move helper's workers, made on use

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """The server's life: the service starts hearing other processes' changes before the
        first request, and at the end the helpers, the service and the database close in
        that order."""
        await service.start()  # hears of other processes' changes (PostgreSQL)
        try:
            yield
        finally:
            helpers.close()
            await service.close()
            store.close()

    pages = Pages(TEMPLATES)
    install_log_redaction()  # any server that runs the app keeps invite codes out of its logs
    # The guard (casino/web/guard.py) wraps everything: origin checks on changes, the body
    # ceiling, HEAD, and the security headers; it refuses in the same forms as the routes.
    app = GuardedFastAPI(
        body_bytes=service.limits.body_bytes,
        refusal=lambda request, words, status: _error(request, pages, words, status),
        title="casino", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.service = service
    app.state.store = store
    app.state.helpers = helpers
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    app.include_router(tools.router)

    @app.middleware("http")
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
        token = seats.browser_token(request)
        fresh = token is None
        if token is None:
            token = seats.new_token()
            seats.add_request_cookie(request.scope, token)
        moved = await service.db(service.adopt, legacy, token)
        response = await call_next(request)
        if fresh and moved and not any(v.startswith(seats.COOKIE + "=")
                                       for v in response.headers.getlist("set-cookie")):
            seats.set_token(response, request, token)
        seats.forget_legacy(response, list(legacy))
        return response

    # ------------------------------------------------------------------
    # Errors are words, never tracebacks

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> Response:
        """A refusal of the game's (an illegal move, a full room...) in its own words and
        status."""
        return _error(request, pages, exc.message, exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        """A request FastAPI could not read: said in words, never as its validation dump."""
        return _error(request, pages, "the request is not in the expected form", 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's errors (no such page, a method not allowed) in words."""
        words = {404: "there is no such page", 405: "that method is not allowed here"}
        return _error(request, pages, words.get(exc.status_code, str(exc.detail)),
                      exc.status_code)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        """A bug: logged with its traceback, and the browser told only that something went
        wrong."""
        log.exception("unexpected error on %s", request.url.path)
        return _error(request, pages, "something went wrong on the server; try again", 500)

    # ------------------------------------------------------------------
    # Pages

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> Response:
        """The lobby: the rules and levels to start a game with, the open rooms, and the
        browser's own games."""
        return pages.render("lobby.html", presets=preset_menu(), levels=list(LEVELS),
                            blurbs={name: lv.blurb for name, lv in LEVELS.items()},
                            default_level="medium",
                            **await service.db(service.lists, seats.browser_token(request)))

    @app.get("/game/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> Response:
        """A game's page for a browser that holds one of its seats; others are told they
        have none (and where a finished game's record is)."""
        game = await service.get(game_id)
        if game is None:
            return pages.error("there is no such game", 404)
        seat = game.seat_of_any(seats.seat_tokens(request, game_id))
        if seat is None:
            msg = "You have no seat in this game."
            if game.status == OVER:
                msg += f" It is over: its record is at /records/{game_id}."
            return pages.error(msg, 403, title="No seat")
        from casino.words.glossary import kinds

        return pages.render("game.html", game_id=game_id, rules_name=game.rules.name,
                            rules_title=title(game.rules.name), seat=seat,
                            words=kinds(game.rules.name))

    @app.get("/join/{game_id}/{code}")
    async def join(request: Request, game_id: str, code: str,
                   name: str | None = None) -> Response:
        """An invite link: ask the friend's name first, then seat them and set their token
        (a browser seated already goes straight to the game)."""
        game = await service.get(game_id)
        if game is not None and game.seat_of_any(seats.seat_tokens(request, game_id)) \
                is not None:
            return RedirectResponse(f"/game/{game_id}", 303)  # already seated here
        if name is None:
            # Ask the friend's name first, so the table and the record show it.
            room = await service.invited(game_id, code)
            session = room.session
            hosts = [n for seat, n in enumerate(session.names)
                     if room.seats.get(seat) is not None]
            return pages.render("join.html", rules_title=title(session.rules.name),
                                rules_name=session.rules.name, hosts=hosts,
                                players=session.rules.players)
        token, _seat = await service.join(game_id, code, name, seats.browser_token(request))
        response = RedirectResponse(f"/game/{game_id}", 303)
        seats.set_token(response, request, token)
        return response

    @app.get("/rematch/{old}/{new}")
    async def rematch(request: Request, old: str, new: str) -> Response:
        """Follow a rematch: whoever held a seat in the old game holds the same in the new."""
        tokens = seats.seat_tokens(request, old)
        game = await service.get(old)
        if game is None or game.rematch != new:
            return pages.error("there is no such rematch", 404)
        seat = game.seat_of_any(tokens)
        target = await service.get(new)
        if seat is None or target is None or target.seat_of_any(tokens) != seat:
            return pages.error("You had no seat in that game, so none in its rematch.", 403,
                               title="No seat")
        return RedirectResponse(f"/game/{new}", 303)

    @app.get("/rules/{name}", response_class=HTMLResponse)
    async def rules_page(name: str) -> Response:
        """A ruleset's summary, its glossary words linked."""
        try:
            rules = preset(name)
        except RulesError as e:
            return pages.error(str(e), 404)
        from casino.words.glossary import link_all

        lines = describe(rules)
        # The summary's lines, each glossary word linked to /glossary at its first use.
        return pages.render("rules.html", name=rules.name, title=title(rules.name),
                            lines=lines, linked=link_all(lines[1:]), presets=preset_menu())

    @app.get("/glossary", response_class=HTMLResponse)
    async def glossary_page() -> Response:
        """The games' words, an anchor per entry (casino.words.glossary), as
        docs/glossary.md has them."""
        from casino.words.glossary import SECTIONS, TERMS, section_title

        return pages.render("glossary.html", terms=TERMS,
                            sections={s: section_title(s) for s in SECTIONS},
                            titles={name: title(name) for name, _, _ in preset_menu()})

    @app.get("/guide/{name}", response_class=HTMLResponse)
    async def guide_page(name: str) -> Response:
        """How to play a ruleset, with its worked example (casino.words.guide)."""
        from casino.words.guide import GUIDES, guide_html

        if name not in GUIDES:
            return pages.error(f"no guide for {name!r}; the guides are "
                               f"{', '.join(GUIDES)}", 404)
        return pages.render("guide.html", name=name, title=GUIDES[name].title,
                            guide=guide_html(name))

    @app.get("/records/{game_id}.rec")
    async def record_file(game_id: str) -> Response:
        """A finished game's record to download (an unfinished one is not given: it would
        show the hands)."""
        game = await _finished(service, game_id)
        return PlainTextResponse(
            game.session.record_text(),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="casino-{game_id}.rec"'})

    @app.get("/records/{game_id}", response_class=HTMLResponse)
    async def replay_page(game_id: str) -> Response:
        """The replay page of a finished game (it fetches the game from the API)."""
        await _finished(service, game_id)
        return pages.render("replay.html", game_id=game_id)

    # ------------------------------------------------------------------
    # The JSON API

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> Response:
        """Create a game against the computer or a room (JSON: rules, players, level, mode,
        name, people, hints, take-backs) and seat the browser; 201 with the game's address,
        and a room's invite."""
        body = await json_object(request, service.limits.message_bytes, GameError)
        mode = body.get("mode", "computer")
        rules = body.get("rules", "casino")
        players = body.get("players", 2)
        level = body.get("level", "medium")
        people = body.get("people")
        if not isinstance(rules, str) or not isinstance(level, str) \
                or not isinstance(mode, str):
            raise GameError("rules, level and mode are words, as \"casino\"")
        if not _whole(players) or (people is not None and not _whole(people)):
            raise GameError("players (and people) are whole numbers, as 2")
        created = await service.db(
            service.create, rules=rules, players=players, level=level, mode=mode,
            name=body.get("name"),
            public=body.get("public", False), people=people,
            client=request.client.host if request.client else "",
            token=seats.browser_token(request),
            hints=body.get("hints"), takebacks=body.get("takebacks"))
        game = await service.get(created.game)
        if game is not None:
            service.kick(game)
        out = {"game": created.game, "url": f"/game/{created.game}"}
        if created.invite:
            out["invite"] = created.invite
        response = JSONResponse(out, status_code=201)
        seats.set_token(response, request, created.token)
        return response

    @app.get("/api/games")
    async def list_games(request: Request) -> dict[str, Any]:
        """The lobby's lists as JSON: the open rooms and the browser's own games."""
        return await service.db(service.lists, seats.browser_token(request))

    @app.get("/api/records/{game_id}")
    async def record_json(game_id: str) -> dict[str, Any]:
        """A finished game's replay as JSON: every step, for the replay page."""
        game = await _finished(service, game_id)
        return replay_json(game)

    @app.post("/api/games/{game_id}/review")
    async def ask_review(request: Request, game_id: str, seat: str | None = None) -> Response:
        """Start computing a finished game's review of ``seat`` (docs/server.md): 200 with
        the review when it is kept, else 202 "computing" (ask again with GET)."""
        answer = await service.review(game_id, seat, start=True,
                                      client=request.client.host if request.client else "")
        return JSONResponse(answer, status_code=200 if answer["status"] == DONE else 202)

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str, seat: str | None = None) -> Response:
        """A finished game's review of ``seat``: 200 done (with it) or none yet, 202
        computing; a review whose computing failed is said once (503)."""
        answer = await service.review(game_id, seat)
        return JSONResponse(answer, status_code=202 if answer["status"] == COMPUTING else 200)

    # ------------------------------------------------------------------
    # Card drawings

    @app.get("/svg/card/{text}.svg")
    async def card_picture(text: str, four: int = 0) -> Response:
        """A card's drawing as SVG (``four=1``: four colours); any other spelling of a card
        is redirected to its canonical text, so that each drawing has one address to cache."""
        try:
            c = parse_card(text)
        except CardError:
            return PlainTextResponse("no such card", 404)
        if card_text(c) != text:
            return RedirectResponse(f"/svg/card/{card_text(c)}.svg", 301)
        return _svg(svg.card_svg(c, four_colour=bool(four)))

    @app.get("/svg/back.svg")
    async def card_back() -> Response:
        """The back of a card as SVG."""
        return _svg(svg.back_svg())

    # ------------------------------------------------------------------
    # The game WebSocket

    @app.websocket("/ws/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        """The WebSocket of a game: see :class:`GameSocket`."""
        await GameSocket(service, ws, game_id).run()

    return app


# ----------------------------------------------------------------------
# Helpers of the routes


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


def _error(request: Request, pages: Pages, message: str, status: int) -> Response:
    """JSON ``{"error": words}`` for the API, an HTML page otherwise."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    return pages.error(message, status)


def preset_menu() -> list[tuple[str, str, list[int]]]:
    """Each preset's name, title and player counts, as the lobby's and the rules pages'
    menus offer them."""
    return [(name, title(name), list(player_counts(name))) for name in PRESET_NAMES]


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


async def _finished(service: GameService, game_id: str) -> LiveGame:
    game = await service.get(game_id)
    if game is None:
        raise GameError("there is no such game", 404)
    if game.status != OVER:
        raise GameError("a game's record is published once the game is over", 403)
    return game


def replay_json(game: LiveGame) -> dict[str, Any]:
    """A finished game move by move for the replay page: every position, every move.

    ``positions[i + 1]`` follows ``moves[i]``. Where a round ends the next
    round's deal is a step of its own (``kind: "deal"``, ``text: null``).
    """
    s = game.session
    record = read_record(s.record_text())
    rules = record.rules
    positions: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    starts: dict[int, int] = {}  # round number -> index of its first position
    for rnd in record.rounds:
        starts[rnd.number] = len(positions)
        if positions:
            moves.append({"kind": "deal", "round": rnd.number, "deal": 1, "seat": rnd.dealer,
                          "text": None, "words": f"Round {rnd.number}: "
                          f"{s.names[rnd.dealer]} deals"})
        positions.append(rnd.start.to_json())
        for k, (seat, move) in enumerate(zip(rnd.movers, rnd.moves, strict=True)):
            before, after = rnd.positions[k], rnd.positions[k + 1]
            moves.append({"kind": "move", "round": rnd.number, "deal": before.deal,
                          "seat": seat, "text": str(move),
                          "words": told_play(before, move, after, seat, s.names)})
            positions.append(after.to_json())
    rounds = [{"round": r.number, "items": items_json(rules, r.result, r.start.scores),
               "scores": list(r.result.scores)} for r in record.rounds if r.result is not None]
    last = record.rounds[-1]
    result = (result_json(rules, last.result, last.start.scores, s.names)
              if last.result is not None else None)
    ended = resignation_words(s)
    if ended is not None:
        result = {**(result or {"items": [], "scores": list(last.position.scores)}),
                  "winner": record.winner, "summary": ended}
    notes = [{"kind": n.kind, "seat": n.seat, "round": n.round,
              # a note of moves later taken back shows where the round's moves end
              "position": starts[n.round] + min(n.moves, len(record.rounds[n.round - 1].moves)),
              "words": n.words(s.names[n.seat])} for n in record.notes]
    table = record.table
    return {
        # where each round's first position is, and the seat a review is of by default
        "starts": {str(n): i for n, i in starts.items()}, "review_seat": default_seat(record),
        "game": game.id, "rules": rules_json(rules), "names": list(s.names),
        "players": list(s.players), "moves": moves, "positions": positions, "rounds": rounds,
        "result": result, "winner": record.winner, "download": f"/records/{game.id}.rec",
        "settings": ({"hints": table.hints, "takebacks": table.takebacks,
                      "words": table.words()} if table is not None else None),
        "notes": notes,
    }


# ----------------------------------------------------------------------
# The WebSocket of one client


class GameSocket:
    """One client's connection: reads its messages, writes its states, errors and hints.

    Reading and writing are two tasks, so a client slow to read never holds up
    the game, and the game never waits on a client.
    """

    def __init__(self, service: GameService, ws: WebSocket, game_id: str) -> None:
        self.service = service
        self.ws = ws
        self.game_id = game_id
        self.limits = service.limits
        self.bucket = TokenBucket(self.limits.messages_per_second, self.limits.message_burst)
        #: Hints being thought of for this connection (kept so they are not collected).
        self.hints: set[asyncio.Task[None]] = set()
        #: The ``options`` request being worked out for this connection, and the latest
        #: one waiting behind it (a newer request replaces it: only the last is answered).
        self.options_task: asyncio.Task[None] | None = None
        self.options_next: OptionsJob | None = None
        self.refused = 0

    async def _refuse(self, message: str, code: int) -> None:
        await self.ws.send_json({"type": "error", "message": message})
        await self.ws.close(code)

    async def run(self) -> None:
        """Admit the connection (its origin, the game, a seat held, room for it), then read
        and write until it closes; the seat's absence counts from then."""
        ws = self.ws
        await ws.accept()
        if not _same_origin(ws.headers):
            await self._refuse("this game can only be played from its own site", CLOSE_ORIGIN)
            return
        game = await self.service.get(self.game_id)
        if game is None:
            await self._refuse("there is no such game", CLOSE_NO_GAME)
            return
        seat = game.seat_of_any(seats.seat_tokens(ws, self.game_id))
        if seat is None:
            await self._refuse("you have no seat in this game: your seat token is missing "
                               "or wrong (open your invite link again)", CLOSE_NO_SEAT)
            return
        if len(game.clients) >= self.limits.connections_per_game:
            await self._refuse("too many connections to this game; close other tabs",
                               CLOSE_LIMIT)
            return
        # As the limits count it (IPv6: the /64): the owner of its game's computers' turns.
        client = Client(seat, address=address_key(ws.client.host) if ws.client else "")
        game.clients.add(client)
        self.service.watch(game)  # a person back on their turn is no longer away
        loop = asyncio.get_running_loop()
        writer = loop.create_task(self._write(game, client))
        heart = loop.create_task(self._heartbeat(client))
        try:
            await self._read(game, client)
        finally:
            heart.cancel()
            if self.options_task is not None:
                self.options_task.cancel()
            game.clients.discard(client)
            self.service.watch(game)  # the seat's absence counts from now
            client.close(CLOSE_RECONNECT)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 5)

    async def _heartbeat(self, client: Client) -> None:
        """A ``ping`` every ``heartbeat_seconds``: the page answers ``pong``.

        Browsers do not show WebSocket-level pings to the page, so the page
        could not tell a silently dropped connection from a quiet game; with
        these it knows within two beats, and the server within
        ``heartbeat_timeout`` (the reader closes a silent connection).
        """
        while True:
            await asyncio.sleep(self.limits.heartbeat_seconds)
            client.send({"type": "ping", "every": self.limits.heartbeat_seconds})

    async def _write(self, game: LiveGame, client: Client) -> None:
        try:
            while True:
                message = await client.outbox.get()
                if message is None:
                    try:
                        message = await game.state_ready(client)
                    except Exception:
                        log.exception("could not build the view of game %s", game.id)
                        message = _err("the server could not show the game; reload the page")
                    if message is None:
                        continue
                elif message.get("type") == "close":
                    if self.ws.client_state == WebSocketState.CONNECTED:
                        with contextlib.suppress(Exception):
                            await self.ws.close(int(message.get("code", CLOSE_RECONNECT)))
                    return
                await self.ws.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def _read(self, game: LiveGame, client: Client) -> None:
        ws = self.ws
        while True:
            try:
                raw = await asyncio.wait_for(ws.receive(), self.limits.heartbeat_timeout)
            except TimeoutError:
                client.close(CLOSE_SILENT)  # no pong, no message: the connection is dead
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw["type"] == "websocket.disconnect":
                return
            text = raw.get("text")
            data = raw.get("bytes")
            if text is None and data is not None:
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = ""
            size = len(text.encode("utf-8")) if text is not None else 0
            if not self.bucket.take():
                self.refused += 1
                if self.refused > self.limits.refused_before_close:
                    client.send({"type": "error", "message": "too many messages: this "
                                 "connection is closed; the page reconnects in a while"})
                    client.close(CLOSE_TOO_FAST)
                    return
                client.send({"type": "error", "message": "too many messages: at most "
                             f"{self.limits.messages_per_second:g} a second; "
                             "that one was ignored"})
                continue
            self.refused = 0  # only a flood without pause closes the connection
            if size > self.limits.message_bytes:
                client.send({"type": "error", "message": f"that message is too big (at most "
                             f"{self.limits.message_bytes} bytes); it was ignored"})
                continue
            current = self.service.games.get(self.game_id)
            if current is not game:  # dropped meanwhile: the client must reconnect
                client.close(CLOSE_RECONNECT)
                return
            reply = await self.handle(game, client, text or "")
            if reply is not None:
                client.send(reply)

    def _ask_options(self, game: LiveGame, client: Client, job: OptionsJob) -> None:
        """Answer ``job`` after the request being worked out, if any: one at a time per
        connection, and a request still waiting is replaced by a newer one (the page
        only wants the answer for what is picked now)."""
        self.options_next = job
        if self.options_task is None:
            self.options_task = asyncio.get_running_loop().create_task(
                self._options(game, client))

    async def _options(self, game: LiveGame, client: Client) -> None:
        try:
            while self.options_next is not None:
                job, self.options_next = self.options_next, None
                try:
                    reply = await self.service.options(job)
                except GameError as e:
                    reply = _err(e.message)
                except Exception:
                    log.exception("options failed in game %s", game.id)
                    reply = _err("that selection could not be worked out; pick again")
                client.send(reply)
        finally:
            self.options_task = None

    async def _hint(self, game: LiveGame, client: Client) -> None:
        """Ask for a hint and send the answer (or why there is none) when it comes."""
        try:
            reply = await self.service.hint(game, client.seat, client.address)
        except GameError as e:
            reply = _err(e.message)
        except CasinoError as e:
            reply = _err(str(e))
        except Exception:
            log.exception("a hint failed in game %s", game.id)
            reply = _err("no hint could be found just now; try again")
        client.send(reply)

    async def handle(self, game: LiveGame, client: Client, text: str) -> dict[str, Any] | None:
        """One message: the reply to send (an error in words, or a hint), or None."""
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            return _err("that message is not valid JSON; send an object such as "
                        "{\"type\": \"hello\", \"since\": 0}")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return _err("a message is a JSON object with a \"type\", such as "
                        "{\"type\": \"hello\", \"since\": 0}")
        kind = msg["type"]
        seat = client.seat
        try:
            if kind == "hello":
                since = msg.get("since", 0)
                if not _whole(since) or since < 0:
                    return _err("\"since\" is the last version you have: a whole number, "
                                "0 at first")
                view = await game.view_ready(seat)  # nothing awaited after this
                start = since if since <= game.version else 0  # from another life: all
                client.sent = game.version
                return {"type": "state", "version": game.version,
                        "events": [e.to_json(seat) for e in game.events[start:]],
                        "view": view}
            version = msg.get("version")
            if version is not None and (not _whole(version) or version < 0):
                return _err("\"version\" is the version of the game you saw: a whole number")
            if kind == "pong":
                return None
            game.driver = client.address
            if kind == "play":
                move = msg.get("move")
                if not isinstance(move, str) or not move.strip():
                    return _err("a play needs a \"move\": the move's text, such as \"9d x 9c\"")
                if len(move) > 200:
                    return _err("that move text is far too long to be a move")
                await self.service.play(game, seat, move, version)
                return None
            if kind == "options":
                # Checked now (an error changes nothing), worked out aside: meanwhile this
                # connection's other messages are still read.
                job = self.service.read_options(game, seat, msg.get("card"), msg.get("uses"),
                                                version)
                self._ask_options(game, client, job)
                return None
            if kind == "hint":
                # Thought of aside: a hint may wait for the pool (computers go first), and
                # meanwhile this connection's moves must still be read.
                task = asyncio.get_running_loop().create_task(self._hint(game, client))
                self.hints.add(task)
                task.add_done_callback(self.hints.discard)
                return None
            if kind == "undo":
                await self.service.undo(game, seat, version)
                return None
            if kind == "next_round":
                await self.service.next_round(game, seat, version)
                return None
            if kind == "rematch":
                await self.service.rematch(game, seat)
                return None
            if kind == "resign":
                await self.service.resign(game, seat)
                return None
            if kind == "claim":
                target = msg.get("seat")
                if not isinstance(target, int) or isinstance(target, bool) \
                        or not 0 <= target < game.rules.players:
                    return _err(f"a claim names the \"seat\" of the player who is away: a "
                                f"seat number from 0 to {game.rules.players - 1}")
                await self.service.claim(game, seat, target, version)
                return None
        except GameError as e:
            if e.status == 409:
                client.notify()  # a stale request: the fresh state follows the error
            return _err(e.message)
        except CasinoError as e:  # IllegalMove and friends: computed from the seat's view
            return _err(str(e))
        except Exception:
            # Memory may be half-changed: drop the game, it reloads as committed.
            log.exception("unexpected error in game %s on %r", game.id, kind)
            self.service.drop(game)
            return _err("something went wrong on the server; the game is reloaded as it "
                        "was saved")
        return _err(f"unknown message type {kind[:30]!r}; the types are "
                    f"{', '.join(MESSAGE_TYPES)}")


def _err(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}


# ----------------------------------------------------------------------
# `casino serve`


def serve(host: str, port: int, database_url: str | None, pool_workers: int,
          limits: Limits | None = None, *, workers: int = 1, bot_pause: float = 0.6,
          forwarded_allow_ips: str | None = None) -> None:
    """Run the web game with uvicorn until interrupted (the ``casino serve`` command).

    ``workers`` processes serve one port (uvicorn's workers; more than one needs a
    PostgreSQL database, where the processes share the games); ``bot_pause`` is the
    least time a computer's move takes; ``forwarded_allow_ips`` are the reverse
    proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (none by
    default: a client could otherwise claim any address and escape its limits).

    Its start-up line, on standard error, says where the games are stored and which
    engine answers (``engine: compiled core (C)``, or pure Python and why).

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
    from casino.web.serving import ENV, ServeSettings, trusted_proxies
    from casino.web.single import claim_sqlite, refuse_several

    if pool_workers < 0:
        raise ValueError("--workers-pool must be 0 (a thread) or more")
    if workers < 1:
        raise ValueError("--workers must be 1 or more")
    if not (math.isfinite(bot_pause) and bot_pause >= 0):
        raise ValueError(f"--computer-pause must be 0 seconds or more, not {bot_pause}")
    proxies = trusted_proxies(forwarded_allow_ips)
    url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    shown = url.split("@")[-1] if "@" in url else url  # no password in messages

    def unopened(e: Exception) -> ValueError:
        return ValueError(f"cannot open the database {shown}: {str(e).splitlines()[0]}")

    refuse_several(url, workers)  # SQLite is served by one process
    run: dict[str, Any] = {
        "host": host, "port": port, "ws_max_size": 64 * 1024, "log_level": "info",
        # Behind a reverse proxy uvicorn puts the forwarded client address into the
        # request (request.client, ws.client), which the per-address limits count.
        "proxy_headers": proxies is not None, "forwarded_allow_ips": proxies}
    if workers == 1:
        claim_sqlite(url)  # a second process on one SQLite file is refused (AlreadyServed)
        try:
            app = create_app(url, pool_workers=pool_workers, bot_pause=bot_pause,
                             limits=limits)
        except (SQLAlchemyError, ImportError) as e:
            raise unopened(e) from None
        print(f"casino: games are stored in {shown}; engine: {engine_name()}", file=sys.stderr)
        install_log_redaction()  # create_app did; said again where the access log is switched on
        uvicorn.run(app, **run)
        return
    # Several processes: the schema is brought up to date here, once, before any starts
    # (which also shows the database opens); each worker then makes its own app.
    try:
        Store(url).close()
    except (SQLAlchemyError, ImportError) as e:
        raise unopened(e) from None
    os.environ[ENV] = ServeSettings(url, pool_workers=pool_workers, bot_pause=bot_pause,
                                    limits=limits or Limits()).to_json()
    print(f"casino: games are stored in {shown}, served by {workers} processes; "
          f"engine: {engine_name()}", file=sys.stderr)
    install_log_redaction()
    uvicorn.run("casino.web.serving:worker_app", factory=True, workers=workers, **run)
