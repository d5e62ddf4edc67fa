"""Spectators (issue 47, part 1): a game its players allowed to be watched is sent to
anyone on ``/ws/watch/<id>`` as the public view, maybe some moves behind, and nothing a
spectator sends changes it (docs/server.md, "Spectators")."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from casino.engine.record import read_record
from casino.web import spectators
from casino.web.errors import GameError
from casino.web.limits import Limits
from casino.web.messages import check_sent
from casino.web.rooms import watchable
from tests.web_helpers import (
    ACCOUNTS,
    FAST,
    Seat,
    browser,
    guest,
    new_game,
    scan,
    sign_up,
    web,
)

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect


def room(ann: TestClient, **body: Any) -> tuple[str, str]:
    """A two-player room made by Ann: (id, invite)."""
    r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                     "level": "beginner", **body})
    assert r.status_code == 201, r.text
    return str(r.json()["game"]), str(r.json()["invite"])


def seated_room(ann: TestClient, **body: Any) -> tuple[str, TestClient]:
    """A room of Ann and Bob, both seated (it is playing): (id, Bob's browser)."""
    gid, invite = room(ann, **body)
    bob = guest(ann)
    assert bob.get(f"{invite}?name=Bob", follow_redirects=False).status_code == 303
    return gid, bob


def version_of(client: TestClient, gid: str) -> int:
    return int(client.app.state.service.live.games[gid].version)  # type: ignore[attr-defined]


def refused(ws: Any) -> tuple[str, int]:
    """The words and the close code a refused connection gets."""
    words = str(ws.receive_json()["message"])
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return words, closed.value.code


def until(seat: Seat, check: Any) -> dict[str, Any]:
    """States until ``check(view)`` holds."""
    for _ in range(200):
        if seat.view and check(seat.view):
            return seat.view
        seat.recv()
    raise AssertionError("the view never came")


@contextmanager
def table(ann: TestClient, bob: TestClient, gid: str) -> Iterator[tuple[Seat, Seat]]:
    """Ann's and Bob's connections, both said hello."""
    with ann.websocket_connect(f"/ws/{gid}") as ws_a, bob.websocket_connect(f"/ws/{gid}") as ws_b:
        a, b = Seat(ws_a), Seat(ws_b)
        a.hello(0)
        b.hello(0)
        yield a, b


@pytest.mark.parametrize("delay", [0, 3])
def test_a_spectator_sees_no_hidden_card_through_a_whole_game(tmp_path: Path,
                                                               delay: int) -> None:
    with web(tmp_path) as ann:
        gid, bob = seated_room(ann, spectators=True, spectator_delay=delay)
        carl = guest(ann)
        with table(ann, bob, gid) as (a, b), carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            c = Seat(ws)
            first = c.hello(0)["view"]
            assert first["spectator"] and first["you"] is None and first["hand"] == []
            assert first["legal"] == [] and not first["your_turn"] and not first["can_undo"]
            assert first["spectator_delay"] == delay and first["spectators"] == 1
            # The players are told that someone watches.
            assert until(a, lambda v: v["spectators"] == 1)["spectators"] == 1
            until(b, lambda v: v["spectators"] == 1)
            seats = {0: a, 1: b}
            lags = set()
            for _ in range(1000):
                v = a.view
                if v["status"] == "over":
                    break
                if v["status"] == "round_over":
                    a.send({"type": "next_round"})
                else:
                    seats[v["to_move"]].play_first()
                a.until_version(a.version + 1)
                b.until_version(a.version)
                c.until_version(a.version)
                if a.view["status"] != "over":
                    # The spectator's view is the game as it was ``delay`` moves ago, within
                    # the round being played: a round's end and a new deal come at once.
                    lag = len(a.view["log"]) - len(c.view["log"])
                    this_round = sum(1 for e in a.view["log"] if e["round"] == a.view["round"])
                    playing = a.view["status"] == "playing"
                    assert lag == (min(delay, this_round) if playing else 0), (lag, delay)
                    shown = [e["text"] for e in c.view["log"]]
                    assert shown == [e["text"] for e in a.view["log"]][:len(shown)]
                    assert c.view["round"] == a.view["round"]
                    lags.add(lag)
                    if lag:
                        assert c.payloads[-1]["events"] == []  # they would tell the moves
            else:
                raise AssertionError("the game did not end")
            assert max(lags) == delay
            # The end is shown to all at once: the delay protects a game being played.
            assert c.view["game_over"] and c.view["winner"] == a.view["winner"]
            assert [e["text"] for e in c.view["log"]] == [e["text"] for e in a.view["log"]]
        record = read_record(ann.get(f"/records/{gid}.rec").text)
        assert scan(c.payloads, None, record) > 50
        for m in c.payloads:  # every message a spectator gets is one of the protocol's
            check_sent(m)
        # The game over, its spectators' page leads to its replay, which shows every hand.
        ended = carl.get(f"/watch/{gid}", follow_redirects=False)
        assert ended.status_code == 303 and ended.headers["location"] == f"/records/{gid}"
        # A spectator is told every move in the third person.
        assert not any(e["words"].startswith("You ") for e in c.view["log"])


def test_a_game_that_does_not_allow_spectators_refuses_them(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid, _bob = seated_room(ann)  # a casual room: not watched unless asked for
        carl = guest(ann)
        with carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            words, code = refused(ws)
        assert code == 4403 and "did not allow spectators" in words
        page = carl.get(f"/watch/{gid}")
        assert page.status_code == 403 and "did not allow spectators" in page.text
        with carl.websocket_connect("/ws/watch/0123456789abcdef") as ws:
            assert refused(ws) == ("there is no such game", 4404)
        # Nor a game against the computer by default.
        computer = new_game(carl)
        with carl.websocket_connect(f"/ws/watch/{computer}") as ws:
            assert refused(ws)[1] == 4403


def test_a_spectators_moves_hints_and_undos_are_refused_and_change_nothing(
        tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid, bob = seated_room(ann, spectators=True, takebacks=True, hints=True)
        carl = guest(ann)
        with table(ann, bob, gid) as (a, b), carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            c = Seat(ws)
            c.hello(0)
            mover = a if a.view["your_turn"] else b
            move = mover.view["legal"][0]["text"]
            version = version_of(ann, gid)
            for message in ({"type": "play", "move": move}, {"type": "hint"},
                            {"type": "undo"}, {"type": "next_round"}, {"type": "resign"},
                            {"type": "claim", "seat": 0}, {"type": "rematch"},
                            {"type": "options", "card": move[:2], "uses": []}):
                c.send(message)
                assert c.error().startswith("you are watching this game: a spectator "
                                            "cannot "), message
            assert version_of(ann, gid) == version
            # A spectator says hello once: the state comes at each change.
            c.send({"type": "hello", "since": 0})
            assert c.error().startswith("you are watching this game and have its state")
            mover.play_first()
            c.until_version(version + 1)


def test_spectators_per_game_are_capped_and_counted_against_the_address(
        tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "spectators_per_game": 2,
                       "game_connections_per_address": 5})
    with web(tmp_path, limits=limits) as ann:
        gid, bob = seated_room(ann, spectators=True)
        carl = guest(ann)
        with table(ann, bob, gid) as (a, _b), carl.websocket_connect(f"/ws/watch/{gid}"), \
                carl.websocket_connect(f"/ws/watch/{gid}"):
            with carl.websocket_connect(f"/ws/watch/{gid}") as ws:
                words, code = refused(ws)
            assert code == 4429 and words == ("this game has 2 spectators already, as many "
                                              "as it may have; try again later")
            until(a, lambda v: v["spectators"] == 2)
            # Every connection here comes from one address: 2 seats and 2 spectators, and
            # one more seat's tab takes the address's fifth and last place.
            with ann.websocket_connect(f"/ws/{gid}") as ws:
                assert Seat(ws).hello(0)["view"]["you"] == 0
                with bob.websocket_connect(f"/ws/{gid}") as more:
                    assert "your address has 5 connections" in refused(more)[0]
        # Once they leave, the players are told.
        with table(ann, bob, gid) as (a, _b):
            assert a.view["spectators"] == 0


def test_the_lobby_lists_the_live_games_that_may_be_watched(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        open_gid, _ = seated_room(ann, spectators=True, spectator_delay=2)
        closed_gid, _ = seated_room(ann)
        carl = guest(ann)
        lists = carl.get("/api/games").json()
        live = {g["game"]: g for g in lists["live"]}
        assert closed_gid not in live
        assert live[open_gid]["watch"] == f"/watch/{open_gid}"
        assert live[open_gid]["url"] is None  # not Carl's game: only to watch
        page = carl.get(f"/watch/{open_gid}")
        assert page.status_code == 200 and 'data-watch="1"' in page.text
        assert 'id="live-games"' in carl.get("/").text  # the lobby's script fills it in


def test_who_may_be_watched_by_default() -> None:
    assert watchable("friends", True, None)  # rated: played in the open
    assert not watchable("friends", False, None)
    assert not watchable("computer", False, None)
    assert watchable("computer", False, True) and not watchable("friends", True, False)
    assert not watchable("lesson", False, None)
    with pytest.raises(GameError, match="a lesson cannot be watched"):
        watchable("lesson", False, True)


def test_a_lesson_cannot_be_made_watchable(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        r = ann.post("/api/games", json={"mode": "lesson", "spectators": True})
        assert r.status_code == 400 and "a lesson cannot be watched" in r.text


def test_a_crowd_of_spectators_costs_one_view_per_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    build = spectators._build

    def counted(game: Any) -> Any:
        built.append(game.version)
        return build(game)

    monkeypatch.setattr(spectators, "_build", counted)
    with web(tmp_path) as ann:
        gid, bob = seated_room(ann, spectators=True, spectator_delay=1)
        crowd = [guest(ann) for _ in range(5)]
        with table(ann, bob, gid) as (a, b), ExitStack() as stack:
            watchers = [Seat(stack.enter_context(c.websocket_connect(f"/ws/watch/{gid}")))
                        for c in crowd]
            for w in watchers:
                w.hello(0)
            for _ in range(4):
                mover = a if a.view["your_turn"] else b
                until(mover, lambda v: v["your_turn"])
                mover.play_first()
                version = a.version + 1
                for seat in (a, b, *watchers):
                    seat.until_version(version)
                assert all(len(w.view["log"]) == len(a.view["log"]) - 1 for w in watchers)
        assert built and len(built) == len(set(built)), built  # each version built once


def test_a_rated_room_may_be_watched_by_default(tmp_path: Path) -> None:
    with web(tmp_path, limits=ACCOUNTS) as app:
        ann, bob = browser(app), browser(app)
        for client, name in ((ann, "Ann"), (bob, "Bob")):
            assert sign_up(client, name, "correct horse battery").status_code == 201
        rated, invite = room(ann, rated=True)
        assert bob.get(invite, params={"name": ""}).status_code == 303
        casual, _ = room(ann)
        live = {g["game"] for g in browser(app).get("/api/games").json()["live"]}
        assert rated in live and casual not in live


def test_an_undo_takes_the_delayed_view_back_with_the_game(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid, bob = seated_room(ann, spectators=True, spectator_delay=2, takebacks=True)
        carl = guest(ann)
        with table(ann, bob, gid) as (a, b), carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            c = Seat(ws)
            c.hello(0)
            seats = {0: a, 1: b}
            for _ in range(5):
                mover = seats[a.view["to_move"]]
                mover.play_first()
                a.until_version(a.version + 1)
                b.until_version(a.version)
            mover = seats[1 - a.view["to_move"]]  # the last to move takes it back
            mover.until_version(a.version)
            mover.send({"type": "undo"})
            a.until_version(a.version + 1)
            c.until_version(a.version)
            assert len(a.view["log"]) == 4 and len(c.view["log"]) == 2
            assert [e["text"] for e in c.view["log"]] == [e["text"] for e in a.view["log"]][:2]
            assert c.view["table"] != [] and c.view["hand"] == []
            assert "shown 2 moves late" in c.view["message"]


def test_a_spectators_flood_is_refused_like_a_players(tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "messages_per_second": 1.0, "message_burst": 2})
    with web(tmp_path, limits=limits) as ann:
        gid, _bob = seated_room(ann, spectators=True)
        carl = guest(ann)
        with carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            c = Seat(ws)
            for _ in range(5):
                c.send({"type": "pong"})
            assert c.error().startswith("too many messages: at most 1 a second")


def test_the_invite_says_that_the_game_may_be_watched(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        _, invite = room(ann, spectators=True, spectator_delay=3)
        page = guest(ann).get(invite).text
        assert ("Anyone with the link may watch this game: they see the table and the "
                "moves, 3 moves late, never a hand.") in page
        _, invite = room(ann)
        assert "may watch this game" not in guest(ann).get(invite).text


def test_a_spectator_of_a_waiting_room_sees_the_game_start(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        gid, invite = room(ann, spectators=True)
        carl = guest(ann)
        with carl.websocket_connect(f"/ws/watch/{gid}") as ws:
            c = Seat(ws)
            v = c.hello(0)["view"]
            assert v["status"] == "waiting" and v["invite"] is None
            assert v["message"].startswith("You are watching a room waiting for its players")
            bob = guest(ann)
            assert bob.get(f"{invite}?name=Bob", follow_redirects=False).status_code == 303
            v = until(c, lambda v: v["status"] == "playing")
            assert v["names"] == ["Ann", "Bob"] and v["message"] == (
                "You are watching Ann and Bob play.")


def test_a_watchable_game_against_the_computer_does_not_name_its_player_you(
        tmp_path: Path) -> None:
    """Spectators read "Player 1 takes ...", never "You takes ...": a person left unnamed
    in a game that may be watched is named as in a room; unwatched, they stay "You"."""
    with web(tmp_path) as client:
        watched = new_game(client, spectators=True)
        alone = new_game(client)
        live = client.app.state.service.live.games  # type: ignore[attr-defined]
        assert live[watched].session.names[0] == "Player 1"
        assert live[alone].session.names[0] == "You"
