"""The pairing routes (docs/server.md, "Pairing"): "Play someone now"
(:mod:`casino.web.pairing`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from casino.web import seats
from casino.web.bodies import BodyError, PairingAnswer, PairingRequest, read
from casino.web.limits import json_object
from casino.web.pairing import pairing_of
from casino.web.requester import requester
from casino.web.routes.context import Player, Web
from casino.web.service import GameError

router = APIRouter()


@router.post("/api/pairing")
async def play_someone(request: Request, web: Web, player: Player) -> Response:
    """"Play someone now" (JSON: :class:`~casino.web.bodies.PairingRequest`): join the
    best open seek of the pool, else wait in the player's own
    (:class:`~casino.web.bodies.PairingAnswer`); the browser's seat token is set."""
    service = web.service
    body = await json_object(request, service.limits.message_bytes, GameError)
    try:
        ask = read(PairingRequest, body)
    except BodyError as e:
        raise GameError(e.message) from None
    paired = await pairing_of(service).pair(
        rules=ask.rules, players=ask.players, rated=ask.rated, seek=ask.seek,
        identity=await requester(request), account=player,
        token=seats.browser_token(request),
        client=request.client.host if request.client else "")
    answer = PairingAnswer(game=paired.game, url=f"/game/{paired.game}",
                           waiting=paired.waiting)
    response = JSONResponse(answer.model_dump())
    if paired.token is not None:
        seats.set_token(response, request, paired.token)
    return response
