"""The leaderboard: the best ratings of one pool, a preset at a player count
(:mod:`casino.web.accounts.ratings`; docs/server.md, "Ratings"), and the computer
levels' published strengths for that pool (:mod:`casino.measure.level_strengths`)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from casino.engine.errors import RulesError
from casino.engine.presets import DEFAULT, short_title
from casino.engine.rules import PRESET_NAMES, canonical_name, player_counts
from casino.i18n import _
from casino.measure.level_strengths import anchor, strengths
from casino.web.accounts.profiles import player_url
from casino.web.accounts.ratings import BOARD_DEVIATION, BOARD_SIZE, Ratings
from casino.web.bodies import MAX_PLAYERS
from casino.web.routes.context import Web, preset_menu, signed_in

#: Every page's header shows who is signed in (:func:`signed_in`, looked up once).
router = APIRouter(dependencies=[Depends(signed_in)])


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(web: Web, rules: str = DEFAULT.name, players: str = "2") -> Response:
    """A pool's leaderboard (``?rules=casino&players=2``); a page naming the field
    for rules or a player count the presets do not have."""
    try:
        name = canonical_name(rules)
    except RulesError:
        return web.pages.error(_("unknown ruleset %(rules)s: \"rules\" is a preset's name (or "
                                 "an alias): choose the rules among %(names)s")
                               % {"rules": repr(rules[:30]), "names": ", ".join(PRESET_NAMES)},
                               400)
    counts = player_counts(name)
    if not players.isdigit() or int(players) not in counts:
        return web.pages.error(_("\"players\" is how many seats the table has: a whole "
                                 "number, 2 to %(most)s, and %(rules)s is played by %(counts)s")
                               % {"most": MAX_PLAYERS, "rules": short_title(name),
                                  "counts": ", ".join(map(str, counts))}, 400)
    board = await web.service.live.db(Ratings(web.store).board, name, int(players))
    return web.pages.render("leaderboard.html", rules_name=name, rules_title=short_title(name),
                            players=int(players), board=board, menu=preset_menu(),
                            deviation_limit=round(2 * BOARD_DEVIATION), size=BOARD_SIZE,
                            player_url=player_url, levels=strengths(name, int(players)),
                            anchor=anchor())
