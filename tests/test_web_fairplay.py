"""Fair play in the web game: the table's settings, take-backs between people, resigning,
and letting the computer play for a person who went away; each one in the game record.

Everything goes through the app (HTTP and the game WebSocket), as a browser would.
Nothing asserts on wall-clock time: a test that needs someone to have been away
uses a tiny ``abandon_after`` and waits for the state that says so.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from casino.engine.record import Settings, read_record, write_record
from casino.web.limits import Limits
from tests.web_helpers import FAST, Seat, guest, new_game, web

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: The most messages a seat reads while waiting for something the server must send.
MAX_MESSAGES = 200


def room(ann: TestClient, **body: Any) -> tuple[str, str]:
    """A room made by Ann (beginner computers for any seat not a person's): (id, invite)."""
    r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                     "level": "beginner", **body})
    assert r.status_code == 201, r.text
    return str(r.json()["game"]), str(r.json()["invite"])


def join(client: TestClient, invite: str, name: str) -> None:
    r = client.get(f"{invite}?name={name}", follow_redirects=False)
    assert r.status_code == 303, r.text


def stored(client: TestClient, gid: str) -> str:
    """The record the server has stored for a game (finished or not)."""
    return str(client.app.state.store.load(gid).record)  # type: ignore[attr-defined]


def sync(*seats: Seat, version: int) -> None:
    for s in seats:
        s.until_version(version)


def acted(actor: Seat, *others: Seat) -> None:
    """Wait for the state an action of ``actor`` caused, and bring the others to it."""
    actor.recv_type("state")
    sync(*others, version=actor.version)


def events_of(seat: Seat) -> list[dict[str, Any]]:
    return [e for m in seat.payloads if m["type"] == "state" for e in m["events"]]


def until(seat: Seat, check: Any) -> dict[str, Any]:
    """Read ``seat``'s messages until its view passes ``check``; that view."""
    for _ in range(MAX_MESSAGES):
        if seat.view and check(seat.view):
            return seat.view
        seat.recv()
    raise AssertionError(f"the view never changed as expected: {seat.view}")


def turn_of(mover: Seat, other: Seat) -> None:
    """Play (the other's first legal moves) until it is ``mover``'s turn."""
    while not mover.view["your_turn"]:
        assert other.view["your_turn"]
        other.play_first()
        acted(other, mover)


# ----------------------------------------------------------------------
# Settings


def test_settings_default_to_on_against_the_computer_and_off_between_people(
        tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid = new_game(ann)
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            v = Seat(ws).hello(0)["view"]
        assert v["settings"] == {"hints": True, "takebacks": True,
                                 "words": "Hints on · Take-backs on"}
        assert read_record(stored(ann, gid)).table == Settings(hints=True, takebacks=True)

        bob = guest(ann)
        gid, invite = room(ann)
        join(bob, invite, "Bob")
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Seat(wa), Seat(wb)
            a.hello(0)
            b.hello(0)
            for s in (a, b):  # every player sees what the table allows
                assert s.view["settings"] == {"hints": False, "takebacks": False,
                                              "words": "Hints off · Take-backs off"}
                assert not s.view["can_hint"] and not s.view["can_undo"]
            mover = a if a.view["your_turn"] else b
            mover.send({"type": "hint"})
            assert mover.error() == "hints are off at this table"
            mover.play_first()
            acted(mover, b if mover is a else a)
            assert not mover.view["can_undo"]
            mover.send({"type": "undo"})
            assert mover.error() == "take-backs are off at this table"
        text = stored(ann, gid)
        assert "table hints=off takebacks=off" in text.splitlines()
        assert read_record(text).notes == ()  # refusals change nothing, and note nothing


def test_the_settings_are_chosen_when_the_game_is_made_and_checked(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        for bad in ("yes", 1, [True]):
            r = ann.post("/api/games", json={"mode": "computer", "hints": bad})
            assert r.status_code == 400
            assert r.json()["error"].startswith("\"hints\" in the new game request: ")
        gid = new_game(ann, hints=False, takebacks=False)
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            v = seat.until_actionable()
            assert v["settings"]["words"] == "Hints off · Take-backs off"
            assert not v["can_hint"]
            seat.send({"type": "hint"})
            assert seat.error() == "hints are off at this table"
            seat.play_first()
            seat.recv_type("state")
            assert not seat.until_actionable()["can_undo"]
        assert "table hints=off takebacks=off" in stored(ann, gid).splitlines()


def test_hints_and_take_backs_between_people_are_announced_and_recorded(
        tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        bob = guest(ann)
        gid, invite = room(ann, hints=True, takebacks=True)
        join(bob, invite, "Bob")
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Seat(wa), Seat(wb)
            a.hello(0)
            b.hello(0)
            names = {id(a): "Ann", id(b): "Bob"}
            mover, other = (a, b) if a.view["your_turn"] else (b, a)
            assert mover.view["can_hint"] and not other.view["can_hint"]
            other.send({"type": "hint"})
            assert other.error() == "a hint is for your own turn"
            mover.send({"type": "hint"})
            hint = mover.recv_type("hint")
            # The hint names its move's card and table items for the page; the view's
            # list of that card holds it unless the list is capped.
            assert hint["option"]["text"] == hint["move"]
            card = next(c for c in mover.view["cards"] if c["card"] == hint["option"]["card"])
            assert hint["move"] in [m["text"] for m in mover.view["legal"]] \
                or not card["complete"]
            sync(other, version=mover.version)
            told = [e for e in events_of(other) if e["kind"] == "hint"]
            assert [e["words"] for e in told] == [f"{names[id(mover)]} asked for a hint"]
            assert [e["words"] for e in events_of(mover) if e["kind"] == "hint"] == [
                "You asked for a hint"]
            before = mover.view["hand"], mover.view["table"]
            mover.play_first()
            acted(mover, other)
            assert mover.view["can_undo"] and not other.view["can_undo"]
            mover.send({"type": "undo", "version": mover.version})
            acted(mover, other)
            assert mover.view["your_turn"] and (mover.view["hand"], mover.view["table"]) == before
            undo = [e for e in events_of(other) if e["kind"] == "undo"][-1]
            assert undo["words"].startswith(f"{names[id(mover)]} took back 1 move (")
            # Once the other person has moved, the move stands.
            mover.play_first()
            acted(mover, other)
            other.play_first()
            acted(other, mover)
            assert not mover.view["can_undo"]
            mover.send({"type": "undo"})
            assert mover.error() == (f"{names[id(other)]} has moved since: a move can be taken "
                                     "back only until another player moves")
        text = stored(ann, gid)
        record = read_record(text)
        assert record.table == Settings(hints=True, takebacks=True)
        assert [n.kind for n in record.notes] == ["hint", "undo"]
        assert write_record(record) == text
        assert sum(len(r.moves) for r in record.rounds) == 2  # the move taken back is no move


# ----------------------------------------------------------------------
# Resigning


def test_resigning_a_two_player_game_ends_it_and_the_other_wins(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        bob = guest(ann)
        gid, invite = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Seat(wa)
            a.hello(0)
            a.send({"type": "resign"})
            assert a.error() == "wait for everyone to join before playing"
        join(bob, invite, "Bob")
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Seat(wa), Seat(wb)
            a.hello(0)
            b.hello(0)
            assert a.view["can_resign"] and b.view["resign_words"] == "the other side wins at once"
            b.send({"type": "resign"})
            acted(b, a)
            for s in (a, b):
                v = s.view
                assert v["status"] == "over" and v["game_over"] and v["winner"] == 0
                assert v["result"]["summary"] == "Bob resigned: Ann wins"
                assert not v["your_turn"] and not v["can_resign"] and v["legal"] == []
            kinds = [(e["kind"], e["words"]) for e in events_of(a)][-2:]
            assert kinds == [("resign", "Bob resigned"), ("game_over", "Bob resigned: Ann wins")]
            assert [e["words"] for e in events_of(b) if e["kind"] == "resign"] == ["You resigned"]
            b.send({"type": "resign"})
            assert b.error() == "the game is over"
        rec = ann.get(f"/records/{gid}.rec")  # a finished game's record is published
        assert rec.status_code == 200
        assert rec.text.endswith("resign 1\nwinner 0\nend\n")
        record = read_record(rec.text)
        assert record.is_over and record.winner == 0 and record.resigned == 1
        replay = ann.get(f"/api/records/{gid}").json()
        assert replay["winner"] == 0 and replay["result"]["summary"] == "Bob resigned: Ann wins"
        assert [(n["kind"], n["words"]) for n in replay["notes"]] == [("resign", "Bob resigned")]
        assert replay["settings"]["words"] == "Hints off · Take-backs off"


def test_resigning_a_three_player_game_hands_the_seat_to_a_computer(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        bob = guest(ann)
        gid, invite = room(ann, rules="classic", players=3, people=2)
        join(bob, invite, "Bob")
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Seat(wa), Seat(wb)
            a.hello(0)
            b.hello(0)
            assert a.view["resign_words"] == ("a computer plays your seat from then on, and "
                                              "the others play on")
            a.send({"type": "resign"})
            a.recv_type("state")
            v = until(b, lambda v: v["players"][0] == "beginner")
            assert v["status"] == "playing" and not v["game_over"]
            words = [e["words"] for e in events_of(b) if e["kind"] in ("resign", "takeover")]
            assert words == ["Ann resigned", "The computer (beginner) plays for Ann from now on"]
            # Ann keeps her seat's view and watches; the game goes on without her.
            v = until(a, lambda v: v["players"][0] == "beginner")
            assert v["message"] == "The computer (beginner) plays your seat now: you are watching."
            assert not v["can_resign"] and not v["your_turn"] and v["hand"]
            moves = len(b.view["log"])
            for _ in range(6):
                until(b, lambda v: v["your_turn"] or v["status"] != "playing")
                if b.view["status"] != "playing":
                    break
                b.play_first()
                b.recv_type("state")
            assert any(e["seat"] == 0 for e in b.view["log"][moves:])  # the computer plays
            # Bob is now the last person: his resignation ends the game without a winner.
            assert b.view["resign_words"] == ("the game ends without a winner: nobody else "
                                              "is left to play")
            b.send({"type": "resign"})
            v = until(b, lambda v: v["status"] == "over")
            assert v["winner"] is None and v["result"]["summary"] == (
                "Bob resigned, the last person at the table: the game ends without a winner")
        text = stored(ann, gid)
        lines = text.splitlines()
        assert lines[lines.index("resign 0") + 1] == "takeover 0 beginner"
        assert "players beginner human beginner" in lines and text.endswith("resign 1\nend\n")
        record = read_record(text)
        assert record.is_over and record.winner is None


# ----------------------------------------------------------------------
# Away players


def test_a_claim_is_refused_until_the_person_has_been_away_long_enough(tmp_path: Path) -> None:
    patient = Limits(**{**FAST.__dict__, "abandon_after": 3600.0})
    with web(tmp_path, limits=patient) as ann:
        bob = guest(ann)
        gid, invite = room(ann)
        join(bob, invite, "Bob")
        with bob.websocket_connect(f"/ws/{gid}") as wb:
            b = Seat(wb)
            b.hello(0)
            with ann.websocket_connect(f"/ws/{gid}") as wa:
                a = Seat(wa)
                a.hello(0)
                turn_of(a, b)
                b.send({"type": "claim", "seat": 0})
                assert b.error() == "Ann is here: their game page is open"
                for bad in ("0", 2, True, None):
                    b.send({"type": "claim", "seat": bad})
                    assert "a claim names the \"seat\" of the player who is away" in b.error()
                b.send({"type": "claim", "seat": 1})
                assert b.error() == "that is your own seat: resign instead, if you want to leave"
            # Ann has gone, on her turn: too early for a claim; the game waits for her.
            b.send({"type": "claim", "seat": 0})
            assert b.error() == ("Ann has been away for less than a minute; the computer may "
                                 "play for them after 60 minutes")
            assert b.view["away"] is None and b.view["players"] == ["human", "human"]
            with ann.websocket_connect(f"/ws/{gid}") as wa:  # she comes back and plays on
                a = Seat(wa)
                assert a.hello(0)["view"]["your_turn"]
                a.play_first()
                acted(a, b)
                b.send({"type": "claim", "seat": 0})
                assert b.error() == "it is not Ann's turn: nobody is waiting for them"
        assert "takeover" not in stored(ann, gid)


def test_after_the_limit_the_others_may_let_the_computer_play_for_the_away_person(
        tmp_path: Path) -> None:
    quick = Limits(**{**FAST.__dict__, "abandon_after": 0.05})
    with web(tmp_path, limits=quick) as ann:
        bob = guest(ann)
        gid, invite = room(ann)
        join(bob, invite, "Bob")
        with bob.websocket_connect(f"/ws/{gid}") as wb:
            b = Seat(wb)
            b.hello(0)
            with ann.websocket_connect(f"/ws/{gid}") as wa:
                a = Seat(wa)
                a.hello(0)
                turn_of(a, b)
                assert b.view["away"] is None  # she is here, thinking
            # She leaves on her turn: once the limit passes, Bob is told, without any move.
            v = until(b, lambda v: v["away"] is not None)
            assert v["away"]["seat"] == 0 and v["away"]["name"] == "Ann"
            assert v["away"]["can_claim"] and v["away"]["words"].startswith(
                "Ann has been away for ")
            # She comes back: the notice goes; she leaves again, and it comes back.
            with ann.websocket_connect(f"/ws/{gid}") as wa:
                Seat(wa).hello(0)
                until(b, lambda v: v["away"] is None)
                b.send({"type": "claim", "seat": 0})
                assert b.error() == "Ann is here: their game page is open"
            until(b, lambda v: v["away"] is not None)
            b.send({"type": "claim", "seat": 0, "version": b.version})
            v = until(b, lambda v: v["players"][0] == "beginner")
            assert v["away"] is None
            told = [e["words"] for e in events_of(b) if e["kind"] == "takeover"]
            assert told == ["The computer (beginner) plays for Ann from now on"]
            until(b, lambda v: v["your_turn"])  # the computer made Ann's move
            assert b.view["log"][-1]["seat"] == 0
            b.send({"type": "claim", "seat": 0})
            assert b.error() == "a computer plays for Ann already"
        # Ann comes back after the takeover: she keeps her seat's view, and watches.
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            v = Seat(wa).hello(0)["view"]
            assert v["you"] == 0 and v["hand"] and not v["your_turn"] and v["legal"] == []
            assert v["message"] == "The computer (beginner) plays your seat now: you are watching."
            assert not v["can_resign"] and not v["can_hint"]
        text = stored(ann, gid)
        assert "takeover 0 beginner" in text.splitlines()
        assert read_record(text).players == ("beginner", "human")


def test_absence_is_told_in_whole_minutes() -> None:
    from casino.web.table_words import duration_words

    assert [duration_words(s) for s in (0, 59.9, 60, 119, 180, 3600)] == [
        "less than a minute", "less than a minute", "1 minute", "1 minute", "3 minutes",
        "60 minutes"]
