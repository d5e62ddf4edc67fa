"""The chat (docs/server.md, "Chat"): the players' room and the spectators', apart while
the game is played; quick phrases; the length and the rate, refused without a trace;
mutes and chat off, kept per person; chat off per game and never against the computer
or in a lesson; reports and the operators' page; hostile text kept as text; lines that
reach another process's players; and none of it moves the game's version."""

from __future__ import annotations

import dataclasses
import html
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.web import create_app
from casino.web.chat import GAME_OFF, NO_CHAT_HERE, YOU_ARE_OFF, chat_for, clean_text
from casino.web.chatstore import ChatOffRow, ChatReportRow, ChatRow
from casino.web.errors import GameError
from casino.web.fanout import chat_notice, read_change_notice, read_chat_notice
from casino.web.limits import Limits
from casino.web.messages import check_sent
from casino.web.phrases import PHRASES
from tests.web_helpers import (
    ACCOUNTS,
    POSTGRES,
    Seat,
    browser,
    csrf_of,
    db_url,
    guest,
    sign_up,
    store_of,
)

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: Text people could send to break a page: markup, an attribute's end, a script's end,
#: a right-to-left override, a word longer than any line, zero-width characters.
HOSTILE = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "</textarea><svg onload=alert(1)>",
    "abc\u202edcba",
    "W" * 290,
    "zero\u200bwidth\u200djoin",
    "{{ 7 * 7 }} ${7*7} &amp; &lt;b&gt;",
]
#: The operator of the tests' servers.
OPERATOR = "Olga"


@contextmanager
def server(tmp_path: Path, limits: Limits = ACCOUNTS, name: str = "casino.db"
           ) -> Iterator[TestClient]:
    """A started app whose operator is :data:`OPERATOR`."""
    app = create_app(db_url(tmp_path, name), pool_workers=0, limits=limits,
                     hint_level="beginner", admins=[OPERATOR])
    with TestClient(app) as client:
        yield client


def room(ann: TestClient, **body: Any) -> tuple[str, TestClient]:
    """A two-player room of Ann and Bob (its own browser), both seated: (id, Bob)."""
    r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                     "level": "beginner", **body})
    assert r.status_code == 201, r.text
    bob = guest(ann)
    assert bob.get(f"{r.json()['invite']}?name=Bob", follow_redirects=False).status_code == 303
    return str(r.json()["game"]), bob


class Talker(Seat):
    """A connection that said hello, with its chat's status."""

    def __init__(self, ws: Any) -> None:
        super().__init__(ws)
        self.hello(0)
        self.status = self.recv_type("chat_status")

    def say(self, text: str | None = None, phrase: str | None = None) -> None:
        message: dict[str, Any] = {"type": "chat"}
        if text is not None:
            message["text"] = text
        if phrase is not None:
            message["phrase"] = phrase
        self.send(message)

    def line(self) -> dict[str, Any]:
        """The next chat line (other messages skipped, a status kept)."""
        while True:
            m = self.recv()
            if m["type"] == "chat_status":
                self.status = m
            if m["type"] == "chat":
                return m

    def new_status(self) -> dict[str, Any]:
        self.status = self.recv_type("chat_status")
        return self.status

    def lines_until(self, text: str) -> list[str]:
        """The words of each line up to the one saying ``text``."""
        said = []
        while True:
            m = self.line()
            said.append(m["text"] or m["phrase"])
            if m["text"] == text:
                return said


def version_of(client: TestClient, gid: str) -> int:
    return int(client.app.state.service.live.games[gid].version)  # type: ignore[attr-defined]


def stored_lines(client: TestClient) -> int:
    with Session(store_of(client).engine) as s:
        return int(s.scalar(select(func.count()).select_from(ChatRow)) or 0)


# ----------------------------------------------------------------------
# Units


def test_a_message_is_kept_as_text_without_controls_or_overrides() -> None:
    assert clean_text("  hi\tthere\n\nyou  ") == "hi there you"
    assert clean_text("a\x00b\x07c\x7f\x9b") == "abc"
    assert clean_text("abc\u202edcba\u2066x\u2069") == "abcdcbax"
    assert clean_text("\x00\x01 \u202e ") == ""
    assert clean_text("zero\u200bwidth") == "zero\u200bwidth"  # emoji joiners stay
    assert clean_text("e\u0301") == "\u00e9"


def test_chat_is_between_people_only() -> None:
    assert chat_for("friends", None) and not chat_for("friends", False)
    assert not chat_for("computer", None) and not chat_for("lesson", False)
    for mode in ("computer", "lesson"):
        with pytest.raises(GameError, match="has no chat"):
            chat_for(mode, True)


def test_a_chat_notice_is_never_taken_for_a_games_change() -> None:
    notice = chat_notice("0123456789abcdef", 42, "proc")
    assert read_chat_notice(notice) == ("0123456789abcdef", 42, "proc")
    assert read_change_notice(notice) is None
    assert read_chat_notice("0123456789abcdef 4 proc") is None


# ----------------------------------------------------------------------
# Rooms


def test_players_chat_and_the_spectators_room_stays_apart(tmp_path: Path) -> None:
    with server(tmp_path) as ann:
        gid, bob = room(ann, spectators=True)
        carl = guest(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb, \
                carl.websocket_connect(f"/ws/watch/{gid}") as wc:
            a, b, c = Talker(wa), Talker(wb), Talker(wc)
            assert a.status["open"] and a.status["room"] == "players"
            assert a.status["phrases"] == PHRASES and c.status["room"] == "spectators"
            version = version_of(ann, gid)
            a.say("hello Bob")
            mine, theirs = a.line(), b.line()
            assert mine["mine"] and not theirs["mine"]
            assert theirs["name"] == "Ann" and theirs["text"] == "hello Bob"
            assert theirs["room"] == "players" and theirs["id"] == mine["id"]
            c.say("the stands say hi")
            assert c.line()["room"] == "spectators"
            b.say(phrase="gg")
            assert b.line()["phrase"] == "gg"
            c.say("again")
            # Ann hears Bob's phrase and never the spectators; Carl only his room.
            a.say("last")
            assert a.lines_until("last") == ["gg", "last"]
            assert b.lines_until("last") == ["last"]
            assert c.lines_until("again") == ["again"]
            assert version_of(ann, gid) == version  # chat never moves the game
            for m in a.payloads + b.payloads + c.payloads:
                check_sent(m)
        # A page that connects again is sent its rooms' recent lines.
        with bob.websocket_connect(f"/ws/{gid}") as wb:
            b = Talker(wb)
            assert b.lines_until("last") == ["hello Bob", "gg", "last"]
        with carl.websocket_connect(f"/ws/watch/{gid}") as wc:
            c = Talker(wc)
            assert c.lines_until("again") == ["the stands say hi", "again"]


def test_once_the_game_is_over_the_players_read_the_spectators(tmp_path: Path) -> None:
    with server(tmp_path) as ann:
        gid, bob = room(ann, spectators=True)
        carl = guest(ann)
        with carl.websocket_connect(f"/ws/watch/{gid}") as wc:
            Talker(wc).say("watching you")
            with bob.websocket_connect(f"/ws/{gid}") as wb:
                b = Talker(wb)
                b.send({"type": "resign"})
                b.recv_type("state")
            with ann.websocket_connect(f"/ws/{gid}") as wa:
                a = Talker(wa)
                a.say("gg all")
                assert a.lines_until("gg all") == ["watching you", "gg all"]


# ----------------------------------------------------------------------
# Limits


def test_too_long_blank_and_mixed_messages_are_refused_and_stored_nowhere(
        tmp_path: Path) -> None:
    limits = dataclasses.replace(ACCOUNTS, chat_length=10)
    with server(tmp_path, limits) as ann:
        gid, _ = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Talker(wa)
            for said, words in (("x" * 11, "too long: at most 10 characters"),
                                ("\x00\u202e\x01", "empty"),
                                ("\u200b\ufeff \u00ad\U000e0041\u2060", "empty"),
                                (None, "a \"text\" or a \"phrase\"")):
                a.say(said)
                assert words in a.error()
            a.send({"type": "chat", "text": "hi", "phrase": "gg"})
            assert "not both" in a.error()
            a.send({"type": "chat", "phrase": "hello"})
            assert "no quick phrase 'hello'" in a.error()
            a.send({"type": "chat", "text": "   "})
            assert "blank" in a.error()
            assert stored_lines(ann) == 0
            a.say("x" * 10)
            assert a.line()["text"] == "x" * 10


def test_an_id_too_big_for_the_database_is_refused_and_the_game_stays(tmp_path: Path) -> None:
    """A spectator's made-up line or mute id beyond any stored one is refused in words,
    naming the field; it never reaches the database as a number it cannot hold, which
    would end as a server error that drops the game for everyone at the table."""
    with server(tmp_path) as ann:
        gid, _ = room(ann, spectators=True)
        game = ann.app.state.service.live.games  # type: ignore[attr-defined]
        with ann.websocket_connect(f"/ws/watch/{gid}") as we:
            eve = Talker(we)
            live = game[gid]
            for message in ({"type": "unmute", "mute": 2**64},
                            {"type": "mute", "message": 2**64},
                            {"type": "report", "message": 2**31}):
                eve.send(message)
                assert "less than or equal to 2147483647" in eve.error()
            assert game.get(gid) is live  # not dropped and reloaded


def test_chat_settings_count_per_player_whatever_the_browsers_token(tmp_path: Path) -> None:
    """Chat off and mutes are stored by the browser's token, which a script may make up
    anew for each connection: they count against a bucket of the player's (their
    network here), so made-up tokens cannot fill the table; a refusal stores nothing."""
    limits = dataclasses.replace(ACCOUNTS, chat_burst=2, chat_per_minute=0.001)
    with server(tmp_path, limits) as ann:
        gid, _ = room(ann, spectators=True)

        def offs() -> int:
            with Session(store_of(ann).engine) as s:
                return int(s.scalar(select(func.count()).select_from(ChatOffRow)) or 0)

        answers = []
        for n in range(4):
            eve = guest(ann)
            eve.cookies.set("casino", f"made-up-token-{n}")
            with eve.websocket_connect(f"/ws/watch/{gid}") as we:
                e = Talker(we)
                e.send({"type": "chat_off", "off": True})
                answers.append(e.recv_type("chat_status" if n < 2 else "error"))
        assert offs() == 2
        assert "too many mutes and chat settings from you" in answers[-1]["message"]


def test_the_rate_counts_per_player_and_a_refusal_stores_nothing(tmp_path: Path) -> None:
    limits = dataclasses.replace(ACCOUNTS, chat_burst=2, chat_per_minute=0.001)
    with server(tmp_path, limits) as ann:
        gid, bob = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Talker(wa)
            a.say("one")
            a.say("two")
            a.say("three")
            assert a.lines_until("two") == ["one", "two"]
            assert "too many chat messages" in a.error()
            assert stored_lines(ann) == 2
        # A second connection of the same network counts against the same allowance.
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Talker(wa)
            a.say("four")
            assert "too many chat messages" in a.error()
        # Another network has its own.
        other = browser(ann, "10.9.9.9")
        other.cookies = bob.cookies
        with other.websocket_connect(f"/ws/{gid}") as wb:
            b = Talker(wb)
            b.say("from Bob")
            assert b.lines_until("from Bob")[-1] == "from Bob"
        assert stored_lines(ann) == 3


# ----------------------------------------------------------------------
# Mutes and chat off


def test_a_mute_hides_a_person_for_the_muter_only_and_lasts(tmp_path: Path) -> None:
    with server(tmp_path) as ann:
        gid, bob = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Talker(wa), Talker(wb)
            a.say("annoying")
            own, line = a.line(), b.line()
            b.send({"type": "mute", "message": line["id"]})
            muted = b.new_status()["muted"]
            assert [m["name"] for m in muted] == ["Ann"]
            b.send({"type": "mute", "message": line["id"]})  # once is enough
            assert len(b.new_status()["muted"]) == 1
            a.say("still here")
            assert a.line()["text"] == "still here"  # so Bob's outbox had it before...
            b.say("quiet now")
            assert b.lines_until("quiet now") == ["quiet now"]  # ...and it never came
            assert a.lines_until("quiet now") == ["quiet now"]
            a.send({"type": "mute", "message": own["id"]})
            assert "your own" in a.error()
        with bob.websocket_connect(f"/ws/{gid}") as wb:  # kept across reloads
            b = Talker(wb)
            assert [m["name"] for m in b.status["muted"]] == ["Ann"]
            assert b.lines_until("quiet now") == ["quiet now"]
            b.send({"type": "unmute", "mute": b.status["muted"][0]["id"]})
            assert b.new_status()["muted"] == []
            b.send({"type": "unmute", "mute": 999})
            assert "no such mute" in b.error()


def test_chat_off_for_a_person_stops_their_chat_everywhere(tmp_path: Path) -> None:
    with server(tmp_path) as ann:
        gid, bob = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Talker(wa), Talker(wb)
            b.send({"type": "chat_off", "off": True})
            status = b.new_status()
            assert status["off"] and not status["open"] and status["reason"] == YOU_ARE_OFF
            b.say("can I?")
            assert b.error() == YOU_ARE_OFF
            a.say("unheard")
            a.say("also unheard")
            assert a.lines_until("also unheard") == ["unheard", "also unheard"]
        with bob.websocket_connect(f"/ws/{gid}") as wb:
            b = Talker(wb)
            assert b.status["off"]
            b.send({"type": "chat_off", "off": False})
            assert b.new_status()["open"]
            assert b.lines_until("also unheard") == ["unheard", "also unheard"]


def test_a_room_made_without_chat_has_none_and_neither_has_its_rematch(
        tmp_path: Path) -> None:
    with server(tmp_path) as ann:
        gid, _ = room(ann, chat=False)
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Talker(wa)
            assert not a.status["open"] and a.status["reason"] == GAME_OFF
            a.say("hello?")
            assert a.error() == GAME_OFF
            a.send({"type": "resign"})
            a.recv_type("state")
            a.send({"type": "rematch"})
            url = a.recv_type("rematch")["game"]
        with ann.websocket_connect(f"/ws/{url}") as wa:
            assert Talker(wa).status["reason"] == GAME_OFF
        assert stored_lines(ann) == 0


@pytest.mark.parametrize("mode", ["computer", "lesson"])
def test_there_is_no_chat_against_the_computer_or_in_a_lesson(tmp_path: Path,
                                                              mode: str) -> None:
    with server(tmp_path) as ann:
        r = ann.post("/api/games", json={"mode": mode, "chat": True})
        assert r.status_code == 400 and "has no chat" in r.json()["error"]
        gid = ann.post("/api/games", json={"mode": mode, "level": "beginner"}).json()["game"]
        with ann.websocket_connect(f"/ws/{gid}") as wa:
            a = Seat(wa)
            a.hello(0)
            a.send({"type": "chat", "phrase": "oops"})
            assert a.error() == NO_CHAT_HERE
            assert not [m for m in a.payloads if m["type"].startswith("chat")]  # no panel
        assert stored_lines(ann) == 0


# ----------------------------------------------------------------------
# Reports, the operators' page, hostile text


def test_hostile_text_travels_as_text_and_the_operators_page_escapes_it(
        tmp_path: Path) -> None:
    with server(tmp_path, dataclasses.replace(ACCOUNTS, chat_burst=100)) as ann:
        gid, bob = room(ann)
        olga = browser(ann)
        assert sign_up(olga, OPERATOR, "operator password 1").status_code == 201
        mallory = browser(ann)
        assert sign_up(mallory, "Mallory", "not an operator 1").status_code == 201
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Talker(wa), Talker(wb)
            for text in HOSTILE:
                a.say(text)
                assert b.line()["text"] == clean_text(text)  # the same characters, as text
            reported = b.payloads[-1]
            b.send({"type": "report", "message": reported["id"]})
            assert b.recv_type("reported")["message"] == reported["id"]
            b.send({"type": "report", "message": 10_000})
            assert "no such chat message" in b.error()
            a.send({"type": "report", "message": reported["id"]})
            assert "your own" in a.error()
        with Session(store_of(ann).engine) as s:
            report = s.scalars(select(ChatReportRow)).one()
        assert report.said == HOSTILE[-1] and report.name == "Ann"
        assert len(report.context) > 10  # the lines before it, as JSON
        # Guests and other accounts are refused the page, and shown nothing of it.
        for who in (guest(ann), mallory):
            page = who.get("/admin/reports")
            assert page.status_code == 403 and "alert" not in page.text
        page = olga.get("/admin/reports")
        assert page.status_code == 200 and f'id="report-{report.id}"' in page.text
        for text in HOSTILE[:3]:
            assert text not in page.text  # never as markup
            assert html.escape(clean_text(text), quote=False)[:20] in page.text.replace(
                "&#34;", "\"").replace("&#39;", "'")
        assert "<script>alert" not in page.text and "<img src=x" not in page.text
        refused = mallory.post(f"/admin/reports/{report.id}/resolve",
                               data={"csrf": csrf_of(page.text)})
        assert refused.status_code == 403
        forged = olga.post(f"/admin/reports/{report.id}/resolve", data={"csrf": "x" * 32})
        assert forged.status_code == 403
        for made_up in (2**31, 2**64):  # no such report, and no server error
            assert olga.post(f"/admin/reports/{made_up}/resolve",
                             data={"csrf": csrf_of(page.text)}).status_code == 404
        done = olga.post(f"/admin/reports/{report.id}/resolve",
                         data={"csrf": csrf_of(page.text)})
        assert done.status_code == 303
        assert 'id="no-reports"' in olga.get("/admin/reports").text


def test_reports_are_limited_per_reporter(tmp_path: Path) -> None:
    limits = dataclasses.replace(ACCOUNTS, chat_report_burst=1, chat_reports_per_minute=0.001)
    with server(tmp_path, limits) as ann:
        gid, bob = room(ann)
        with ann.websocket_connect(f"/ws/{gid}") as wa, bob.websocket_connect(f"/ws/{gid}") as wb:
            a, b = Talker(wa), Talker(wb)
            a.say("one")
            a.say("two")
            first, second = b.line(), b.line()
            b.send({"type": "report", "message": first["id"]})
            b.recv_type("reported")
            b.send({"type": "report", "message": second["id"]})
            assert "too many reports" in b.error()
        with Session(store_of(ann).engine) as s:
            assert s.scalar(select(func.count()).select_from(ChatReportRow)) == 1


# ----------------------------------------------------------------------
# Across processes


def test_a_line_said_in_one_process_reaches_the_other(tmp_path: Path) -> None:
    """Two apps on one database, as two processes of ``casino serve --workers 2``: on
    PostgreSQL a line reaches the other's connections as it is said (LISTEN/NOTIFY); on
    SQLite (one process in production) a page of the other app is sent it on hello."""
    with server(tmp_path) as one, server(tmp_path) as two:
        gid, bob_one = room(one)
        bob = guest(two)
        bob.cookies = bob_one.cookies
        ann = one
        with bob.websocket_connect(f"/ws/{gid}") as wb, ann.websocket_connect(f"/ws/{gid}") as wa:
            b, a = Talker(wb), Talker(wa)
            a.say("over there")
            a.line()
            if POSTGRES:
                assert b.line()["text"] == "over there"
            b.say("and back")
            assert b.lines_until("and back")[-1] == "and back"
            if POSTGRES:
                assert a.lines_until("and back") == ["and back"]
        with bob.websocket_connect(f"/ws/{gid}") as wb:
            assert Talker(wb).lines_until("and back") == ["over there", "and back"]
