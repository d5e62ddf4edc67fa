"""The game's WebSocket speaks each connection's language: chosen at the handshake as a
page's is (the ``lang`` cookie, else ``Accept-Language``, else English), every state,
event, notice and error sent to it is worded in it, whatever the language of the other
connections to the same game; what is stored stays as an English game's."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from casino import i18n
from casino.engine.match import Match
from casino.engine.rules import Rules
from casino.web import rooms as rooms_module
from casino.web.messages import MessageError, parse
from casino.web.table_events import Told, in_language, told_event
from casino.web.table_words import round_words
from tests.web_helpers import Seat, guest, new_game, web

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient


@dataclass
class Table:
    """What a game's three connections (Ann, Bob, a spectator) received, and what the
    server stored of the game."""

    ann: Seat
    bob: Seat
    watcher: Seat
    #: A second spectator, reading Finnish: spectators' states are built once per version
    #: and language.
    katsoja: Seat
    errors: dict[str, list[str]]
    #: What resigning would do, as each seat was told at the start.
    resigning: dict[str, str]
    record: str
    events: list[tuple[Any, ...]]


def _events(seat: Seat, kind: str) -> list[str]:
    """The words of every event of ``kind`` that ``seat`` was sent."""
    return [str(e["words"]) for m in seat.payloads if m["type"] == "state"
            for e in m["events"] if e["kind"] == kind]


@contextmanager
def _dealt_alike(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every new room's match dealt from one seed: two runs of the same play are the same
    game, whoever reads it in whatever language."""
    monkeypatch.setattr(rooms_module, "Match",
                        lambda rules, seed=None: Match(rules, seed=7))
    yield


def _advance(moving: Seat, others: list[Seat]) -> None:
    """Everyone up to the version ``moving``'s message made."""
    moving.until_version(moving.version + 1)
    for s in others:
        s.until_version(moving.version)


def _play(tmp_path: Path, ann_lang: str | None, bob_lang: str | None,
          watcher_header: str | None) -> Table:
    """A room of Ann (cookie ``ann_lang``) and Bob (cookie ``bob_lang``) watched by a
    spectator (``Accept-Language: watcher_header``): a refused message from each seat, a
    whole round, the next one dealt, and Ann's resignation."""
    with web(tmp_path) as ann_client:
        if ann_lang:
            ann_client.cookies.set("lang", ann_lang)
        r = ann_client.post("/api/games", json={"rules": "casino", "mode": "friends",
                                                "name": "Ann", "level": "beginner",
                                                "spectators": True})
        assert r.status_code == 201, r.text
        gid, invite = str(r.json()["game"]), str(r.json()["invite"])
        bob_client = guest(ann_client)
        if bob_lang:
            bob_client.cookies.set("lang", bob_lang)
        assert bob_client.get(f"{invite}?name=Bob", follow_redirects=False).status_code == 303
        watcher_client = guest(ann_client)
        headers = {"accept-language": watcher_header} if watcher_header else {}
        with ExitStack() as stack:
            ann = Seat(stack.enter_context(ann_client.websocket_connect(f"/ws/{gid}")))
            bob = Seat(stack.enter_context(bob_client.websocket_connect(f"/ws/{gid}")))
            watcher = Seat(stack.enter_context(watcher_client.websocket_connect(
                f"/ws/watch/{gid}", headers=headers)))
            katsoja_client = guest(ann_client)
            katsoja_client.cookies.set("lang", "fi")
            katsoja = Seat(stack.enter_context(katsoja_client.websocket_connect(
                f"/ws/watch/{gid}")))
            for s in (ann, bob, watcher, katsoja):
                s.hello(0)
            errors: dict[str, list[str]] = {"ann": [], "bob": [], "watcher": []}
            for name, s in (("ann", ann), ("bob", bob), ("watcher", watcher)):
                s.ws.send_text("{")  # not JSON
                errors[name].append(s.error())
            bob.send({"type": "play", "move": "9d", "version": 10_000})  # a stale version
            errors["bob"].append(bob.error())
            waiting = {0: bob, 1: ann}[ann.view["to_move"]]  # a move out of turn
            waiting.send({"type": "play", "move": "9d"})
            errors["turn"] = [waiting.error()]
            resigning = {"ann": ann.view["resign_words"], "bob": bob.view["resign_words"]}
            watcher.send({"type": "resign"})  # a spectator may not
            errors["watcher"].append(watcher.error())
            seats = {0: ann, 1: bob}
            for _ in range(200):
                v = ann.view
                if v["status"] == "round_over":
                    break
                mover = seats[v["to_move"]]
                mover.play_first()
                _advance(mover, [s for s in (ann, bob, watcher, katsoja) if s is not mover])
            else:
                raise AssertionError("the round did not end")
            ann.send({"type": "next_round"})
            _advance(ann, [bob, watcher, katsoja])
            ann.send({"type": "resign"})
            _advance(ann, [bob, watcher, katsoja])
            assert ann.view["status"] == "over"
        stored = ann_client.app.state.service.store.load(gid)  # type: ignore[attr-defined]
        assert stored is not None
        return Table(ann, bob, watcher, katsoja, errors, resigning, stored.record,
                     [(e.n, e.kind, e.seat, e.text, e.words, e.words_you)
                      for e in stored.events])


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Table]:
    """The same game played twice: read in Finnish, Swedish and English at once, and
    read in English by everyone."""
    with pytest.MonkeyPatch.context() as monkeypatch, _dealt_alike(monkeypatch):
        return {"mixed": _play(tmp_path_factory.mktemp("mixed"), "fi", "sv", None),
                "english": _play(tmp_path_factory.mktemp("english"), None, None, None)}


def test_each_seat_is_told_the_table_s_events_in_its_own_language(
        tables: dict[str, Table]) -> None:
    t = tables["mixed"]
    # Bob's joining, told to each as they read it (to Bob himself as "you").
    assert _events(t.ann, "joined") == ["Bob liittyi peliin: peli alkaa"]
    assert _events(t.bob, "joined") == ["Du gick med: partiet börjar"]
    assert _events(t.watcher, "joined") == ["Bob joined: the game begins"]
    # The round's end, the next deal and the resignation that ends the game.
    assert _events(t.ann, "round_end")[0].startswith("Kierros 1 päättyi: Ann ")
    assert _events(t.bob, "round_end")[0].startswith("Omgång 1 är slut: Ann ")
    assert _events(t.watcher, "round_end")[0].startswith("Round 1 is over: Ann ")
    assert _events(t.ann, "next_round")[0].startswith("Kierros 2: ")
    assert _events(t.bob, "next_round")[0].startswith("Omgång 2: ")
    assert _events(t.watcher, "next_round")[0].startswith("Round 2: ")
    assert _events(t.ann, "game_over") == ["Ann luovutti: Bob voittaa"]
    assert _events(t.bob, "game_over") == ["Ann gav upp: Bob vinner"]
    assert _events(t.watcher, "game_over") == ["Ann resigned: Bob wins"]
    assert _events(t.katsoja, "game_over") == ["Ann luovutti: Bob voittaa"]
    # The resignation's own note: to Ann herself as "you".
    assert _events(t.ann, "resign") == ["Luovutit"]
    assert _events(t.bob, "resign") == ["Ann gav upp"]
    assert _events(t.watcher, "resign") == ["Ann resigned"]


def test_each_seat_s_view_is_worded_in_its_own_language(tables: dict[str, Table]) -> None:
    t = tables["mixed"]
    assert t.ann.view["rated_words"] == "Vapaa peli"
    assert t.ann.view["settings"]["words"] == "Vihjeet pois · Siirron peruminen pois"
    assert t.bob.view["settings"]["words"] == "Tips av · Ångra av"
    assert t.watcher.view["settings"]["words"] == "Hints off · Take-backs off"
    assert t.bob.view["rated_words"] == "Vänskapligt parti"
    assert t.watcher.view["rated_words"] == "Casual game"
    assert t.ann.view["result"]["summary"] == "Ann luovutti: Bob voittaa"
    assert t.bob.view["result"]["summary"] == "Ann gav upp: Bob vinner"
    assert t.watcher.view["message"] == "You are watching Ann and Bob play."
    # The spectator's views of the round played were in English, every one of them.
    watched = [m for m in t.watcher.payloads if m["type"] == "state"]
    assert watched and all(m["view"]["message"] == "You are watching Ann and Bob play."
                           for m in watched)
    # The Finnish spectator's, of the same versions, in Finnish.
    katsottu = [m for m in t.katsoja.payloads if m["type"] == "state"]
    assert katsottu and all(
        m["view"]["message"] == "Katsot, kun Ann ja Bob pelaavat." for m in katsottu)
    assert t.katsoja.view["rated_words"] == "Vapaa peli"


def test_each_connection_is_refused_in_its_own_language(tables: dict[str, Table]) -> None:
    errors = tables["mixed"].errors
    assert errors["ann"] == ["viesti ei ole kelvollista JSONia; lähetä olio, esimerkiksi "
                             '{"type": "hello", "since": 0}']
    assert errors["bob"][0].startswith("meddelandet är inte giltig JSON; ")
    assert errors["bob"][1].startswith("partiet har gått vidare (du skickade det vid "
                                       "version 10000, det är vid ")
    assert errors["turn"][0] in ("nyt on pelaajan Bob vuoro, ei sinun",  # Ann's
                                 "det är inte din tur: Ann ska dra")  # Bob's
    assert tables["mixed"].resigning == {"ann": "vastapuoli voittaa heti",
                                         "bob": "den andra sidan vinner direkt"}
    assert tables["english"].resigning["ann"] == "the other side wins at once"
    assert errors["watcher"] == [
        'that message is not valid JSON; send an object such as {"type": "hello", "since": 0}',
        "you are watching this game: a spectator cannot resign"]


def test_the_stored_game_is_an_english_game_s(tables: dict[str, Table]) -> None:
    mixed, english = tables["mixed"], tables["english"]
    assert mixed.record == english.record
    assert mixed.events == english.events
    words = {e[1]: e[4] for e in mixed.events}
    assert words["joined"] == "Bob joined: the game begins"
    assert words["game_over"] == "Ann resigned: Bob wins"
    # And the English game's readers were told what its readers always were.
    assert _events(english.ann, "game_over") == ["Ann resigned: Bob wins"]
    assert english.ann.view["rated_words"] == "Casual game"


def test_no_finnish_or_swedish_word_reaches_an_english_reader(
        tables: dict[str, Table]) -> None:
    sent = json.dumps([m for s in (tables["mixed"].watcher, tables["english"].ann,
                                   tables["english"].bob) for m in s.payloads],
                      ensure_ascii=False)
    for word in ("Kierros", "Omgång", "luovutti", "gav upp", "Vapaa", "Vänskapligt",
                 "liittyi", "gick med", "JSONia", "giltig"):
        assert word not in sent, word


@pytest.mark.parametrize(("cookie", "header", "lang"), [
    ("sv", "fi", "sv"),    # the cookie first
    ("xx", "sv", "sv"),    # an unknown cookie: the browser's languages
    ("xx", "de, fi;q=0.5", "fi"),
    ("xx", None, "en"),    # neither: English
    (None, "de", "en")])
def test_the_socket_s_language_is_chosen_as_a_page_s(
        tmp_path: Path, cookie: str | None, header: str | None, lang: str) -> None:
    with web(tmp_path) as ann:
        r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                         "level": "beginner", "spectators": True})
        gid = str(r.json()["game"])
        watcher: TestClient = guest(ann)
        if cookie:
            watcher.cookies.set("lang", cookie)
        headers = {"accept-language": header} if header else {}
        with watcher.websocket_connect(f"/ws/watch/{gid}", headers=headers) as ws:
            seat = Seat(ws)
            message = seat.hello(0)["view"]["message"]
            seat.ws.send_text("[]")
            refused = seat.error()
        expected = {"en": "You are watching a room waiting for its players",
                    "fi": "Katsot huonetta, joka odottaa pelaajiaan",
                    "sv": "Du tittar på ett rum som väntar på sina spelare"}[lang]
        assert message.startswith(expected)
        assert refused.startswith({"en": "a message is a JSON object",
                                   "fi": "viesti on JSON-olio",
                                   "sv": "ett meddelande är ett JSON-objekt"}[lang])


def test_words_told_are_worded_once_in_each_language() -> None:
    said: list[str] = []

    def say() -> str:
        said.append(i18n.current())
        return round_words(Rules(), ("Ann", "Bob"), 2, (8, 3))

    told = Told(say)
    event = told_event(5, "round_end", None, None, told)
    assert event.words == "Round 2 is over: Ann 8, Bob 3"  # stored: the English
    for lang in ("fi", "sv", "fi", "en", "sv"):
        with i18n.using(lang):
            event.to_json(0)
    assert sorted(said) == ["en", "fi", "sv"]
    with i18n.using("fi"):
        assert event.to_json(1)["words"] == "Kierros 2 päättyi: Ann 8, Bob 3"
    with i18n.using("sv"):
        assert event.to_json(None)["words"] == "Omgång 2 är slut: Ann 8, Bob 3"


def test_a_worker_s_job_is_worded_in_its_asker_s_language() -> None:
    with i18n.using("sv"):
        assert in_language("fi", round_words, Rules(), ("Ann", "Bob"), 1, (1, 2)) == (
            "Kierros 1 päättyi: Ann 1, Bob 2")
        assert i18n.current() == "sv"


def test_the_lobby_s_lists_and_levels_are_in_the_request_s_language(tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                         "level": "beginner", "public": True,
                                         "clock": {"kind": "move", "seconds": 30}})
        assert r.status_code == 201, r.text
        clocks = {}
        for lang in ("en", "fi", "sv"):
            ann.cookies.set("lang", lang)
            rooms = ann.get("/api/games").json()["open"]
            clocks[lang] = [g["clock"] for g in rooms]
        assert clocks == {"en": ["30 s a move"], "fi": ["30 s / siirto"],
                          "sv": ["30 s per drag"]}
        ann.cookies.set("lang", "fi")
        page = ann.get("/").text
        assert ">keskitaso</option>" in page and ">aloittelija</option>" in page
        ann.cookies.set("lang", "en")
        assert ">medium</option>" in ann.get("/").text


def test_events_read_back_from_the_database_are_told_in_the_reader_s_language(
        tmp_path: Path) -> None:
    with web(tmp_path) as ann:
        ann.cookies.set("lang", "fi")
        r = ann.post("/api/games", json={"rules": "casino", "mode": "friends", "name": "Ann",
                                         "level": "beginner"})
        gid, invite = str(r.json()["game"]), str(r.json()["invite"])
        bob = guest(ann)
        bob.cookies.set("lang", "sv")
        assert bob.get(f"{invite}?name=Bob", follow_redirects=False).status_code == 303
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            a = Seat(ws)
            a.hello(0)
            a.send({"type": "resign"})
            a.until_version(a.version + 1)
        live = ann.app.state.service.live  # type: ignore[attr-defined]
        first = live.games[gid]
        live.drop(first)  # as after a restart: the game is read from the database
        with bob.websocket_connect(f"/ws/{gid}") as ws:
            b = Seat(ws)
            b.hello(0)
        assert live.games[gid] is not first
        assert _events(b, "joined") == ["Du gick med: partiet börjar"]
        assert _events(b, "resign") == ["Ann gav upp"]
        assert _events(b, "game_over") == ["Ann gav upp: Bob vinner"]
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            a = Seat(ws)
            a.hello(0)
        assert _events(a, "joined") == ["Bob liittyi peliin: peli alkaa"]
        assert _events(a, "resign") == ["Luovutit"]
        stored = ann.app.state.service.store.load(gid)  # type: ignore[attr-defined]
        assert [e.words for e in stored.events if e.kind == "resign"] == ["Ann resigned"]


@pytest.mark.parametrize(("text", "english", "finnish", "swedish"), [
    ('{"type": "hello", "since": "x"}', "input should be a valid integer",
     "arvon pitää olla kokonaisluku", "värdet ska vara ett heltal"),
    ('{"type": "hello", "since": -1}', "input should be greater than or equal to 0",
     "arvon pitää olla vähintään 0", "värdet ska vara minst 0"),
    ('{"type": "play", "move": ""}', "string should have at least 1 character",
     "tekstissä pitää olla vähintään 1 merkki", "texten ska ha minst 1 tecken"),
    ('{"type": "chat_off", "off": "maybe"}', "input should be a valid boolean",
     "arvon pitää olla true tai false", "värdet ska vara true eller false")])
def test_a_wrong_value_is_said_in_the_reader_s_language(
        text: str, english: str, finnish: str, swedish: str) -> None:
    said = {}
    for lang in ("en", "fi", "sv"):
        with i18n.using(lang), pytest.raises(MessageError) as refused:
            parse(text, players=2)
        said[lang] = str(refused.value)
    assert english in said["en"]
    assert finnish in said["fi"] and "input should" not in said["fi"]
    assert swedish in said["sv"] and "input should" not in said["sv"]


@pytest.mark.parametrize(("lang", "you", "computer"), [
    ("fi", "Sinä", "Tietokone"), ("sv", "Du", "Datorn"), (None, "You", "Computer")])
def test_a_game_against_the_computer_names_its_seats_in_the_reader_s_language(
        tmp_path: Path, lang: str | None, you: str, computer: str) -> None:
    """The default names a table gives (``You``, ``Computer``) are shown in the reader's
    language, in the seats' names and in the moves told, while the game keeps them in
    English; a name a person chose is shown as it is."""
    with web(tmp_path) as client:
        if lang:
            client.cookies.set("lang", lang)
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            state = seat.hello()
            assert state["view"]["names"] == [you, computer], state["view"]["names"]
            # The computer moves after the person: play a card, then read until it has
            # (a bounded number of messages).
            seat.send({"type": "play", "move": seat.view["legal"][0]["text"],
                       "version": seat.version})
            for _ in range(20):
                if any(item["seat"] == 1 for item in seat.view.get("log", [])):
                    break
                seat.recv()
            told = [item["words"] for item in seat.view["log"] if item["seat"] == 1]
            assert told and all(w.startswith(computer + " ") for w in told), told


def test_a_name_a_person_chose_is_shown_as_it_is() -> None:
    """Only the table's default names are translated; *Ann* stays *Ann*, and ``Computer 2``
    (a table's numbered computers) is said in the language."""
    from casino.play.names import shown_names

    with i18n.using("fi"):
        assert shown_names(["Ann", "You", "Computer 2", "Player 3"]) == (
            "Ann", "Sinä", "Tietokone 2", i18n.pgettext("player", "Player %(n)s") % {"n": 3})
    assert shown_names(["Computer 2"]) == ("Computer 2",)
