"""The game page plays by selection: bounded move lists in the view, and ``options``.

A crowded table (Finnish Kasino lets people trail until 27 and more cards lie
loose) has hundreds of thousands of legal moves; the view lists a few of each
card and the page asks ``options`` for the moves of a picked card with picked
table items. Here: every state of a crowded game stays small (bytes counted,
nothing timed) and no server path lists a crowded position's moves; the
answers agree with the full enumeration on small tables and hold only legal
moves on crowded ones; bad ``options`` requests get words and change nothing.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from casino.engine.builds import Build
from casino.engine.cards import parse_card
from casino.engine.legality import SMALL_TABLE
from casino.engine.position import Position
from casino.web.limits import Limits
from casino.web.views import MOVES_PER_CARD, OPTIONS_SHOWN, move_uses
from tests.web_helpers import FAST, Seat, guest, new_game, web

if TYPE_CHECKING:
    from starlette.testclient import TestClient

#: The most a message to the page may weigh, whatever the table.
MESSAGE_CEILING = 64 * 1024


class Counted(Seat):
    """A seat that also keeps the size of every message as sent (UTF-8 bytes)."""

    def __init__(self, ws: Any) -> None:
        super().__init__(ws)
        self.sizes: list[tuple[str, int]] = []

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        m: dict[str, Any] = json.loads(text)
        self.sizes.append((m["type"], len(text.encode("utf-8"))))
        self.payloads.append(m)
        if m["type"] == "state":
            self.view = m["view"]
            self.version = m["version"]
        return m

    def options(self, card: str, uses: list[str], **extra: Any) -> dict[str, Any]:
        """Ask about a selection and wait for the answer (an error raises)."""
        self.send({"type": "options", "card": card, "uses": uses, "version": self.version,
                   **extra})
        while True:
            m = self.recv()
            if m["type"] == "options":
                return m
            assert m["type"] != "error", m


@contextmanager
def forbid_enumeration(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Fail any listing of every legal move of a crowded position (in this process:
    the tests' selection workers are a thread); yields the sizes of tables listed."""
    real = Position.legal_moves
    listed: list[int] = []

    def guarded(pos: Position) -> list[Any]:
        listed.append(len(pos.loose))
        assert len(pos.loose) <= SMALL_TABLE, f"listed every move of {len(pos.loose)} loose"
        return real(pos)
    monkeypatch.setattr(Position, "legal_moves", guarded)
    yield listed


def friends_game(client: TestClient, rules: str, seed: int | None = None) -> tuple[str, TestClient]:
    """A room for two, joined (dealt from ``seed`` when given): (its id, the friend's
    client)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    created = service.rooms.create(rules=rules, players=2, level="beginner", mode="friends",
                             name="Ann", seed=seed)
    client.cookies.set("casino", created.token)
    bob = guest(client)
    joined = bob.get(created.invite + "?name=Bob", follow_redirects=False)
    assert joined.status_code == 303
    return created.game, bob


@contextmanager
def both_seats(ann: TestClient, bob: TestClient, gid: str) -> Iterator[dict[int, Counted]]:
    """Ann's and Bob's game pages, both past their hello and on the same version."""
    with ann.websocket_connect(f"/ws/{gid}") as ws_a, \
            bob.websocket_connect(f"/ws/{gid}") as ws_b:
        seats = {0: Counted(ws_a), 1: Counted(ws_b)}
        for s in seats.values():
            s.hello(0)
        seats[0].until_version(seats[1].version)
        yield seats


def trail_until_crowded(seats: dict[int, Counted], loose: int) -> Counted:
    """Both people trail their first card until ``loose`` cards lie on the table and
    the seat to move has a full hand; that seat."""
    for _ in range(200):
        a = seats[0]
        v = a.view
        assert v["status"] == "playing"
        mover = seats[v["to_move"]]
        mover.until_version(a.version)
        if (sum(1 for t in v["table"] if t["kind"] == "card") >= loose
                and len(set(v["hand_counts"])) == 1 and len(mover.view["hand"]) >= 3):
            return mover
        assert mover.view["your_turn"]
        target = a.version + 1
        mover.send({"type": "play", "move": mover.view["hand"][0], "version": a.version})
        for s in seats.values():
            s.until_version(target)
    raise AssertionError("the table did not fill")


def check_bounded(v: dict[str, Any]) -> None:
    """A view's move lists: at most MOVES_PER_CARD of each card, each card described."""
    hand = sorted(set(v["hand"]))
    assert [c["card"] for c in v["cards"]] == sorted(hand, key=parse_card)
    for c in v["cards"]:
        mine = [m for m in v["legal"] if m["card"] == c["card"]]
        assert len(mine) <= MOVES_PER_CARD
        assert c["playable"] == bool(mine)


@pytest.mark.parametrize("rules", ["kasino", "casino", "tablic", "mulle"])
def test_a_crowded_game_is_played_with_bounded_messages(
        rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both people trail until 27 cards lie loose (Finnish Kasino's crowded table; the
    house rules, Tablić and Mulle allow it too), then look at the table and pick."""
    with web(tmp_path) as ann, forbid_enumeration(monkeypatch) as listed:
        service = ann.app.state.service  # type: ignore[attr-defined]
        gid, bob = friends_game(ann, rules, seed=1)
        with both_seats(ann, bob, gid) as seats:
            mover = trail_until_crowded(seats, 27)
            game = service.live.games[gid]
            pos = game.session.match.position
            assert len(pos.loose) >= 27 and not pos.builds
            # A page that opens now gets every event and the view in one message.
            mover.hello(0)
            v = mover.view
            assert v["your_turn"] and v["moves_unknown"] is None
            check_bounded(v)
            assert len(v["legal"]) <= MOVES_PER_CARD * len(v["hand"])
            assert all(c["playable"] and not c["complete"] and c["left"] is None
                       for c in v["cards"])  # a selection, which says so
            for m in v["legal"]:
                assert pos.is_legal(pos.parse_move(m["text"]))
            biggest = max(size for _, size in mover.sizes)
            assert biggest <= MESSAGE_CEILING, biggest
            print(f"{rules} crowded: {len(pos.loose)} loose, {len(v['legal'])} moves listed, "
                  f"largest message {biggest} bytes")
            # Options on the crowded table: only legal moves, each using what was picked.
            ids = [t["id"] for t in v["table"]]
            captures = [m for m in v["legal"] if m["kind"] == "capture"]
            asked = 0
            for card in v["hand"]:
                picks: list[list[str]] = [[], ids[:1], ids[3:5], ids[:9]]
                picks += [m["uses"][:2] for m in captures if m["card"] == card]
                for uses in picks:
                    answer = mover.options(card, uses)
                    asked += 1
                    assert answer["card"] == card and answer["uses"] == uses
                    assert answer["version"] == mover.version and answer["unknown"] is None
                    assert len(answer["exact"]) <= OPTIONS_SHOWN
                    assert len(answer["more"]) <= OPTIONS_SHOWN
                    for m in answer["exact"] + answer["more"]:
                        assert m["card"] == card
                        assert pos.is_legal(pos.parse_move(m["text"])), m["text"]
                        assert set(uses) <= set(m["uses"])
                    assert all(sorted(m["uses"]) == sorted(uses) for m in answer["exact"])
                    assert all(sorted(m["uses"]) != sorted(uses) for m in answer["more"])
                    if not answer["exact"] and not answer["more"]:
                        assert answer["reason"], answer
                    else:
                        assert answer["reason"] is None
            assert asked >= 16
            assert max(size for _, size in mover.sizes) <= MESSAGE_CEILING
            # A move the page found through options is played as the page would: one
            # using a table card of a listed capture (the trail when nothing captures).
            found = next((m for c in captures
                          for m in mover.options(c["card"], c["uses"][:1])["more"]),
                         v["legal"][-1])
            mover.send({"type": "play", "move": found["text"], "version": mover.version})
            mover.recv_type("state")
            assert game.session.log[-1].move == pos.parse_move(found["text"])
            assert not [m for s in seats.values() for m in s.payloads if m["type"] == "error"]
    assert listed == [] or max(listed) <= SMALL_TABLE


def expected(pos: Position, card: int, uses: set[str]) -> tuple[set[str], set[str]]:
    """From the full enumeration: the moves of ``card`` using exactly ``uses``, and those
    using them and more. Items are compared as cards and builds, not by position: with
    two decks the same card can lie twice, and a move takes either copy."""
    items = [pos.table[int(i[1:])] for i in uses]
    picked = Counter(items)
    exact, more = set(), set()
    for m in pos.legal_moves():
        if m.card != card:
            continue
        used: Counter[int | Build] = Counter([*m.loose, *m.builds])
        if used == picked:
            exact.add(str(m))
        elif not picked - used:
            more.add(str(m))
    return exact, more


def test_options_agree_with_every_legal_move_on_small_tables(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        compared = 0
        for rules in ("casino", "kasino", "krypkasino"):
            gid = new_game(client, rules=rules)
            with client.websocket_connect(f"/ws/{gid}") as ws:
                seat = Counted(ws)
                seat.hello(0)
                for _turn in range(3):
                    v = seat.until_actionable()
                    if v["status"] != "playing":
                        break
                    pos = service.live.games[gid].session.view_of(0)
                    assert len(pos.loose) <= SMALL_TABLE
                    # The view's lists: all of a card's moves when they are few.
                    check_bounded(v)
                    for c in v["cards"]:
                        card = parse_card(c["card"])
                        every = {str(m) for m in pos.legal_moves() if m.card == card}
                        mine = {m["text"] for m in v["legal"] if m["card"] == c["card"]}
                        assert mine <= every and c["left"] == len(every) - len(mine)
                        assert c["complete"] == (mine == every)
                    ids = [t["id"] for t in v["table"]]
                    picks = [list(p) for k in range(3) for p in itertools.combinations(ids, k)]
                    for card_text in sorted(set(v["hand"])):
                        card = parse_card(card_text)
                        for uses in [*picks, ids]:
                            answer = seat.options(card_text, uses)
                            exact, more = expected(pos, card, set(uses))
                            got_exact = {m["text"] for m in answer["exact"]}
                            got_more = {m["text"] for m in answer["more"]}
                            assert got_exact <= exact and got_more <= more, (uses, answer)
                            shown = len(got_exact) + len(got_more)
                            assert answer["complete"] == (got_exact == exact
                                                          and got_more == more)
                            assert answer["left"] == len(exact) + len(more) - shown
                            if not exact and not more:
                                assert answer["reason"], (card_text, uses)
                            else:
                                assert answer["reason"] is None
                            compared += 1
                    seat.send({"type": "play", "move": v["legal"][0]["text"]})
                    seat.recv_type("state")
        assert compared > 100


def test_a_hint_names_its_cards_and_items_for_the_page(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Counted(ws)
            seat.hello(0)
            v = seat.until_actionable()
            seat.send({"type": "hint"})
            hint = seat.recv_type("hint")
            option = hint["option"]
            assert option["text"] == hint["move"] and option["card"] in v["hand"]
            pos = service.live.games[gid].session.view_of(0)
            move = pos.parse_move(hint["move"])
            assert pos.is_legal(move) and option["uses"] == move_uses(pos, move)


def test_bad_options_requests_get_words_and_change_nothing(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid, bob = friends_game(ann, "casino")
        with both_seats(ann, bob, gid) as seats:
            v0 = seats[0].view
            mover, other = seats[v0["to_move"]], seats[1 - v0["to_move"]]
            mover.until_version(seats[0].version)
            v = mover.view
            version, hand, table = mover.version, v["hand"], v["table"]
            card = hand[0]
            not_held = next(c for c in ("2c", "3c", "4c", "5c", "6c", "7c") if c not in hand)
            ids = [t["id"] for t in table]
            bad: list[tuple[dict[str, Any], str]] = [
                ({}, "\"card\""),
                ({"card": 7, "uses": []}, "\"card\""),
                ({"card": None, "uses": []}, "\"card\""),
                ({"card": "Zz", "uses": []}, "not a card"),
                ({"card": "x" * 50, "uses": []}, "\"card\""),
                ({"card": not_held, "uses": []}, "do not hold"),
                ({"card": card}, "\"uses\""),
                ({"card": card, "uses": "t0"}, "\"uses\""),
                ({"card": card, "uses": {"t0": 1}}, "\"uses\""),
                ({"card": card, "uses": [0]}, "\"uses\""),
                ({"card": card, "uses": ["t99"]}, "no table item"),
                ({"card": card, "uses": ["../t0"]}, "no table item"),
                ({"card": card, "uses": [ids[0], ids[0]]}, "twice"),
                ({"card": card, "uses": ["t0"] * 200}, "\"uses\" in a \"options\" message: "
                 "list should have at most 64 items"),
                ({"card": card, "uses": ["t0"] * (len(table) + 1)}, "the table has"),
                ({"card": card, "uses": [], "version": "x"}, "\"version\""),
                ({"card": card, "uses": [], "version": version - 1}, "moved on"),
            ]
            for extra, words in bad:
                mover.send({"type": "options", **extra})
                message = mover.error()
                assert words in message, (extra, message)
                assert "Traceback" not in message and len(message) < 300
            # Out of turn, nothing is worked out for the other seat.
            other.send({"type": "options", "card": other.view["hand"][0], "uses": [],
                        "version": other.version})
            assert "turn" in other.error()
            for s in (mover, other):
                s.hello(version)
                assert s.version == version
            assert mover.view["hand"] == hand and mover.view["table"] == table
            assert not [m for s in seats.values() for m in s.payloads if m["type"] == "options"]
            # The connection still works: a fair request is answered.
            assert mover.options(card, [])["card"] == card


def test_options_in_a_waiting_room_and_a_flood_are_refused(tmp_path: Path) -> None:
    slow = Limits(messages_per_second=1.0, message_burst=3, refused_before_close=50)
    with web(tmp_path, limits=slow) as ann:
        r = ann.post("/api/games", json={"rules": "casino", "mode": "friends"})
        gid = r.json()["game"]
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            seat = Counted(ws)
            v = seat.hello(0)["view"]
            seat.send({"type": "options", "card": v["hand"][0], "uses": []})
            assert "wait" in seat.error()
            for _ in range(12):
                seat.send({"type": "options", "card": v["hand"][0], "uses": []})
            words = [seat.recv()["message"] for _ in range(12)]
            assert sum("too many messages" in w for w in words) >= 8


def test_a_selection_past_its_deadline_is_said_to_be_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The choices of a view and the answers to options are worked out under
    ``select_seconds``: past it the page is told so (and asks about what is picked)."""
    import casino.web.turns as turns_module
    from casino.web.views import card_choices as real  # the turns call it by this name

    gate = threading.Event()

    def stuck(view: Position) -> dict[str, Any]:
        assert gate.wait(30)
        return real(view)

    monkeypatch.setattr(turns_module, "card_choices", stuck)
    limits = Limits(**{**FAST.__dict__, "select_seconds": 0.2})
    try:
        with web(tmp_path, limits=limits) as client:
            # A new game's table is small: its choices would be worked out at once,
            # without a worker (casino.web.turns.INLINE_STEPS). Every one goes to the
            # workers here, whose deadline this is about.
            client.app.state.service.turns.inline_steps = 0  # type: ignore[attr-defined]
            gid = new_game(client)
            with client.websocket_connect(f"/ws/{gid}") as ws:
                seat = Counted(ws)
                seat.hello(0)
                v = seat.until_actionable()
                assert v["your_turn"] and v["legal"] == []
                assert "too crowded" in v["moves_unknown"]
                assert v["cards"] and all(c["playable"] is None for c in v["cards"])
                gate.set()  # the stuck job ends; the thread is free again
                answer = seat.options(v["hand"][0], [])
                assert answer["unknown"] is None and answer["exact"] + answer["more"]
    finally:
        gate.set()


def test_choices_and_options_come_from_real_worker_processes(tmp_path: Path) -> None:
    with web(tmp_path, pool_workers=1) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        service.turns.inline_steps = 0  # a new game's small table would be answered inline
        gid = new_game(client, rules="kasino")
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Counted(ws)
            seat.hello(0)
            v = seat.until_actionable()
            assert v["moves_unknown"] is None and v["legal"]
            ids = [t["id"] for t in v["table"]]
            answer = seat.options(v["hand"][0], ids[:1])
            pos = service.live.games[gid].session.view_of(0)
            exact, more = expected(pos, parse_card(v["hand"][0]), set(ids[:1]))
            assert {m["text"] for m in answer["exact"]} == exact
            assert {m["text"] for m in answer["more"]} == more
            assert service.turns.selector.pids  # a worker process answered
