"""The rules' words, the how-to-play guide and the glossary in Finnish and in Swedish:
``casino rules NAME [--guide] --lang``, ``casino glossary --lang``, the rulesets' titles
and the computer's levels, the web's rules, guide, glossary and lobby pages; the
glossary lists each word in the three languages; English is as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casino.bots.levels import LEVELS
from casino.cli import app
from casino.engine.presets import KASINO, KRYPKASINO, PRESETS
from casino.engine.rules import describe, preset
from casino.i18n import using
from casino.words.glossary import BY_WORD, TERMS, in_languages, markdown, shown_definition
from casino.words.guide import GUIDES, text_lines
from tests.web_helpers import TestClient, web  # type: ignore[attr-defined]

ROOT = Path(__file__).resolve().parent.parent

#: English words of the summary and the guide that a translated text must not keep
#: (as whole words, outside code spans and the engine's own lines).
ENGLISH = ("Players", "Values", "Pairing", "Deal", "Moves", "Sweep", "Sweeps", "Scoring",
           "Winning", "Points", "Penalties", "capture", "captures", "trail", "trails",
           "build", "builds", "each", "most", "point", "points", "round", "penalty",
           "sweep", "table", "the", "and", "with", "How to play", "Worked example",
           "Two players", "Seat", "Afterwards", "clockwise", "anticlockwise", "deals")


def _leftovers(text: str) -> list[str]:
    """The English words of :data:`ENGLISH` in ``text``, its code spans and the file
    names, commands and the engine's lines (the deal shown, ``(empty)``) left out."""
    kept = []
    for line in text.splitlines():
        if line.startswith("    ") or "casino rules" in line or "casino glossary" in line:
            continue  # the engine's picture of the deal; the closing lines' commands
        kept.append(re.sub(r"`[^`]*`|\(empty\)|\(build of [^)]*\)|docs/\S+", "", line))
    joined = "\n".join(kept)
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", joined)]


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return str(result.stdout)


@pytest.mark.parametrize(("name", "lang", "words"), [
    ("kasino", "fi", ("Suomalainen kasino", "Mökki:", "eniten patoja", "Pisteet:")),
    ("krypkasino", "sv", ("Krypkasino (omvänt kasino", "Tabbe:", "12 givar per parti",
                          "dubbeltabbe")),
    ("krypkasino", "fi", ("Krypkasino (käänteinen kasino", "pakkomökki", "sakot")),
    ("kasino", "sv", ("Finskt kasino", "flest spader", "varje tabbe")),
    ("casino", "fi", ("Kasino, talon säännöt", "rakennelma (enintään 14)", "ässä")),
    ("mulle", "sv", ("Mulle (svenskt, två kortlekar)", "varje mulle", "bygge")),
])
def test_casino_rules_speaks_the_language(name: str, lang: str,
                                          words: tuple[str, ...]) -> None:
    out = _run("rules", name, "--lang", lang)
    for word in words:
        assert word.lower() in out.lower(), word
    assert _leftovers(out) == []


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_every_summary_is_translated(name: str, lang: str) -> None:
    with using(lang):
        lines = describe(preset(name))
    assert _leftovers("\n".join(lines)) == []


@pytest.mark.parametrize(("name", "lang", "words"), [
    ("kasino", "fi", ("Näin pelataan: Suomalainen kasino", "Esimerkkijako", "patakakkonen",
                      "ruutukymppi", "Paikka 1: `Kc x 6h+5d+2c`", "mökki")),
    ("krypkasino", "sv", ("Så spelar man: Krypkasino (omvänt kasino)", "Genomgånget exempel",
                          "Det finns inga byggen", "Plats 1: `Qd x Ts+2s`",
                          "3 poäng i straff", "tabbe, som kostar den 5 poäng")),
])
def test_casino_rules_guide_speaks_the_language(name: str, lang: str,
                                                words: tuple[str, ...]) -> None:
    out = _run("rules", name, "--guide", "--lang", lang)
    flat = " ".join(out.split())
    for word in words:
        assert word in flat, word
    assert _leftovers(out) == []


@pytest.mark.parametrize("name", list(GUIDES))
@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_every_guide_is_translated_and_plays_the_same_moves(name: str, lang: str) -> None:
    english = text_lines(name)
    with using(lang):
        shown = text_lines(name)
    assert _leftovers("\n".join(shown)) == []
    moves = re.compile(r"`[^`]+`")
    assert (moves.findall(" ".join(" ".join(shown).split()))
            == moves.findall(" ".join(" ".join(english).split())))


def test_english_is_unchanged() -> None:
    out = _run("rules", "kasino")
    assert out.splitlines()[:3] == [
        "Finnish Kasino", "Players: 2; 52 cards (1 deck).",
        "Values: 2-10 face value; J 11, Q 12, K 13. A played as 14, 1 in sums."]
    assert "Sweep: 1 point; none during the round's last deal" in out
    guide = _run("rules", "krypkasino", "--guide")
    assert guide.startswith("How to play: Krypkasino (Casino reversed)\n")
    assert "3 points of penalty" in guide and "costs it 5 points" in guide


def test_rulesets_titles_and_levels_in_each_language() -> None:
    with using("fi"):
        assert KASINO.shown_title() == "Suomalainen kasino"
        assert KRYPKASINO.shown_short() == "Krypkasino"
        assert LEVELS["beginner"].shown_name() == "aloittelija"
        assert "kerhopelaaja" in LEVELS["easy"].shown_blurb()
    with using("sv"):
        assert KASINO.shown_title() == "Finskt kasino"
        assert LEVELS["hard"].shown_name() == "svår"
        assert "klubbspelaren" in LEVELS["medium"].shown_blurb()
    assert KASINO.shown_title() == "Finnish Kasino"
    assert LEVELS["beginner"].shown_name() == "beginner"


def test_the_glossary_names_each_word_in_three_languages() -> None:
    assert in_languages(BY_WORD["sweep"]) == (("en", "sweep"), ("fi", "mökki"),
                                              ("sv", "tabbe"))
    assert in_languages(BY_WORD["big casino"])[1:] == (("fi", "ruutukymppi"),
                                                       ("sv", "storen"))
    assert in_languages(BY_WORD["little casino"])[1:] == (("fi", "patakakkonen"),
                                                          ("sv", "lillen"))
    assert in_languages(BY_WORD["stock"])[1:] == (("fi", "pakka"), ("sv", "talong"))
    doc = markdown()
    for term in TERMS:
        en, fi, sv = (w for _lang, w in in_languages(term))
        assert f"*{en} (English) — {fi} (suomi) — {sv} (svenska)*" in doc, term.word
        with using("fi"):
            assert shown_definition(term) != term.definition, term.word
        with using("sv"):
            assert shown_definition(term) != term.definition, term.word


def test_casino_glossary_in_finnish_and_swedish() -> None:
    out = _run("glossary", "sweep", "--lang", "fi")
    assert out.splitlines()[:2] == ["mökki", "  sweep (English) — mökki (suomi) — tabbe "
                                             "(svenska)"]
    assert "Otto, joka jättää pöydän tyhjäksi" in out and "Käytössä:" in out
    out = _run("glossary", "tabbe", "--lang", "sv")  # a word found by its Swedish name
    assert out.startswith("tabbe\n") and "Ett tag som lämnar bordet tomt" in out
    assert "Used in:" in _run("glossary", "sweep")


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_how_to_play_pages_link_into_the_glossary(lang: str) -> None:
    text = (ROOT / "docs" / f"how-to-play.{lang}.md").read_text(encoding="utf-8")
    assert "(glossary.md#sweep)" in text and "(glossary.md#build)" in text


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web(tmp_path_factory.mktemp("i18n-rules")) as c:
        yield c


def _page(client: TestClient, path: str, lang: str | None) -> str:
    client.cookies.delete("lang")
    if lang:
        client.cookies.set("lang", lang)
    response = client.get(path)
    assert response.status_code == 200, response.text
    return str(response.text)


def test_the_web_pages_content_in_finnish(client: TestClient) -> None:
    rules = _page(client, "/rules/kasino", "fi")
    assert "Kasino (suomalainen)" in rules and "Suomalainen kasino" in rules
    assert "Pisteet:" in rules and "eniten patoja" in rules
    assert 'href="/glossary#sweep">Mökki</a>' in rules
    assert 'href="/glossary#round">peli</a>' not in rules  # "peli kulkee": play goes
    guide = _page(client, "/guide/kasino", "fi")
    assert "Suomalainen kasino" in guide and "patakakkonen" in guide
    assert 'href="/glossary#little-casino">patakakkonen</a>' in guide
    assert 'href="/glossary#build">rakennelman</a>' in guide
    glossary = _page(client, "/glossary", "fi")
    assert "sweep (English) — mökki (suomi) — tabbe (svenska)" in glossary
    assert "Otto, joka jättää pöydän tyhjäksi." in glossary
    lobby = _page(client, "/", "fi")
    assert ">aloittelija<" in lobby and "järkevä kerhopelaaja" in lobby
    assert "Kasino (suomalainen)" in lobby


def test_the_web_pages_content_in_swedish_and_english(client: TestClient) -> None:
    guide = _page(client, "/guide/krypkasino", "sv")
    assert "Krypkasino (omvänt kasino)" in guide and "Det finns inga" in guide
    assert 'href="/glossary#compulsory-capture">tvång att ta</a>' in guide
    glossary = _page(client, "/glossary", "sv")
    assert "Ett tag som lämnar bordet tomt." in glossary
    rules = _page(client, "/rules/krypkasino", "sv")
    assert "Tvångstabbe" in rules and "12 givar per parti" in rules
    english = _page(client, "/glossary", None)
    assert "A capture that leaves the table empty." in english
    assert "sweep (English) — mökki (suomi) — tabbe (svenska)" in english
    assert ">beginner<" in _page(client, "/", None)


@pytest.mark.parametrize(("lang", "rules_title", "level"), [
    ("fi", "Suomalainen kasino", "aloittelija: ottaa heti eniten"),
    ("sv", "Finskt kasino", "nybörjare: tar så mycket det kan"),
    ("en", "Finnish Kasino", "beginner: takes the most it can"),
])
def test_the_start_screen_offers_the_rulesets_and_levels_in_the_language(
        tmp_path: Path, lang: str, rules_title: str, level: str) -> None:
    import asyncio

    from textual.widgets import Select

    from tests.test_play_start import start_app

    offered: dict[str, list[str]] = {}

    async def main() -> None:
        app, _chosen = start_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for name in ("start-rules", "start-level"):
                select = app.screen.query_one(f"#{name}", Select)
                offered[name] = [str(prompt) for prompt, _value in select._options]

    with using(lang):
        asyncio.run(main())
    assert rules_title in offered["start-rules"]
    assert any(text.startswith(level) for text in offered["start-level"])


def test_f1_shows_the_rules_guide_and_words_in_finnish(tmp_path: Path) -> None:
    from tests.tui_helpers import beginner_session, f1_text

    with using("fi"):
        session = beginner_session(tmp_path / "k.rec", "kasino", seed=3)
        body = f1_text(session, "rules-body")
        guide = f1_text(session, "rules-guide")
        words = f1_text(session, "rules-glossary")
    assert "Pelaajia: 2" in body and "Pisteet:" in body and "mökki" in body.lower()
    assert "Esimerkkijako" in guide and "patakakkonen" in guide
    assert "mökki: Otto, joka jättää pöydän tyhjäksi" in words
