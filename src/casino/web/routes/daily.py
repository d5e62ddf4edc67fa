"""The daily deal's pages and API (docs/server.md, "The daily deal"): today's deals, a
day's results, and starting today's game (or a past day's, for practice).

The game itself is an ordinary game at /game/<id>, played over the WebSocket.
"""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.requests import HTTPConnection
from starlette.responses import Response

from casino.engine.cards import card_text
from casino.engine.presets import short_title
from casino.i18n import pgettext
from casino.web import seats
from casino.web.bodies import DailyStart, GameMade
from casino.web.daily import (
    DAILY,
    HIDDEN_GAME,
    NOT_RANKED,
    PLAY_FIRST,
    Started,
    check_day,
    check_rules,
    daily_presets,
    player_keys,
    seconds_words,
)
from casino.web.errors import GameError
from casino.web.requester import requester
from casino.web.routes.context import Player, Web, game_body, seat_held, signed_in
from casino.web.service import LiveGame

router = APIRouter(dependencies=[Depends(signed_in)])


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(request: Request, web: Web, player: Player) -> Response:
    """Today's daily deals, one per preset, each with what this player may do now: play,
    go back to their game, or see the results."""
    daily = web.service.daily
    mine, named = await web.service.live.db(daily.todays, seats.browser_token(request),
                                            player)
    deals = [{"rules": name, "title": short_title(name), "entry": mine.get(name)}
             for name in daily_presets()]
    yesterday = (check_day(daily.today()) - dt.timedelta(days=1)).isoformat()
    return web.pages.render("daily.html", day=daily.today(), deals=deals, yesterday=yesterday,
                            guest=player is None, level=daily.level, named=named or "")


@router.get("/daily/of/{game_id}")
async def daily_of(game_id: str, web: Web) -> Response:
    """From a daily game's page to its day's results (the lobby for a practice game)."""
    entry = await web.service.live.db(web.service.daily.deals.by_game, game_id[:40])
    if entry is None:
        return RedirectResponse("/daily", 303)
    return RedirectResponse(f"/daily/{entry.day}/{entry.rules}", 303)


@router.get("/daily/{day}/{rules}", response_class=HTMLResponse)
async def results_page(request: Request, day: str, rules: str, web: Web,
                       player: Player) -> Response:
    """A day's deal of a preset: its results once the player has finished it (everyone's
    once the day is over), and then too its deck, every hand and every game."""
    daily = web.service.daily
    keys = player_keys(seats.browser_token(request), player)
    shown = await web.service.live.db(daily.results, day, rules, keys)
    deck = ([card_text(c) for c in shown.deal.deck] if shown.deal is not None else None)
    return web.pages.render("daily_deal.html", r=shown, title=short_title(rules), deck=deck,
                            dealer=shown.deal.dealer if shown.deal is not None else None,
                            today=day == daily.today(),
                            play_first=pgettext("daily", PLAY_FIRST),
                            not_ranked=pgettext("daily", NOT_RANKED), seconds_words=seconds_words,
                            level=daily.level, rules_name=rules)


def _made(request: Request, started: Started, status: int) -> Response:
    made = GameMade(game=started.game, url=f"/game/{started.game}")
    response = JSONResponse(made.model_dump(exclude_none=True), status_code=status)
    seats.set_token(response, request, started.token)
    return response


@router.post("/api/daily/{rules}", status_code=201)
async def start_daily(request: Request, rules: str, web: Web, player: Player) -> Response:
    """Play today's deal of ``rules`` (JSON: :class:`~casino.web.bodies.DailyStart`):
    201 with the game (:class:`~casino.web.bodies.GameMade`), the same game for a
    player who started it already."""
    check_rules(rules)
    body = await game_body(request, web, DailyStart)
    started = await web.service.live.db(
        web.service.daily.start, rules, token=seats.browser_token(request), account=player,
        name=body.name, requester=await requester(request))
    game = await web.service.live.get(started.game)
    if game is not None:
        web.service.computers.kick(game)
    return _made(request, started, 201)


@router.post("/api/daily/{day}/{rules}/practice", status_code=201)
async def practice(request: Request, day: str, rules: str, web: Web,
                   player: Player) -> Response:
    """Play a past day's deal again, for practice (unranked): 201 with the new game."""
    check_day(day)
    check_rules(rules)
    started = await web.service.live.db(
        web.service.daily.practice, day, rules, token=seats.browser_token(request),
        account=player, requester=await requester(request))
    game = await web.service.live.get(started.game)
    if game is not None:
        web.service.computers.kick(game)
    return _made(request, started, 201)


async def check_shown(connection: HTTPConnection, web: Web, game: LiveGame | None) -> None:
    """Refuse (403) a daily game's record or review to anyone but its player until its
    day is over: the other players' games of the day are not to be found before."""
    if game is None or game.mode != DAILY:
        return
    keys = player_keys(seats.browser_token(connection), await signed_in(connection))
    if (await web.service.live.db(web.service.daily.hidden, game.id, keys)
            and await seat_held(connection, game) is None):
        raise GameError(pgettext("daily", HIDDEN_GAME), 403)
