"""The web game's JSON API: new games and rooms, the lobby's lists, finished games'
replays and their post-game reviews (docs/server.md). The game itself is played over
the WebSocket (:mod:`casino.web.routes.socket`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from casino.engine.record import read_record
from casino.play.names import shown_names
from casino.teach.review import default_seat
from casino.web import seats
from casino.web.accounts.profiles import recent_results
from casino.web.accounts.store import Account
from casino.web.bodies import GameMade, NewGame
from casino.web.daily import DAILY, margin_of, margin_words
from casino.web.requester import requester
from casino.web.reviews import COMPUTING, DONE
from casino.web.rooms import listed_json
from casino.web.routes.context import Player, Web, finished, game_body
from casino.web.routes.daily import check_shown
from casino.web.service import LiveGame
from casino.web.store import OVER, Store, token_hash
from casino.web.table_words import dealt_words, resignation_words
from casino.web.views import items_json, result_json, rules_json
from casino.words.narrate import told_play

router = APIRouter()


@router.post("/api/games", status_code=201)
async def new_game(request: Request, web: Web, player: Player) -> Response:
    """Create a game against the computer or a room (JSON: :class:`~casino.web.bodies.NewGame`,
    read once) and seat the browser (and the account signed in there, whose name the
    seat takes); 201 with the game's address, and a room's invite
    (:class:`~casino.web.bodies.GameMade`)."""
    service = web.service
    new = await game_body(request, web, NewGame)
    created = await service.live.db(
        service.rooms.create, **new.model_dump(),
        client=request.client.host if request.client else "",
        token=seats.browser_token(request), account=player)
    game = await service.live.get(created.game)
    if game is not None:
        service.computers.kick(game)
    made = GameMade(game=created.game, url=f"/game/{created.game}", invite=created.invite)
    response = JSONResponse(made.model_dump(exclude_none=True), status_code=201)
    seats.set_token(response, request, created.token)
    return response


@router.get("/api/games")
async def list_games(request: Request, web: Web, player: Player) -> dict[str, Any]:
    """The lobby's lists as JSON: the open rooms and the browser's own games (and the
    account's, signed in), each finished one of those with its result."""
    token = seats.browser_token(request)
    lists = await web.service.live.db(web.service.rooms.lists, token, player)
    return await web.service.live.db(_with_results, web.store, lists, token, player)


def _with_results(store: Store, lists: dict[str, Any], token: str | None,
                  player: Account | None) -> dict[str, Any]:
    """``lists`` with the result and opponents of each recent game the browser or the
    account played to its end (null for the others'), and those of its latest finished
    games that other games' ends have pushed out of the recent list put back in."""
    results = recent_results(store, token_hash(token) if token else None,
                             player.id if player else None)
    recent: list[dict[str, Any]] = lists["recent"]
    missing = [g for g, _, _ in results if g not in {e["game"] for e in recent}]
    if missing:
        recent += [listed_json(g, url=True)
                   for g in store.listing(status=OVER, limit=len(missing), ids=missing)]
    found = {g: (result, list(opponents)) for g, result, opponents in results}
    for entry in recent:
        entry["result"], entry["opponents"] = found.get(entry["game"], (None, None))
    recent.sort(key=lambda e: e["updated"] or "", reverse=True)
    return lists


@router.get("/api/records/{game_id}")
async def record_json(request: Request, game_id: str, web: Web) -> dict[str, Any]:
    """A finished game's replay as JSON: every step, for the replay page."""
    game = await finished(web.service, game_id)
    await check_shown(request, web, game)
    return replay_json(game)


@router.post("/api/games/{game_id}/review")
async def ask_review(request: Request, game_id: str, web: Web,
                     seat: str | None = None) -> Response:
    """Start computing a finished game's review of ``seat`` (docs/server.md): 200 with
    the review when it is kept, else 202 "computing" (ask again with GET). The reviews
    are shared out by the asker's identity (the account, else the guest's network:
    :func:`~casino.web.requester.requester`), which the service's limits take as it
    is (an identity is no address to narrow)."""
    await check_shown(request, web, await web.service.live.get(game_id))
    answer = await web.service.review(game_id, seat, start=True,
                                      client=await requester(request))
    return JSONResponse(answer, status_code=200 if answer["status"] == DONE else 202)


@router.get("/api/games/{game_id}/review")
async def get_review(request: Request, game_id: str, web: Web,
                     seat: str | None = None) -> Response:
    """A finished game's review of ``seat``: 200 done (with it) or none yet, 202
    computing; a review whose computing failed is said once (503)."""
    await check_shown(request, web, await web.service.live.get(game_id))
    answer = await web.service.review(game_id, seat)
    return JSONResponse(answer, status_code=202 if answer["status"] == COMPUTING else 200)


def replay_json(game: LiveGame) -> dict[str, Any]:
    """A finished game move by move for the replay page: every position, every move.

    ``positions[i + 1]`` follows ``moves[i]``. Where a round ends the next
    round's deal is a step of its own (``kind: "deal"``, ``text: null``).
    """
    s = game.session
    names = shown_names(s.names)  # a table's default names in the reader's language
    record = read_record(s.record_text())
    rules = record.rules
    positions: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    starts: dict[int, int] = {}  # round number -> index of its first position
    for rnd in record.rounds:
        starts[rnd.number] = len(positions)
        if positions:
            moves.append({"kind": "deal", "round": rnd.number, "deal": 1, "seat": rnd.dealer,
                          "text": None,
                          "words": dealt_words(rules, names, rnd.number, rnd.dealer)})
        positions.append(rnd.start.to_json())
        for k, (seat, move) in enumerate(zip(rnd.movers, rnd.moves, strict=True)):
            before, after = rnd.positions[k], rnd.positions[k + 1]
            moves.append({"kind": "move", "round": rnd.number, "deal": before.deal,
                          "seat": seat, "text": str(move),
                          "words": told_play(before, move, after, seat, names)})
            positions.append(after.to_json())
    rounds = [{"round": r.number, "items": items_json(rules, r.result, r.start.scores),
               "scores": list(r.result.scores)} for r in record.rounds if r.result is not None]
    last = record.rounds[-1]
    result = (result_json(rules, last.result, last.start.scores, names)
              if last.result is not None else None)
    if game.mode == DAILY and result is not None:  # one round: no game goes on
        result["summary"] = margin_words(margin_of(s), names[0])
    ended = resignation_words(s)
    if ended is not None:
        result = {**(result or {"items": [], "scores": list(last.position.scores)}),
                  "winner": record.winner, "summary": ended}
    notes = [{"kind": n.kind, "seat": n.seat, "round": n.round,
              # a note of moves later taken back shows where the round's moves end
              "position": starts[n.round] + min(n.moves, len(record.rounds[n.round - 1].moves)),
              "words": n.words(names[n.seat])} for n in record.notes]
    table = record.table
    return {
        # where each round's first position is, and the seat a review is of by default
        "starts": {str(n): i for n, i in starts.items()}, "review_seat": default_seat(record),
        "game": game.id, "rules": rules_json(rules), "names": list(names),
        "players": list(s.players), "moves": moves, "positions": positions, "rounds": rounds,
        "result": result, "winner": record.winner, "download": f"/records/{game.id}.rec",
        "settings": ({"hints": table.hints, "takebacks": table.takebacks,
                      "words": table.words()} if table is not None else None),
        "notes": notes,
    }
