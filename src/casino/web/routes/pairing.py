"""The pairing routes (docs/server.md, "Pairing"): "Play someone now"
(:mod:`casino.web.pairing`), and challenges sent by name (:mod:`casino.web.challenges`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from casino.web import seats
from casino.web.bodies import (
    ChallengeRequest,
    GameMade,
    PairingAnswer,
    PairingRequest,
    Withdrawn,
)
from casino.web.challenges import Challenges
from casino.web.pairing import pairing_of
from casino.web.requester import requester
from casino.web.routes.context import Player, Web, game_body

router = APIRouter()


@router.post("/api/pairing")
async def play_someone(request: Request, web: Web, player: Player) -> Response:
    """"Play someone now" (JSON: :class:`~casino.web.bodies.PairingRequest`): join the
    best open seek of the pool, else wait in the player's own
    (:class:`~casino.web.bodies.PairingAnswer`); the browser's seat token is set."""
    service = web.service
    ask = await game_body(request, web, PairingRequest)
    paired = await pairing_of(service).pair(
        rules=ask.rules, players=ask.players, rated=ask.rated, seek=ask.seek,
        clock=ask.clock.model_dump() if ask.clock is not None else None,
        account=player, asker=await requester(request),
        token=seats.browser_token(request),
        client=request.client.host if request.client else "")
    answer = PairingAnswer(game=paired.game, url=f"/game/{paired.game}",
                           waiting=paired.waiting)
    response = JSONResponse(answer.model_dump())
    if paired.token is not None:
        seats.set_token(response, request, paired.token)
    return response


@router.post("/api/challenge", status_code=201)
async def challenge(request: Request, web: Web, player: Player) -> Response:
    """Send a challenge (JSON: :class:`~casino.web.bodies.ChallengeRequest`): a room for
    friends whose second seat is the named account's; 201 with the room
    (:class:`~casino.web.bodies.GameMade`, no invite: it goes to the addressee's lobby)."""
    service = web.service
    ask = await game_body(request, web, ChallengeRequest)
    created = await service.live.db(
        Challenges(service).send, name=ask.name, rules=ask.rules, players=ask.players,
        rated=ask.rated, clock=ask.clock.model_dump() if ask.clock is not None else None,
        account=player, token=seats.browser_token(request),
        client=request.client.host if request.client else "")
    made = GameMade(game=created.game, url=f"/game/{created.game}")
    response = JSONResponse(made.model_dump(exclude_none=True), status_code=201)
    seats.set_token(response, request, created.token)
    return response


@router.post("/api/challenges/{game_id}/decline")
async def decline(game_id: str, web: Web, player: Player) -> Withdrawn:
    """Decline a challenge sent to the player, or withdraw one they sent
    (:class:`~casino.web.bodies.Withdrawn`)."""
    done = await Challenges(web.service).decline(game_id, player)
    return Withdrawn(game=game_id[:64], withdrawn=done)
