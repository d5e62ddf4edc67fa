"""The player pages: an account's ratings with their graphs, its games won and lost,
and its finished games, each linked to its replay and review
(:mod:`casino.web.accounts.profiles`; docs/server.md, "Profiles")."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from casino.engine.presets import short_title
from casino.i18n import _, ngettext, pgettext, pN_
from casino.web.accounts.names import skeleton
from casino.web.accounts.profiles import (
    PAGE_SIZE,
    TALLY_GAMES,
    Profiles,
    graph_svg,
    player_url,
)
from casino.web.routes.context import Web, signed_in

#: Every page's header shows who is signed in (:func:`signed_in`, looked up once).
router = APIRouter(dependencies=[Depends(signed_in)])

#: The refusal of a page number that is none.
BAD_PAGE = pN_("profile", "\"page\" is a page of the player's games: a whole number from 1")


@router.get("/player/{name:path}", response_class=HTMLResponse)
async def player_page(name: str, web: Web, page: str = "1") -> Response:
    """The public page of the account named ``name`` (any name that looks like it: its
    skeleton; the rest of the path, whatever it holds, as an older rule may have let a
    name in), its finished games' page ``?page=N``; 404 in words for no such account,
    400 naming the field for a page number that is none, 404 for one past the last."""
    if not page.isdigit() or not 1 <= int(page) <= 1_000_000:
        return web.pages.error(pgettext("profile", BAD_PAGE), 400)
    profiles = Profiles(web.store)
    account = await web.service.live.db(profiles.named, skeleton(name[:100]))
    if account is None:
        return web.pages.error(_("there is no player named %(name)s") % {"name": repr(name[:40])},
                               404, title=_("No such player"))
    profile = await web.service.live.db(profiles.profile, account, int(page))
    if profile.page > profile.pages:
        return web.pages.error(ngettext("%(name)s has %(num)s page of games, not %(page)s",
                                        "%(name)s has %(num)s pages of games, not %(page)s",
                                        profile.pages)
                               % {"name": account.name, "num": profile.pages,
                                  "page": profile.page}, 404)
    graphs = {pool: graph_svg(points) for pool, points in profile.history.items()}
    return web.pages.render("player.html", profile=profile, graphs=graphs, title=short_title,
                            page_size=PAGE_SIZE, tally_games=TALLY_GAMES,
                            player_url=player_url)
