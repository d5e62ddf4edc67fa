"""The guided first game on the web: "lesson" games carry the seat's step in each view,
from its observation only, and are kept out of the public list of finished games."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from casino.engine.record import read_record
from casino.teach.lesson import LESSON_SEEDS, OPPONENT_LEVEL, lesson_match
from tests.web_helpers import Seat, new_game, scan, web


def without_general(m: dict[str, Any]) -> dict[str, Any]:
    """A payload without the lesson's general text (the glossary's definition or the
    scoring rules: the same for every deal, with example cards of its own)."""
    if m["type"] != "state" or not m["view"].get("lesson"):
        return m
    lesson = {k: v for k, v in m["view"]["lesson"].items() if k != "general"}
    return {**m, "view": {**m["view"], "lesson": lesson}}


def test_a_lesson_game_sends_a_step_every_turn_and_finishes(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client, mode="lesson", rules="tablic", level="expert", players=4)
        stored = client.app.state.store.load(gid)  # type: ignore[attr-defined]
        record = read_record(stored.record)
        # Two players against the beginner, whatever was asked, from the arranged deck.
        assert record.players == ("human", OPPONENT_LEVEL)
        assert record.rounds[0].deck == lesson_match("tablic").rounds[0].deck
        assert stored.mode == "lesson" and "tablic" in LESSON_SEEDS
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            kinds = []
            for _ in range(200):
                v = seat.until_actionable()
                step = v["lesson"]
                assert step is not None and step["text"] and step["title"]
                assert step["guide"] == "/guide/tablic"
                assert step["glossary"].startswith("/glossary#")
                if v["status"] != "playing":
                    break
                kinds.append(step["kind"])
                seat.send({"type": "play", "move": step["move"] or v["legal"][0]["text"]})
                seat.recv_type("state")
            assert v["status"] in ("round_over", "over")
            assert step["kind"] == "scoring" and "This round:" in step["text"]
            assert {"pair", "sum", "sweep", "trail"} <= set(kinds)
            stored = client.app.state.store.load(gid)  # type: ignore[attr-defined]
            checked = scan([without_general(m) for m in seat.payloads], 0,
                           read_record(stored.record))
            assert checked > 10


def test_an_ordinary_game_has_no_lesson_and_lessons_are_not_listed(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        ordinary = new_game(client)
        with client.websocket_connect(f"/ws/{ordinary}") as ws:
            assert Seat(ws).hello(0)["view"]["lesson"] is None
        lesson = new_game(client, mode="lesson")
        service = client.app.state.service  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        # A finished lesson is not in the public list of finished games.
        for gid in (lesson, ordinary):  # stored as over, at the version they are at
            while (live := service.live.games.get(gid)) is not None and live.bot_task is not None:
                time.sleep(0.01)  # (once a computer's first move is stored)
            stored = store.load(gid)
            store.save(gid, record=stored.record, status="over", version=stored.version,
                       events=[], winner=0)
        listed = [g["game"] for g in service.rooms.lists(None)["recent"]]
        assert ordinary in listed and lesson not in listed
