"""The teaching words in Finnish and Swedish: the lesson's steps, the hints' reasons and
the review, written in the language in force where they are shown; English unchanged.

The moves' narration, the glossary's definitions and the rules' paragraphs that these
texts embed are other modules' words (``casino.words``), so the checks for English
leftovers look for the teaching layer's own English only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from casino import i18n
from casino.bots.judge import Budget
from casino.engine.record import Record
from casino.i18n import using
from casino.teach.hint import advise_job, run_hint_job
from casino.teach.lesson import lesson_session, play_lesson
from casino.teach.phrases import points_words
from casino.teach.report import report_lines
from casino.teach.retell import retold
from casino.teach.review import Review, advice, review
from casino.tui.review import ReviewScreen
from tests.cli_helpers import run
from tests.test_review import bots_game

SMALL = Budget(depth=2, nodes=80)

#: The lesson's own English (not the narration, the glossary or the rules it quotes).
LESSON_ENGLISH = ("Play ", "This one move is also", "The round is over", "This round:",
                  "In all, points", "nobody scored", "Lesson — ", "Learned: ")
#: The hints' own English.
HINT_ENGLISH = ("It takes", "point card", "is worth", "costs ", "The next player",
                "By the judge", "leaves ", "clears the table", "Nobody plays",
                "on average", "deals of the hidden cards", "It is the only play",
                "the next best", "scores a sweep")
#: The review's own English.
REVIEW_ENGLISH = ("Review of", "Grades:", "judged", "forced move", "The costliest",
                  "By kind of move", "points lost", "expected points", "Round ",
                  "hindsight", "margin:", "cost:", "inaccurac", "mistake", "blunder",
                  "about as good", "captures", "trails", "last deal", "you chose",
                  "better to", "which leaves", "deals of the hidden cards", " good")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """``--lang`` sets the language of the test's thread: give the next test English."""
    yield
    i18n.set_language(i18n.DEFAULT)


def no_english(text: str, words: tuple[str, ...]) -> None:
    left = [w for w in words if w in text]
    assert not left, (left, text)


# ----------------------------------------------------------------------
# The lesson


def lesson_text(lang: str) -> str:
    """Every step of kasino's lesson, followed to the round's end, in ``lang``."""
    with using(lang):
        steps = play_lesson(lesson_session("kasino"))
        return "\n".join("\n".join(s.lines()) for s in steps)


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Pelaa 8s x 8c:", "Tämä yksi siirto on samalla myös summa.",
            "Kierros on ohi, ja otetut kortit lasketaan",
            "Pisteet tältä kierrokselta yhteensä:", "Opastus — Kierroksen pisteet")),
    ("sv", ("Spela 8s x 8c:", "Det här enda draget räknas också som summa.",
            "Omgången är slut och de tagna korten räknas",
            "Poäng den här omgången totalt:", "Lektion — Omgångens poäng")),
])
def test_the_lessons_steps_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    text = lesson_text(lang)
    for word in words:
        assert word in text, word
    no_english(text, LESSON_ENGLISH)


def test_the_lesson_in_english_is_unchanged() -> None:
    text = lesson_text("en")
    for word in ("Play 8s x 8c: your 8♠ takes the 8♣.",
                 "This one move is also a sum.",
                 "The round is over and the captured cards are counted, item by item in "
                 "the rules' order. This round: You +1 for most cards;"):
        assert word in text, word


def test_the_web_lessons_step_has_its_title_and_kinds_in_the_language() -> None:
    with using("fi"):
        step = play_lesson(lesson_session("kasino"), deals=0)[0].to_json()
    assert step["title"] == "Pari" and step["text"].startswith("Pelaa ")
    assert step["names"]["sweep"] == "mökki" and step["names"]["trail"] == "pöytään laitto"
    english = play_lesson(lesson_session("kasino"), deals=0)[0].to_json()
    assert english["title"] == "Pairing" and english["names"]["sweep"] == "sweep"


def test_casino_learn_lang_fi_shows_the_lessons_text_in_finnish() -> None:
    code, out, err = run("--lang", "fi", "learn", "--rules", "kasino", "--plain",
                         "--pause", "0", input="")
    assert code == 0, err
    assert "Opastus — Pari" in out and "Pelaa 8s x 8c: " in out
    assert "Play 8s" not in out


# ----------------------------------------------------------------------
# The hints


def reasons(lang: str) -> list[str]:
    """The reasons of every play of the lesson's first turn, as a hint job in ``lang``
    answers them (the job carries the asker's language to its worker)."""
    session = lesson_session("casino")
    with using(lang):
        job = session.hint_job()
    assert job.lang == lang
    job = replace(job, level="beginner")  # quick: the words, not the judge, are tested
    return [p.reason for p in advise_job(job).plays]


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Se ottaa ", "pistekortit ", "ja tekee mökin", "tyhjentää pöydän",
            "Arvioijan mukaan se on", "arvotussa piilokorttien jaossa", "jättää pöytään")),
    ("sv", ("Det tar ", "poängkorten ", "och gör tabbe", "tömmer bordet",
            "Enligt domaren är det", "giv av de dolda korten", "lämnar kvar")),
])
def test_the_hints_reasons_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    text = "\n".join(reasons(lang))
    for word in words:
        assert word in text, word
    no_english(text, HINT_ENGLISH)


def test_a_hint_in_english_is_unchanged() -> None:
    text = "\n".join(reasons("en"))
    assert "It takes A♠, A♥, A♦, 4♣ and 9♣, the point cards A♠, A♥ and A♦ (3 points), " \
           "and scores a sweep; it is worth " in text
    assert "By the judge it is " in text and "leaves the 14-build." in text


def test_the_workers_answer_is_in_the_askers_language() -> None:
    with using("sv"):
        job = replace(lesson_session("casino").hint_job(), level="beginner")
    data = json.loads(run_hint_job(job))  # the worker's own language is English
    assert data["plays"][0]["reason"].startswith("Det tar ")


@pytest.mark.parametrize(("lang", "one", "two", "some"), [
    ("en", "1 point", "2 points", "2.4 points"),
    ("fi", "1 piste", "2 pistettä", "2,4 pistettä"),
    ("sv", "1 poäng", "2 poäng", "2,4 poäng"),
])
def test_points_for_one_and_many(lang: str, one: str, two: str, some: str) -> None:
    with using(lang):
        assert (points_words(1), points_words(2), points_words(2.4)) == (one, two, some)


# ----------------------------------------------------------------------
# The review


@pytest.fixture(scope="module")
def game() -> Record:
    return bots_game()


@pytest.fixture(scope="module")
def reviewed(game: Record) -> Review:
    return review(game, 0, samples=2, seed=5, limit=SMALL)


def report(r: Review, game: Record, lang: str) -> str:
    with using(lang):
        return "\n".join(report_lines(r, game))


def test_the_review_to_report_has_costly_decisions(reviewed: Review) -> None:
    # The checks below read the advice and every grade's words: the game must have them.
    assert reviewed.costliest and {d.grade for d in reviewed.decisions} >= {"good"}


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Analyysi: ", "ratkaisua arvioitu", "Arviot: ", "Kalleimmat ratkaisut:",
            "Kierros 1", "Siirtolajeittain", "pistettä menetetty", "hinta: ", "ero: ",
            "jälkikäteen", "valitsit ", "parempi: ", "otot", "viimeinen jako")),
    ("sv", ("Analys av ", "beslut bedömda", "Betyg: ", "De dyraste besluten:", "Omgång 1",
            "Efter slags drag", "poäng förlorade", "kostnad: ", "marginal: ",
            "i efterhand", "du valde att ", "bättre att ", "tagningar", "sista given")),
])
def test_the_review_report_in_the_language(reviewed: Review, game: Record, lang: str,
                                           words: tuple[str, ...]) -> None:
    # The review judged in the language, as casino review --lang does it.
    with using(lang):
        r = review(game, 0, samples=2, seed=5, limit=SMALL)
    text = report(r, game, lang)
    for word in words:
        assert word in text, word
    no_english(text, REVIEW_ENGLISH)
    assert not re.search(r"\d\.\d", text), "numbers with a decimal comma"
    assert not re.search(r"\d to \S*\d", text), "a cost's interval in the language"
    # The same judgement; only the words the review kept (what a move leaves) differ.
    assert [(d.move, d.verdict, d.cost) for d in r.decisions] == [
        (d.move, d.verdict, d.cost) for d in reviewed.decisions]


def test_the_review_in_english_is_unchanged(reviewed: Review, game: Record) -> None:
    text = report(reviewed, game, "en")
    assert text.startswith("Review of ") and "Grades: " in text
    assert "By kind of move (the last deal's moves apart):" in text
    assert "The costliest decisions:\n  1. Round " in text


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "1 point better", "points better"),
    ("fi", "1 pisteen parempi", "pistettä parempi"),
    ("sv", "1 poäng bättre", "poäng bättre"),
])
def test_the_advice_for_one_point_and_more(reviewed: Review, lang: str, one: str,
                                           many: str) -> None:
    d = reviewed.decisions[reviewed.costliest[0]]
    with using(lang):
        assert one in advice(replace(d, cost=1.0))
        assert many in advice(replace(d, cost=2.5)) and one not in advice(replace(d, cost=2.5))


def test_casino_review_lang_sv(tmp_path: Path, game: Record) -> None:
    from casino.engine.record import write_record

    path = tmp_path / "bots.rec"
    path.write_text(write_record(game, players=["human", "expert"]), encoding="utf-8")
    code, out, err = run("--lang", "sv", "review", str(path), "--samples", "2", "--depth",
                         "2", "--nodes", "80")
    assert code == 0, err
    assert out.startswith("Analys av ") and "Betyg: " in out
    no_english(out, REVIEW_ENGLISH)


def test_the_terminal_review_screens_words(reviewed: Review, game: Record) -> None:
    with using("fi"):
        screen = ReviewScreen(game, 0)
        lines = screen.summary(reviewed) + screen.detail(reviewed.decisions[0])
    text = "\n".join(lines)
    assert screen.lang == "fi"
    for word in ("Kalleimmat ratkaisut:", "Siirtolajeittain", "Pelattu: ", "Jälkikäteen"):
        assert word in text, word
    no_english(text, (*REVIEW_ENGLISH, "Played:", "Better:", "decided", "Your hand"))


def test_a_kept_review_is_told_in_the_askers_language(reviewed: Review) -> None:
    kept = reviewed.to_json()  # as the web keeps it: computed in English
    assert retold(kept) is kept  # English: as kept
    with using("fi"):
        told = retold(json.loads(json.dumps(kept)))
    assert told["advice"][0].startswith("Kierros ") and "valitsit" in told["advice"][0]
    assert {d["verdict_words"] for d in told["decisions"]} <= {
        "hyvä", "epätarkkuus", "virhe", "vakava virhe", "lähes yhtä hyvä"}
    assert [d["verdict"] for d in told["decisions"]] == [d.verdict for d in reviewed.decisions]
    assert told["totals"][0]["kind_words"] == "otot"
    assert all(d["leaves"].startswith(("jättää", "tyhjentää")) for d in told["decisions"])


def test_the_helper_pages_reasons_are_in_the_askers_language() -> None:
    from casino.web.helper_job import judged_helper_json

    req = {"rules": "casino", "table": "9c 4c 5h", "hand": "9d 2s 8c", "level": "beginner"}
    with using("en"):  # the worker's language: the request's "lang" decides
        fi = judged_helper_json({**req, "lang": "fi"})
        en = judged_helper_json(req)
    fi_reasons = [m["reason"] for m in fi["moves"] if m.get("reason")]
    assert fi_reasons and all(r.startswith("Se ") for r in fi_reasons)
    assert all(m["reason"].startswith("It ") for m in en["moves"] if m.get("reason"))


def test_the_full_screen_games_hint_is_explained_in_its_language(tmp_path: Path) -> None:
    # The hint is thought of in a worker thread, which does not inherit the language.
    from textual.pilot import Pilot

    from casino.tui.app import CasinoApp
    from tests.test_play_tui import drive, new_session

    i18n.set_language("fi")  # as --lang sets it before the game is made
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        reason = app.game.message.splitlines()[1]
        assert reason.startswith("Se "), reason
        no_english(reason, HINT_ENGLISH)

    drive(app, test)


def test_the_webs_kept_review_is_read_in_the_cookies_language(tmp_path: Path) -> None:
    from tests.test_web_review import finished_game, reviewing, wait_done

    with reviewing(tmp_path) as client:
        game = finished_game(client)
        assert client.post(f"/api/games/{game}/review?seat=0").status_code == 202
        english = wait_done(client, game, 0)["review"]
        client.cookies.set("lang", "sv")
        swedish = client.get(f"/api/games/{game}/review?seat=0").json()["review"]
    assert "verdict_words" not in english["decisions"][0]
    assert [d["grade"] for d in swedish["decisions"]] == [
        d["grade"] for d in english["decisions"]]
    assert swedish["decisions"][0]["verdict_words"] in ("bra", "nästan lika bra",
                                                        "onoggrannhet", "misstag",
                                                        "grovt misstag")
    assert all(d["leaves"].startswith(("lämnar kvar", "tömmer")) for d in swedish["decisions"])
    assert swedish["advice"] and all(a.startswith("Omgång ") for a in swedish["advice"])
