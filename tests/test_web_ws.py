"""The game WebSocket: whole games, two people in a room, what each is sent, and bad input.

Every game here is at the beginner level, so the tests are quick; nothing
asserts on wall-clock time.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from casino.engine.cards import parse_card
from casino.engine.record import read_record
from casino.play.session import BotJob, run_bot_job
from casino.web.limits import Limits
from tests.web_helpers import (
    FAST,
    Seat,
    cookie_of,
    guest,
    hidden_at,
    leaks,
    new_game,
    play_against_computer,
    scan,
    web,
)


def test_the_leak_scan_finds_a_card_in_any_text_but_not_inside_a_random_token() -> None:
    eight = {parse_card("8d")}
    for text in ("8d", "9d x 8d+Ac", "5h+8d =13", "the 8♦"):
        assert leaks({"view": {"log": [{"text": text}]}}, eight) == ["8d"], text
    # An invite link is random base64url: "..._8d" there is no card.
    assert leaks({"invite": "/join/9cc2a6108fc677d6/Os8glZWyIA-Mn_8d"}, eight) == []
    assert leaks({"view": {"hand": ["5s", "Ts"]}}, eight) == []


def test_a_whole_game_against_the_computer_over_the_websocket(tmp_path: Path) -> None:
    with web(tmp_path, pool_workers=1) as client:  # a real process pool thinks
        gid = new_game(client, name="Ann")
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            first = seat.hello(0)
            assert first["view"]["names"] == ["Ann", "Computer"]
            assert first["view"]["players"] == ["human", "beginner"]
            last = play_against_computer(seat)
        assert last["game_over"] and last["status"] == "over"
        assert last["winner"] in (0, 1) and last["result"]["summary"]
        assert len(last["rounds"]) == last["round"]  # the pad holds every finished round
        assert last["rounds"][-1]["items"] == last["result"]["items"]
        kinds = [e["kind"] for m in seat.payloads if m["type"] == "state" for e in m["events"]]
        assert kinds.count("game_over") == 1 and "round_end" in kinds
        # The events arrived numbered 1, 2, 3 ... with none missing or repeated.
        numbers = [e["n"] for m in seat.payloads if m["type"] == "state" for e in m["events"]]
        assert numbers == list(range(1, last["version"] + 1))
        # The record is published now, and it is the game that was played.
        rec = client.get(f"/records/{gid}.rec")
        assert rec.status_code == 200
        assert "attachment" in rec.headers["content-disposition"]
        record = read_record(rec.text)
        assert record.is_over and record.winner == last["winner"]
        assert [e["text"] for e in last["log"]] == [
            str(m) for r in record.rounds for m in r.moves]
        assert scan(seat.payloads, 0, record) > 50


def test_two_people_in_a_room_see_only_their_own_cards(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        bob = guest(ann)
        r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                         "level": "beginner"})
        assert r.status_code == 201
        gid, invite = r.json()["game"], r.json()["invite"]
        assert invite.startswith(f"/join/{gid}/")
        with ann.websocket_connect(f"/ws/{gid}") as ws_a:
            a = Seat(ws_a)
            v = a.hello(0)["view"]
            assert v["status"] == "waiting" and v["invite"] == invite and v["legal"] == []
            a.send({"type": "play", "move": v["hand"][0]})
            assert "wait" in a.error()
            # Bob follows the invite link: he gets the other seat and a cookie for it.
            joined = bob.get(invite + "?name=Bob", follow_redirects=False)
            assert joined.status_code == 303 and joined.headers["location"] == f"/game/{gid}"
            assert cookie_of(bob, gid) != cookie_of(ann, gid)
            # A third person finds the room full.
            carl = guest(ann)
            full = carl.get(invite, follow_redirects=False)
            assert full.status_code == 409 and "already started" in full.text
            with bob.websocket_connect(f"/ws/{gid}") as ws_b:
                b = Seat(ws_b)
                b.hello(0)
                a.until_version(b.version)
                assert a.view["names"] == b.view["names"] == ["Ann", "Bob"]
                assert a.view["status"] == b.view["status"] == "playing"
                assert b.view["invite"] is None and a.view["invite"] is None
                seats = {0: a, 1: b}
                service = ann.app.state.service  # type: ignore[attr-defined]
                for _ in range(1000):
                    v = a.view
                    if v["status"] == "over":
                        break
                    if v["status"] == "round_over":
                        a.send({"type": "next_round"})
                    else:
                        mover, other = seats[v["to_move"]], seats[1 - v["to_move"]]
                        assert mover.view["your_turn"] and not other.view["your_turn"]
                        assert other.view["legal"] == []
                        if other.view["hand"]:
                            other.send({"type": "play", "move": other.view["hand"][0]})
                            assert "turn" in other.error()  # not yours: nothing changes
                        mover.play_first()
                    a.until_version(a.version + 1)  # every action is one change
                    b.until_version(a.version)
                    assert a.version == service.live.games[gid].version
                else:
                    raise AssertionError("the game did not end")
                assert b.view["game_over"] and a.view["winner"] == b.view["winner"]
        record = read_record(ann.get(f"/records/{gid}.rec").text)
        assert record.names == ("Ann", "Bob") and record.players == ("human", "human")
        assert scan(a.payloads, 0, record) > 100
        assert scan(b.payloads, 1, record) > 100
        # Each saw the other's moves told in the third person, their own as "You".
        assert any(e["words"].startswith("Bob ") for e in a.view["log"])
        assert any(e["words"].startswith("You ") for e in a.view["log"])


def test_the_leak_scan_finds_a_hidden_card_when_there_is_one(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        game = client.app.state.service.live.games[gid]  # type: ignore[attr-defined]
        while game.bot_task is not None:  # a computer's first move is stored first
            time.sleep(0.01)
        view = game.view(0)
        moves = len(view["log"])
        record = read_record(client.app.state.store.load(gid).record)  # type: ignore[attr-defined]
        hidden = hidden_at(record, 1, moves, 0)
        assert len(hidden) >= 40 - moves  # the stock, and the computer's hand
        full = record.rounds[0].positions[moves].to_json()  # what must never be sent
        assert leaks({"type": "state", "view": full}, hidden)
        assert not leaks({"type": "state", "view": view}, hidden)


def test_forged_and_missing_tokens_are_refused(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        real = cookie_of(client, gid)
        for token in ("forged-" + real[7:], None):
            stranger = guest(client)
            if token:
                stranger.cookies.set("casino", token)
            with stranger.websocket_connect(f"/ws/{gid}") as ws:
                m = ws.receive_json()
                assert m["type"] == "error" and "seat" in m["message"]
                try:
                    ws.receive_json()
                    raise AssertionError("the connection should be closed")
                except WebSocketDisconnect as e:
                    assert e.code == 4401
        with client.websocket_connect("/ws/0123456789abcdef") as ws:
            assert "no such game" in ws.receive_json()["message"]
        # A page from another site may not play with the player's cookie.
        with client.websocket_connect(f"/ws/{gid}",
                                      headers={"origin": "https://evil.example"}) as ws:
            assert ws.receive_json()["type"] == "error"
        with client.websocket_connect(f"/ws/{gid}") as ws:  # the real seat still plays
            assert Seat(ws).hello(0)["view"]["you"] == 0


def test_illegal_and_malformed_messages_get_words_and_change_nothing(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            v = seat.until_actionable()
            version, hand = seat.version, v["hand"]
            bad: list[tuple[str, str]] = [
                ("{not json", "not valid JSON"),
                ("[1, 2]", "\"type\""),
                (json.dumps({"type": "shout"}), "unknown message type"),
                (json.dumps({"type": "play"}), "needs a \"move\""),
                (json.dumps({"type": "play", "move": 7}), "needs a \"move\""),
                (json.dumps({"type": "play", "move": "Zz"}), ""),
                (json.dumps({"type": "play", "move": "x x x"}), ""),
                (json.dumps({"type": "hello", "since": -1}), "since"),
                (json.dumps({"type": "hello", "since": "a"}), "since"),
                (json.dumps({"type": "next_round"}), "still being played"),
                (json.dumps({"type": "rematch"}), "once the game is over"),
                (json.dumps({"type": "play", "move": "9d" * 3000}), "too big"),
                ("x" * 5000, "too big"),
            ]
            not_held = next(c for c in ("2c", "3c", "4c", "5c", "6c") if c not in hand
                            and all(t.get("card") != c for t in v["table"]))
            bad.append((json.dumps({"type": "play", "move": not_held}), ""))
            for text, words in bad:
                seat.ws.send_text(text)
                message = seat.error()
                assert words in message, (text[:40], message)
                assert "Traceback" not in message and len(message) < 300
            seat.ws.send_bytes(b"\xff\xfe")
            assert "JSON" in seat.error()
            seat.hello(version)
            assert seat.version == version and seat.view["hand"] == hand
            assert seat.view["your_turn"]
            # After all that the game goes on.
            seat.play_first()
            seat.recv_type("state")
            assert seat.version > version


def test_refresh_resumes_exactly_with_the_missed_events(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            for _ in range(3):
                seat.until_actionable()
                seat.play_first()
                seat.recv_type("state")
            seat.until_actionable()
            had = seat.version
            seat.play_first()  # this move, and the computer's answer, are missed
        with client.websocket_connect(f"/ws/{gid}") as ws:
            again = Seat(ws)
            again.hello(had)
            again.until_actionable()  # the computer has answered
            state = [m for m in again.payloads if m["type"] == "state"][-1]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            fresh = Seat(ws).hello(0)
        # The events after `had` arrived exactly once each, in order, and the view is
        # the one a fresh page gets.
        got = [e for m in again.payloads for e in m.get("events", [])]
        assert [e["n"] for e in got] == list(range(had + 1, fresh["version"] + 1))
        assert got == fresh["events"][had:]
        assert state["view"] == fresh["view"]
        assert len(fresh["view"]["log"]) == len(seat.view["log"]) + 2


def test_undo_and_hint_against_the_computer(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            v = seat.until_actionable()
            assert v["can_hint"]
            seat.send({"type": "hint"})
            hint = seat.recv_type("hint")
            assert hint["option"]["text"] == hint["move"] and hint["words"]
            # The reason, from the judge's ranking of the seat's plays (casino.teach.hint).
            assert hint["reason"].startswith("It takes") and "By the judge" in hint["reason"]
            card = next(c for c in v["cards"] if c["card"] == hint["option"]["card"])
            assert hint["move"] in [m["text"] for m in v["legal"]] or not card["complete"]
            before = (v["hand"], v["table"], len(v["log"]))
            seat.play_first()
            seat.recv_type("state")
            v = seat.until_actionable()
            assert v["can_undo"]
            seat.send({"type": "undo"})
            m = seat.recv_type("state")
            assert any(e["kind"] == "undo" for e in m["events"])
            v = seat.view
            assert (v["hand"], v["table"], len(v["log"])) == before


def test_the_rate_limit_refuses_a_flood_and_the_server_goes_on(tmp_path: Path) -> None:
    slow = Limits(messages_per_second=1.0, message_burst=5, refused_before_close=20)
    with web(tmp_path, limits=slow) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            for _ in range(15):
                seat.send({"type": "hello", "since": 0})
            kinds = [seat.recv()["type"] for _ in range(15)]
            assert kinds.count("error") >= 8 and "state" in kinds
            assert any("too many messages" in m.get("message", "") for m in seat.payloads)
            for _ in range(60):  # keeps flooding: the connection is closed
                seat.send({"type": "hello", "since": 0})
            try:
                while True:
                    seat.recv()
            except WebSocketDisconnect:
                pass
        with client.websocket_connect(f"/ws/{gid}") as ws:  # a new connection plays on
            assert Seat(ws).hello(0)["view"]["game"] == gid


def test_restart_in_process_loses_no_move(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        token = cookie_of(client, gid)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            for _ in range(5):
                seat.until_actionable()
                seat.play_first()
                seat.recv_type("state")
            v = seat.until_actionable()
    with web(tmp_path) as again:  # a new app on the same SQLite file
        again.cookies.set("casino", token)
        with again.websocket_connect(f"/ws/{gid}") as ws:
            seat2 = Seat(ws)
            state = seat2.hello(seat.version)
            assert state["events"] == [] and state["version"] == seat.version
            assert state["view"] == v
            last = play_against_computer(seat2)
            assert last["game_over"]


def test_a_rematch_keeps_the_seats(tmp_path: Path) -> None:
    with web(tmp_path, limits=FAST) as client:
        gid = new_game(client, name="Ann")
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            play_against_computer(seat)
            seat.send({"type": "rematch"})
            m = seat.recv_type("rematch")
        url = m["url"]
        assert url == f"/rematch/{gid}/{m['game']}"
        stranger = guest(client)
        assert stranger.get(url, follow_redirects=False).status_code == 403
        r = client.get(url, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/game/{m['game']}"
        with client.websocket_connect(f"/ws/{m['game']}") as ws:
            v = Seat(ws).hello(0)["view"]
            assert v["names"] == ["Ann", "Computer"] and v["you"] == 0
            assert v["status"] == "playing" and v["round"] == 1


def test_idle_games_are_evicted_and_reload_from_the_database(tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "live_games": 1})
    with web(tmp_path, limits=limits) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        first = new_game(client)
        with client.websocket_connect(f"/ws/{first}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            seat.until_actionable()
            seat.play_first()
            seat.recv_type("state")
            before = seat.until_actionable()
        while service.live.games[first].bot_task is not None:
            time.sleep(0.01)  # the computer's move is committed; its task is ending
        second = new_game(client)  # the first game is idle: it leaves memory
        assert first not in service.live.games and second in service.live.games
        with client.websocket_connect(f"/ws/{first}") as ws:
            again = Seat(ws).hello(0)
        assert again["view"] == before
        assert [e["n"] for e in again["events"]] == list(range(1, again["version"] + 1))


def test_every_preset_and_player_count_plays_over_the_websocket(tmp_path: Path) -> None:
    from casino.engine.rules import PRESET_NAMES, player_counts

    with web(tmp_path) as client:
        for rules in PRESET_NAMES:
            for players in player_counts(rules):
                gid = new_game(client, rules=rules, players=players)
                with client.websocket_connect(f"/ws/{gid}") as ws:
                    seat = Seat(ws)
                    seat.hello(0)
                    for _ in range(12):
                        v = seat.until_actionable()
                        assert v["rules"]["name"] == rules
                        assert len(v["hand_counts"]) == players
                        if v["status"] != "playing":
                            break
                        # Every option names table items that exist, and the last one
                        # (often a capture or build) is played.
                        ids = {t["id"] for t in v["table"]}
                        assert all(set(m["uses"]) <= ids for m in v["legal"])
                        seat.send({"type": "play", "move": v["legal"][-1]["text"]})
                        seat.recv_type("state")
                    assert not [m for m in seat.payloads if m["type"] == "error"]


def test_a_thinking_computer_stalls_nothing_and_an_undo_voids_its_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    gate = threading.Event()
    gate.set()
    real = run_bot_job

    def slow(job: BotJob) -> str:  # the computer thinks until the test lets it answer
        assert gate.wait(30)
        return real(job)

    with web(tmp_path) as client:  # one thinking thread: every job waits for the gate
        service = client.app.state.service  # type: ignore[attr-defined]
        monkeypatch.setattr(service.computers.thinker, "run", slow)
        a = new_game(client)
        with client.websocket_connect(f"/ws/{a}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            before = seat.until_actionable()
            gate.clear()
            seat.play_first()
            seat.recv_type("state")
            assert not seat.view["your_turn"] and seat.view["can_undo"]
            while service.live.games[a].bot_task is None:
                time.sleep(0.01)
            # While the computer of game A thinks, game B is served.
            b = new_game(client)
            with client.websocket_connect(f"/ws/{b}") as ws_b:
                assert Seat(ws_b).hello(0)["view"]["game"] == b
            # The person takes the move back while the computer still thinks ...
            seat.send({"type": "undo"})
            seat.recv_type("state")
            assert seat.view["your_turn"] and seat.view["log"] == before["log"]
            gate.set()
            while service.live.games[a].bot_task is not None:
                time.sleep(0.01)
            # ... so its answer, thought about for a position that is gone, is not played.
            seat.hello(seat.version)
            assert seat.view["log"] == before["log"] and seat.view["your_turn"]
            assert seat.view["hand"] == before["hand"]


def test_a_hint_being_thought_of_does_not_hold_up_the_players_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint may wait for the pool (computers go first); the same connection's move
    is read and played meanwhile, and the late hint then says the game moved on."""
    import threading

    gate = threading.Event()
    real = run_bot_job

    def gated(job: BotJob) -> str:  # the first job from now on (the hint) waits
        if not gated.opened:  # type: ignore[attr-defined]
            gated.opened = True  # type: ignore[attr-defined]
            assert gate.wait(30)
        return real(job)

    gated.opened = False  # type: ignore[attr-defined]
    safety = threading.Timer(20, gate.set)  # the old code read nothing until the hint came
    safety.start()
    try:
        with web(tmp_path) as client:
            service = client.app.state.service  # type: ignore[attr-defined]
            gid = new_game(client)
            with client.websocket_connect(f"/ws/{gid}") as ws:
                seat = Seat(ws)
                seat.hello(0)
                before = len(seat.until_actionable()["log"])
                # Our turn: no computer is thinking, so the next job is the hint.
                monkeypatch.setattr(service.computers.thinker, "run", gated)
                seat.send({"type": "hint"})
                seat.play_first()
                m = seat.recv()
                while m["type"] == "ping":
                    m = seat.recv()
                assert m["type"] == "state", m  # the move, while the hint still waits
                assert len(m["view"]["log"]) == before + 1 and not gate.is_set()
                gate.set()
                assert "moved on" in seat.error()
    finally:
        safety.cancel()
        gate.set()
