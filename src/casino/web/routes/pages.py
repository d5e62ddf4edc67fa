"""The web game's HTML pages: the lobby, a game, invites and rematches, the rules, the
glossary and the guides, and finished games' records and replays (docs/server.md)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse
from starlette.responses import Response

from casino.bots.levels import LEVELS
from casino.engine.errors import RulesError
from casino.engine.presets import short_title
from casino.engine.rules import describe, preset
from casino.i18n import _, pgettext
from casino.web import seats
from casino.web.accounts.ratings import SIGN_IN_TO_JOIN
from casino.web.bodies import MAX_SPECTATOR_DELAY
from casino.web.clocks import WHEN_OUT
from casino.web.routes.context import (
    Player,
    Web,
    finished,
    preset_menu,
    seat_held,
    signed_in,
)
from casino.web.routes.daily import check_shown
from casino.web.spectators import not_watchable, watched_words
from casino.web.store import OVER
from casino.web.timecontrol import OFFERED
from casino.web.views import RATED_WORDS

#: The delays the lobby's form offers a game's spectators, in moves.
SPECTATOR_DELAYS = [n for n in (0, 1, 2, 3, 5, 10) if n <= MAX_SPECTATOR_DELAY]
#: Every page's header shows who is signed in (:func:`signed_in`, looked up once).
router = APIRouter(dependencies=[Depends(signed_in)])


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, web: Web, player: Player) -> Response:
    """The lobby: the rules and levels to start a game with, the open rooms, and the
    browser's own games (and the account's, signed in)."""
    service = web.service
    lists = await service.live.db(service.rooms.lists, seats.browser_token(request), player)
    return web.pages.render("lobby.html", presets=preset_menu(), levels=list(LEVELS),
                            blurbs={name: lv.shown_blurb() for name, lv in LEVELS.items()},
                            level_names={name: lv.shown_name() for name, lv in LEVELS.items()},
                            default_level="medium", delays=SPECTATOR_DELAYS,
                            clocks=[(json.dumps({k: v for k, v in c.to_json().items() if v}),
                                     c.words()) for c in OFFERED], **lists)


@router.get("/game/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, web: Web) -> Response:
    """A game's page for a browser that holds one of its seats (by its token, or by the
    account signed in there: :func:`seat_held`); others are told they have none (and
    where a finished game's record is)."""
    game = await web.service.live.get(game_id)
    if game is None:
        return web.pages.error(_("there is no such game"), 404)
    seat = await seat_held(request, game)
    if seat is None:
        msg = _("You have no seat in this game.")
        if game.status == OVER:
            msg += " " + _("It is over: its record is at %(path)s.") % {
                "path": f"/records/{game_id}"}
        return web.pages.error(msg, 403, title=_("No seat"))
    from casino.words.glossary import kinds

    return web.pages.render("game.html", game_id=game_id, rules_name=game.rules.name,
                            rules_title=short_title(game.rules.name), seat=seat,
                            words=kinds(game.rules.name))


@router.get("/watch/{game_id}", response_class=HTMLResponse)
async def watch_page(game_id: str, web: Web) -> Response:
    """A live game's page for a spectator, anyone, when its players allowed it: the game
    page, read-only, on the spectators' WebSocket (docs/server.md, "Spectators"). A
    finished game is its replay, which shows every hand."""
    game = await web.service.live.get(game_id)
    if game is None:
        return web.pages.error(_("there is no such game"), 404)
    if not game.spectators:
        return web.pages.error(not_watchable()[0].upper() + not_watchable()[1:] + ".", 403,
                               title=_("Not watched"))
    if game.status == OVER:
        return RedirectResponse(f"/records/{game_id}", 303)
    from casino.words.glossary import kinds

    return web.pages.render("game.html", game_id=game_id, rules_name=game.rules.name,
                            rules_title=short_title(game.rules.name), seat=None, watch=True,
                            words=kinds(game.rules.name))


@router.get("/join/{game_id}/{code}")
async def join(request: Request, game_id: str, code: str, web: Web, player: Player,
               name: str | None = None) -> Response:
    """An invite link: ask the friend's name first, then seat them and set their token
    (a browser seated already, or signed in to an account seated already, goes straight
    to the game). A signed-in player's seat is the account's too, and has its name."""
    service = web.service
    game = await service.live.get(game_id)
    if game is not None and await seat_held(request, game) is not None:
        return RedirectResponse(f"/game/{game_id}", 303)  # already seated here
    if name is None:
        # Ask the friend's name first, so the table and the record show it.
        room = await service.rooms.invited(game_id, code)
        session = room.session
        hosts = [n for seat, n in enumerate(session.names)
                 if room.seats.get(seat) is not None]
        return web.pages.render("join.html", rules_title=short_title(session.rules.name),
                                rules_name=session.rules.name, hosts=hosts,
                                players=session.rules.players,
                                account_name=player.name if player else None,
                                rated_words=RATED_WORDS[room.rated],
                                clock_words=None if room.clock is None
                                else room.clock.control.words(),
                                clock_rule=pgettext("clock", WHEN_OUT[room.rated]),
                                watched_words=watched_words(room.spectator_delay)
                                if room.spectators else None,
                                sign_in_first=SIGN_IN_TO_JOIN if room.rated and not player
                                else None)
    token, _seat = await service.rooms.join(game_id, code, name, seats.browser_token(request),
                                            player)
    response = RedirectResponse(f"/game/{game_id}", 303)
    seats.set_token(response, request, token)
    return response


@router.get("/rematch/{old}/{new}")
async def rematch(request: Request, old: str, new: str, web: Web) -> Response:
    """Follow a rematch: whoever held a seat in the old game holds the same in the new
    (a browser by its token, an account by its own seats)."""
    game = await web.service.live.get(old)
    if game is None or game.rematch != new:
        return web.pages.error(_("there is no such rematch"), 404)
    seat = await seat_held(request, game)
    target = await web.service.live.get(new)
    if seat is None or target is None or await seat_held(request, target) != seat:
        return web.pages.error(_("You had no seat in that game, so none in its rematch."),
                               403, title=_("No seat"))
    return RedirectResponse(f"/game/{new}", 303)


@router.get("/rules/{name}", response_class=HTMLResponse)
async def rules_page(name: str, web: Web) -> Response:
    """A ruleset's summary, its glossary words linked."""
    try:
        rules = preset(name)
    except RulesError as e:
        return web.pages.error(str(e), 404)
    from casino.words.glossary import link_all

    lines = describe(rules)
    # The summary's lines, each glossary word linked to /glossary at its first use.
    return web.pages.render("rules.html", name=rules.name, title=short_title(rules.name),
                            lines=lines, linked=link_all(lines[1:]), presets=preset_menu())


@router.get("/glossary", response_class=HTMLResponse)
async def glossary_page(web: Web) -> Response:
    """The games' words, an anchor per entry (casino.words.glossary), as
    docs/glossary.md has them."""
    from casino.words.glossary import SECTIONS, section_title, shown_terms

    return web.pages.render("glossary.html", terms=shown_terms(),
                            sections={s: section_title(s) for s in SECTIONS},
                            titles={name: short_title(name) for name, _, _ in preset_menu()})


@router.get("/guide/{name}", response_class=HTMLResponse)
async def guide_page(name: str, web: Web) -> Response:
    """How to play a ruleset, with its worked example (casino.words.guide)."""
    from casino.words.guide import GUIDES, guide_html

    if name not in GUIDES:
        return web.pages.error(_("no guide for %(name)s; the guides are %(guides)s")
                               % {"name": repr(name), "guides": ", ".join(GUIDES)}, 404)
    shown = guide_html(name)
    return web.pages.render("guide.html", name=name, title=shown["title"], guide=shown)


@router.get("/records/{game_id}.rec")
async def record_file(request: Request, game_id: str, web: Web) -> Response:
    """A finished game's record to download (an unfinished one is not given: it would
    show the hands; nor is another player's daily deal before its day is over)."""
    game = await finished(web.service, game_id)
    await check_shown(request, web, game)
    return PlainTextResponse(
        game.session.record_text(),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="casino-{game_id}.rec"'})


@router.get("/records/{game_id}", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, web: Web) -> Response:
    """The replay page of a finished game (it fetches the game from the API)."""
    await check_shown(request, web, await finished(web.service, game_id))
    return web.pages.render("replay.html", game_id=game_id)
