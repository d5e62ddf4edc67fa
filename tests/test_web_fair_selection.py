"""Fair shares of the selection workers, per seat (issue 46), the small tables' choices
worked out at once, and the hints counted per player.

The audit found a flood of ``options`` turning a victim's turns into "moves unknown",
and ordinary load doing the same on up to 427 turns of a 200-game run. Nothing here
measures time: a gate holds the one worker (a thread, ``pool_workers`` 0), and the
tests count the order in which the jobs reached it.
"""

from __future__ import annotations

import asyncio
import pickle
import random
import threading
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import WebSocket

import casino.web.turns as turns_module
from casino.engine.match import Match
from casino.engine.movegen import Budget, TooMuchWork, generate
from casino.engine.moves import TRAIL
from casino.engine.position import Position
from casino.web import create_app
from casino.web.computers import hint_asker
from casino.web.fairqueue import LineFull, RankedLine, TooMany
from casino.web.limits import Limits
from casino.web.requester import requester
from casino.web.turns import (
    INLINE_STEPS,
    OPTIONS,
    TURN,
    OptionsJob,
    Turns,
    seat_owner,
    too_many_selections,
)
from casino.web.views import card_choices, options_json, unknown_options
from tests.web_helpers import ACCOUNTS, FAST, browser, db_url, new_game, sign_up, web

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: The longest a gated job waits for its test to open the gate: a safety net.
SAFETY = 30.0


class Job:
    """A job told apart by identity, as the selection's are."""

    def __init__(self, name: str) -> None:
        self.name = name


# ----------------------------------------------------------------------
# The ranked line, job by job


def test_a_first_rank_job_starts_before_every_later_rank_one_and_has_its_own_places() -> None:
    line: RankedLine[Job] = RankedLine(1, ranks=2, waiting=2, each=2)
    line.admit(OPTIONS, "a:0", Job("a0"))
    started = line.next()
    assert started is not None and started[2].name == "a0"  # the worker is busy
    line.admit(OPTIONS, "a:0", Job("a0 again"))
    with pytest.raises(TooMany):  # one seat: running and waiting, two of a kind
        line.admit(OPTIONS, "a:0", Job("a0 third"))
    line.admit(OPTIONS, "b:0", Job("b0"))
    with pytest.raises(LineFull):  # the options' two places are taken, none by two more
        line.admit(OPTIONS, "c:0", Job("c0"))
    line.admit(TURN, "v:1", Job("victim's turn"))  # the turns' places are its own
    order = []
    line.done(OPTIONS, "a:0")
    while (popped := line.next()) is not None:
        order.append(popped[2].name)
        line.done(popped[0], popped[1])
    assert order == ["victim's turn", "b0", "a0 again"]


# ----------------------------------------------------------------------
# Through the turns: a flood of options and a victim's turn


def turns_of(**limits: Any) -> Turns:
    """Turns with one worker thread and no app: only their limits are read."""
    service = SimpleNamespace(limits=Limits(**{**FAST.__dict__, **limits}), pool_workers=0)
    return Turns(service)  # type: ignore[arg-type]


def a_view(seed: int) -> Position:
    match = Match("casino", seed=seed)
    return match.position.observe(match.position.to_move)


def test_an_options_flood_waits_behind_the_victims_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Six attacking seats (their games, their tabs) ask options at once, one of them
    # three times; then a victim's turn needs its choices. The victim's are the next
    # job the worker runs, after the one running: within one job's time.
    turns = turns_of(select_waiting=16, select_per_seat=2)
    turns.inline_steps = 0  # every job to the worker, to count them
    gate = threading.Event()
    order: list[str] = []
    labels: dict[int, str] = {}

    def gated_options(view: Position, card: int, uses: tuple[str, ...], *rest: Any
                      ) -> dict[str, Any]:
        order.append(labels[id(view)])
        assert gate.wait(SAFETY), "the gate was never opened"
        return unknown_options(card, uses, "worked out")

    def gated_choices(view: Position) -> dict[str, Any]:
        order.append(labels[id(view)])
        return {"legal": [], "cards": []}

    monkeypatch.setattr(turns_module, "options_json", gated_options)
    monkeypatch.setattr(turns_module, "card_choices", gated_choices)

    def options_job(label: str, owner: str) -> OptionsJob:
        view = a_view(1)
        labels[id(view)] = label
        return OptionsJob(0, view, view.hand(view.to_move)[0], (), (), (), owner)

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        flood = [options_job("a0", seat_owner("attack0", 0)),
                 options_job("a0 second", seat_owner("attack0", 0)),
                 options_job("a0 third", seat_owner("attack0", 0))]
        flood += [options_job(f"a{k}", seat_owner(f"attack{k}", 0)) for k in range(1, 6)]
        asked = [asyncio.ensure_future(turns.options(job)) for job in flood]
        await asyncio.sleep(0)  # every request is in line, or refused
        victim = a_view(2)
        labels[id(victim)] = "victim's turn"
        choices = asyncio.ensure_future(turns.choices_of(victim, game="victim"))
        await asyncio.sleep(0)
        gate.set()
        return list(await asyncio.gather(*asked)), await choices

    try:
        answers, choices = asyncio.run(scenario())
    finally:
        gate.set()
        turns.close()
    assert order[:2] == ["a0", "victim's turn"]
    assert order == ["a0", "victim's turn", "a1", "a2", "a3", "a4", "a5", "a0 second"]
    assert choices == {"legal": [], "cards": []}
    refused = answers[2]
    assert refused["unknown"] == too_many_selections(2) == (
        "your seat has 2 selections being worked out already: pick again once they are "
        "answered")
    assert all(a["unknown"] == "worked out" for k, a in enumerate(answers) if k != 2)


# ----------------------------------------------------------------------
# Small tables inline: only within the step bound, and the worker's answer exactly


def steps_needed(view: Position, cap: int) -> int:
    """The steps the engine's listing of ``view`` takes, or ``cap + 1`` when more."""
    budget = Budget(cap)
    try:
        generate(view.rules, view.hand(view.to_move), view.loose, view.builds,
                 view.to_move, budget)
    except TooMuchWork:
        return cap + 1
    return budget.used


def positions(rules: str, seed: int) -> list[Position]:
    """The positions of a game where the players mostly trail (crowded tables come)."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    seen = []
    for _ in range(120):
        pos = match.position
        if pos.result is not None:
            if match.is_over:
                break
            match.next_round()
            continue
        seen.append(pos)
        moves = pos.candidate_moves().moves
        trails = [m for m in moves if m.kind == TRAIL]
        match.play(rng.choice(trails) if trails and rng.random() < 0.8 else rng.choice(moves))
    return seen


@pytest.mark.parametrize(("rules", "seed"), [("casino", 3), ("kasino", 4)])
def test_small_tables_are_answered_inline_with_the_workers_answer(
        rules: str, seed: int) -> None:
    turns = turns_of()
    sent: list[int] = []

    async def to_worker(rank: int, owner: str, fn: Any, *args: Any) -> dict[str, Any]:
        sent.append(rank)
        answer: dict[str, Any] = fn(*args)
        return answer

    turns._selected = to_worker  # type: ignore[method-assign]
    inline = crowded = 0
    for pos in positions(rules, seed):
        view = pos.observe(pos.to_move)
        cheap = steps_needed(view, 100 * INLINE_STEPS) <= INLINE_STEPS
        before = len(sent)
        got = asyncio.run(turns.choices_of(view, game="g"))
        assert len(sent) == before + (not cheap)  # inline exactly within the bound
        # What a worker answers: the view as pickled to it, fresh of any listing.
        worker = card_choices(pickle.loads(pickle.dumps(pos.observe(pos.to_move))))
        assert got == worker
        card = view.hand(view.to_move)[0]
        loose = view.loose[:1]
        ids = ("t0",) if loose else ()
        job = OptionsJob(0, pos.observe(pos.to_move), card, ids, tuple(loose), ())
        answer = asyncio.run(turns.options(job))
        assert len(sent) == before + 2 * (not cheap)
        fresh = pickle.loads(pickle.dumps(pos.observe(pos.to_move)))
        assert {k: v for k, v in answer.items() if k != "version"} == \
            options_json(fresh, card, ids, tuple(loose), ())
        inline += cheap
        crowded += not cheap
    assert inline and crowded, (inline, crowded)  # both paths were seen


# ----------------------------------------------------------------------
# Hints: per player


def test_hints_count_per_player_not_per_address(tmp_path: Path) -> None:
    # The rate of hints belongs to the asker's identity: one account wherever it comes
    # from, one guest network for its several addresses.
    assert hint_asker("account 7") == "account 7"
    assert hint_asker("network 10.1.1.0/24") == "network 10.1.1.0/24"
    assert hint_asker("10.1.1.7") == hint_asker("10.1.1.200") == "network 10.1.1.0/24"
    assert hint_asker("2001:db8::/64") == hint_asker("2001:db8::1") == \
        "network 2001:db8::/64"
    limits = Limits(**{**FAST.__dict__, "hints_per_minute": 0.001, "hint_burst": 2})
    with web(tmp_path, limits=limits) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        gid = new_game(client)

        async def ask(who: str) -> str:
            game = await service.live.get(gid)
            try:
                answer = await service.computers.hint(game, game.session.to_move, who)
            except Exception as e:  # a GameError in words
                return str(getattr(e, "message", e))
            return str(answer["type"])

        def hint(who: str) -> str:
            return str(client.portal.call(ask, who))  # type: ignore[union-attr]

        assert [hint("10.1.1.7"), hint("10.1.1.8")] == ["hint", "hint"]
        assert hint("10.1.1.9") == ("your network has asked for too many hints: at most "
                                    "0.001 a minute")
        assert [hint("account a"), hint("account a")] == ["hint", "hint"]
        assert hint("account a").startswith("your account has asked for too many hints")
        assert hint("10.1.2.7") == "hint"  # another network, its own count


def test_a_websocket_is_asked_who_it_is_as_a_request_is(tmp_path: Path) -> None:
    # The game's WebSocket can hand the hints its player's identity: requester reads a
    # WebSocket's session cookie and address as it reads a request's.
    app = create_app(db_url(tmp_path), pool_workers=0, limits=ACCOUNTS)

    async def who(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text(await requester(ws))
        await ws.close()

    app.add_api_websocket_route("/test/who", who)
    with TestClient(app) as client:
        ann = browser(client, "10.1.1.2")
        assert sign_up(ann, "Ann", "correct horse battery").status_code == 201
        with ann.websocket_connect("/test/who") as ws:
            assert ws.receive_text().startswith("account ")
        with browser(client, "10.1.1.3").websocket_connect("/test/who") as ws:
            assert ws.receive_text() == "network 10.1.1.0/24"
