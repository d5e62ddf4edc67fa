"""The server's refusals in Finnish and in Swedish, through the real app: a browser whose
``lang`` cookie names a language is refused in it (a bad invite link, a game that does
not exist, a room the rules or the mode refuse, a request body that is not JSON, a card's
drawing, a guide or a leaderboard that is not one, a change from another site), with
the same HTTP status; a browser without one is refused in English, word for word as
before. The refusals worded apart from a request (the rooms' counts, the holder of a
share, a worker's, the helper's and the reviews' failures, told later to their asker)
read in each language too, and so do `casino serve`'s words to its operator."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from casino.i18n import _, using
from casino.web.daily import margin_words
from casino.web.limits import size_words
from casino.web.requester import ACCOUNT, holder_words
from casino.web.reviews import too_many
from casino.web.rooms import too_many_rooms
from casino.web.settings import limits_from
from casino.web.single import served_by
from casino.web.tools import ToolError, helper_too_many
from casino.web.workers import TIMED_OUT, WorkerTimeout, worker_words
from tests.web_helpers import browser, web

#: Each refusal asked for: its path, its body (a JSON object, raw text, or None for a
#: GET) and its status.
ASKED = {
    "invite": ("/join/0123456789abcdef/not-a-code", None, 404),
    "no game": ("/api/games/0123456789abcdef/review?seat=0", None, 404),
    "lesson": ("/api/games", {"mode": "lesson", "spectators": True}, 400),
    "room": ("/api/games", {"mode": "friends", "players": 2, "people": 3}, 400),
    "clock": ("/api/games", {"mode": "computer", "clock": {"kind": "move", "seconds": 30}},
              400),
    "not json": ("/api/games", "[1, 2]", 400),
    "card": ("/svg/card/Zz.svg", None, 404),
    "guide": ("/guide/nothing", None, 404),
    "board": ("/leaderboard?rules=casino&players=9", None, 400),
    "cross-site": ("/api/games", {"mode": "computer"}, 403),
}
#: The headers a refusal is asked with (another site's page: refused by the guard,
#: before the app chooses the language).
HEADERS = {"cross-site": {"origin": "https://elsewhere.example"}}
#: What each refusal says, in each language (a part of it, enough to know it).
SAYS = {
    "en": {"invite": "this invite link is not valid: check that you copied all of it",
           "no game": "there is no such game",
           "lesson": "a lesson cannot be watched: leave \"spectators\" out",
           "room": "a room is for 2 to 2 people in a 2-player game",
           "clock": "a clock is for a room of people: a game against the computer or a "
                    "lesson has none",
           "not json": "the request must be a JSON object, as {\"rules\": \"casino\"}",
           "card": "no such card", "guide": "no guide for &#39;nothing&#39;; the guides are",
           "board": "a whole number, 2 to 4, and",
           "cross-site": "changes are taken only from this site's own pages"},
    "fi": {"invite": "tämä kutsulinkki ei kelpaa", "no game": "tällaista peliä ei ole",
           "lesson": "oppituntia ei voi seurata", "room": "2 pelaajan pelin huoneessa",
           "clock": "kello on ihmisten huoneita varten",
           "not json": "pyynnön on oltava JSON-olio", "card": "tällaista korttia ei ole",
           "guide": "oppaat ovat", "board": "kokonaisluku 2–4, ja säännöstöä",
           "cross-site": "muutokset otetaan vastaan vain tämän sivuston omilta sivuilta"},
    "sv": {"invite": "den här inbjudningslänken är inte giltig",
           "no game": "det finns inget sådant parti",
           "lesson": "en lektion kan inte tittas på", "room": "ett rum är för 2 till 2",
           "clock": "en klocka hör till ett rum för människor",
           "not json": "begäran måste vara ett JSON-objekt", "card": "inget sådant kort",
           "guide": "guiderna är", "board": "ett heltal, 2 till 4, och",
           "cross-site": "ändringar tas bara emot från webbplatsens egna sidor"},
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web(tmp_path_factory.mktemp("i18n-webcore")) as client:
        yield client


def refused(app: TestClient, lang: str | None, what: str) -> str:
    """The words of the refusal ``what`` to a browser in ``lang`` (None: no cookie), its
    status checked."""
    client = browser(app)
    if lang is not None:
        client.cookies.set("lang", lang)
    path, body, status = ASKED[what]
    if isinstance(body, str):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
    elif body is not None:
        r = client.post(path, json=body, headers=HEADERS.get(what, {}))
    else:
        r = client.get(path)
    assert r.status_code == status, (what, r.status_code, r.text)
    if r.headers["content-type"].startswith("application/json"):
        return str(r.json()["error"])
    return str(r.text)


@pytest.mark.parametrize("what", sorted(ASKED))
def test_a_refusal_is_english_as_it_was(app: TestClient, what: str) -> None:
    assert SAYS["en"][what] in refused(app, None, what)


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("what", sorted(ASKED))
def test_a_refusal_is_in_the_browsers_language(app: TestClient, lang: str, what: str) -> None:
    words = refused(app, lang, what)
    assert SAYS[lang][what] in words
    assert SAYS["en"][what] not in words


def test_the_rooms_counts_and_the_shares_read_in_each_language() -> None:
    english = too_many_rooms(True, 3, 30)
    assert english == ("you have 3 rooms waiting for players already; use one of them, or "
                       "wait for one to lapse (a room waits 30 minutes)")
    assert too_many_rooms(False, 1, 30).startswith("your network has 1 room waiting")
    with using("fi"):
        assert too_many_rooms(True, 3, 30).startswith("sinulla on jo 3 huonetta")
        assert too_many_rooms(False, 1, 30).startswith("verkostasi on jo 1 huone ")
        assert margin_words(3) == "Päivän jako on päättynyt: eroksesi tuli +3"
        assert size_words(2_000_000) == "2\u00a0000\u00a0000 tavua"  # no-break spaces
    with using("sv"):
        assert too_many_rooms(True, 3, 30).startswith("du har redan 3 rum")
        assert "(ett rum väntar 30 minuter)" in too_many_rooms(False, 1, 30)
        assert margin_words(-2, "Ann") == "Dagens giv är slut: Ann har marginalen -2"
    assert margin_words(3) == "The daily deal is over: your margin is +3"
    assert size_words(2_000_000) == "2,000,000 bytes"


def test_the_workers_the_helpers_and_the_reviews_words_are_told_in_the_askers_language(
) -> None:
    timeout = WorkerTimeout(TIMED_OUT, seconds="3")
    assert str(timeout) == "the job did not finish in 3 seconds and was stopped"
    late = ToolError.later(lambda: _("the helper stopped unexpectedly: try again"), 503)
    assert late.message == "the helper stopped unexpectedly: try again"
    with using("fi"):
        assert worker_words(timeout) == "työ ei valmistunut 3 sekunnissa, ja se pysäytettiin"
        assert json.loads(bytes(late.response().body))["error"] == (
            "apuri pysähtyi odottamatta: yritä uudelleen")
        assert too_many(holder_words(ACCOUNT + "x"), 2).startswith(
            "tunnuksellasi on jo 2 analyysia")
    with using("sv"):
        assert worker_words(timeout) == "jobbet blev inte klart på 3 sekunder och stoppades"
        assert json.loads(bytes(late.response().body))["error"] == (
            "hjälpen stannade oväntat: försök igen")
        assert helper_too_many(holder_words("x"), 1).startswith("du har redan 1 fråga")
    assert too_many(holder_words("x"), 1) == (
        "you have 1 review being computed or waiting already: wait for it to finish before "
        "asking for another")
    assert json.loads(bytes(late.response().body))["error"] == late.message


def test_casino_serves_words_to_its_operator_are_in_the_language_in_force() -> None:
    with using("fi"), pytest.raises(ValueError, match="rajan rooms_per_address arvo on "
                                                      r"kokonaisluku, ei '2\.5'"):
        limits_from(["rooms_per_address=2.5"])
    with using("sv"):
        with pytest.raises(ValueError, match="det finns ingen gräns 'nope'; gränserna är"):
            limits_from(["nope=1"])
        assert served_by(Path("casino.db"), "42").startswith(
            "databasen casino.db betjänas redan av process 42: en SQLite-databas")
    with pytest.raises(ValueError, match="the limit hint_wait must be more than 0, not 0"):
        limits_from(["hint_wait=0"])
    assert served_by(Path("casino.db"), "").startswith(
        "the database casino.db is already served by another process")
