"""A Finnish Kasino friends game in which both people only trail, through a real server.

Without compulsory capture the table grows with every trail: by the last deal of
the round it holds every card but the few in hand (up to 51), a table on which
the plain enumeration of moves would run for hours. Every turn must still be
answered, every message stay under the 64 KiB a page should ever receive, and
a computer game played at the same time on the same server must keep getting
its answers. Work is bounded by counting messages, never by a clock (the
``SAFETY`` wait is a net against a hang, not a measure).
"""

from __future__ import annotations

import json
from contextlib import AsyncExitStack
from typing import Any

import pytest

from casino.web.limits import Limits
from tests.web_clients import SAFETY, Tab, browsers, fresh_address, opened, run
from tests.web_helpers import Served

#: The most bytes one message to a page may hold.
MESSAGE_CEILING = 64 * 1024
#: Messages a seat may read while waiting for one turn (states of the other's move,
#: pings): far more than a turn needs, far fewer than a stuck server would cause.
STEPS_PER_TURN = 50


async def read_past(tab: Tab, version: int, sizes: list[int]) -> dict[str, Any]:
    """Messages until ``tab`` holds a state newer than ``version``; errors fail."""
    for _ in range(STEPS_PER_TURN):
        if tab.version > version:
            return tab.view
        m = await tab.recv()
        assert m["type"] != "error", m
        sizes.append(len(json.dumps(m)))
    raise AssertionError("a turn was not answered within the step bound")


async def read_until_turn(tab: Tab, sizes: list[int]) -> dict[str, Any]:
    for _ in range(STEPS_PER_TURN):
        if tab.view and (tab.view["your_turn"] or tab.view["status"] != "playing"):
            return tab.view
        m = await tab.recv()
        assert m["type"] != "error", m
        sizes.append(len(json.dumps(m)))
    raise AssertionError("a turn was not answered within the step bound")


@pytest.mark.timeout(600)
def test_both_people_trail_until_the_table_is_full_and_every_turn_is_answered(
        live_server: Served) -> None:
    with browsers(live_server, [fresh_address(), fresh_address(), fresh_address()]) as (
            ann, bo, other):
        r = ann.post_game(rules="kasino", mode="friends", name="Ann")
        assert r.status_code == 201, r.text
        game, invite = str(r.json()["game"]), str(r.json()["invite"])
        joined = bo.http.get(f"{invite}?name=Bo", follow_redirects=False)
        assert joined.status_code == 303, joined.text
        computer_game = other.new_game(rules="kasino")

        async def scenario(stack: AsyncExitStack) -> dict[str, Any]:
            tabs = [await opened(stack, b, game) for b in (ann, bo)]
            side = await opened(stack, other, computer_game)
            for t in (*tabs, side):
                # The server answers faster than the 20 messages a second a connection
                # may send; a person never plays that fast, so the test keeps under it.
                t.pace = 1.25 / Limits().messages_per_second
                await t.hello()
            sizes: list[int] = []
            largest_table = 0
            turns = side_turns = 0
            while tabs[0].view["status"] == "playing" and tabs[0].view["round"] == 1:
                mover = next((t for t in tabs if t.view["your_turn"]), None)
                if mover is None:
                    await read_until_turn(tabs[0], sizes)
                    await read_until_turn(tabs[1], sizes)
                    continue
                view = mover.view
                largest_table = max(largest_table, len(view["table"]))
                before = mover.version
                await mover.send({"type": "play", "move": view["hand"][0],
                                  "version": before})
                turns += 1
                for t in tabs:
                    await read_past(t, before, sizes)
                # The computer game on the same server moves on meanwhile.
                side_view = await read_until_turn(side, sizes)
                if side_view["status"] == "playing" and side_view["your_turn"]:
                    was = side.version
                    await side.send({"type": "play", "move": side_view["legal"][0]["text"],
                                     "version": was})
                    side_turns += 1
                    await read_past(side, was, sizes)
                if turns > 60:
                    break
            return {"sizes": sizes, "largest": largest_table, "turns": turns,
                    "side_turns": side_turns, "end": tabs[0].view}

        out = run(scenario)
    assert out["turns"] == 48, out["turns"]  # every card dealt to a hand was trailed
    assert out["largest"] >= 45, out["largest"]
    assert max(out["sizes"]) <= MESSAGE_CEILING, max(out["sizes"])
    assert out["side_turns"] >= 10, out["side_turns"]
    assert SAFETY  # the per-wait safety net of the shared helpers
