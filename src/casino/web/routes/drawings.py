"""The cards' drawings as SVG (:mod:`casino.words.svg`), each at one address that
browsers may cache for a day."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, RedirectResponse
from starlette.responses import Response

from casino.engine.cards import card_text, parse_card
from casino.engine.errors import CardError
from casino.i18n import _
from casino.words import svg

router = APIRouter()


@router.get("/svg/card/{text}.svg")
async def card_picture(text: str, four: int = 0) -> Response:
    """A card's drawing as SVG (``four=1``: four colours); any other spelling of a card
    is redirected to its canonical text, so that each drawing has one address to cache."""
    try:
        c = parse_card(text)
    except CardError:
        return PlainTextResponse(_("no such card"), 404)
    if card_text(c) != text:
        return RedirectResponse(f"/svg/card/{card_text(c)}.svg", 301)
    return _svg(svg.card_svg(c, four_colour=bool(four)))


@router.get("/svg/back.svg")
async def card_back() -> Response:
    """The back of a card as SVG."""
    return _svg(svg.back_svg())


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
