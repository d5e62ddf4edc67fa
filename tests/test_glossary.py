"""The glossary (casino.words.glossary): one set of entries for docs/glossary.md, the
command line, the web page and the terminal game's F1 screen; every rules link reaches a
heading of docs/rules.md, and every preset list agrees with the rules the engine plays
(issue 18)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casino import PRESET_NAMES
from casino.cli import app
from casino.engine.rules import Rules, describe, preset
from casino.engine.scheme import CardPoints, LastCapture, Majority, Mulles, scheme
from casino.words import glossary
from casino.words.glossary import (
    ALL,
    BY_WORD,
    SECTIONS,
    TERMS,
    find,
    for_preset,
    link_markdown,
    link_spans,
    markdown,
    text_lines,
)
from casino.words.guide import GUIDES, paragraphs
from tests.doc_helpers import HEADING, anchors, slug

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_docs_glossary_is_generated_from_the_package() -> None:
    """docs/glossary.md is `python -m casino.words.glossary > docs/glossary.md`."""
    assert (DOCS / "glossary.md").read_text(encoding="utf-8") == markdown()


def test_the_slug_is_the_one_the_docs_test_uses() -> None:
    for term in TERMS:
        assert glossary.slug(term.word) == slug(term.word)
    for heading in SECTIONS.values():
        assert glossary.slug(heading) == slug(heading)


def test_every_section_cited_is_a_heading_of_rules_md() -> None:
    """SECTIONS holds the headings' exact words, so every link of an entry resolves;
    and every section an entry cites is in SECTIONS."""
    headings = {}
    for line in (DOCS / "rules.md").read_text(encoding="utf-8").splitlines():
        m = HEADING.match(line)
        if m:
            number = m.group(2).split(" ")[0].rstrip(".")
            headings[number] = m.group(2)
    for number, words in SECTIONS.items():
        assert headings.get(number) == words, number
    doc_anchors = anchors(DOCS / "rules.md")
    for term in TERMS:
        assert term.rules, term.word
        for section in term.rules:
            assert slug(SECTIONS[section]) in doc_anchors, (term.word, section)


def test_every_entry_has_an_anchor_in_docs_glossary_md() -> None:
    have = anchors(DOCS / "glossary.md")
    assert {t.anchor for t in TERMS} <= have
    assert len({t.anchor for t in TERMS}) == len(TERMS)


def test_the_words_named_in_the_issue_have_entries() -> None:
    for word in ("build", "multiple build", "raise", "add", "capture", "pair", "sum", "trail",
                 "sweep", "mökki", "tabla", "mulle", "big casino", "little casino", "carry",
                 "double sweep", "last capture", "point cards", "penalty cards",
                 "most cards", "most spades", "cardinality", "forced sweep",
                 "compulsory capture", "set aside", "dealer", "round", "game"):
        assert find(word), word


def test_no_form_names_two_entries() -> None:
    forms = Counter(f.lower() for t in TERMS for f in {t.word, *t.forms})
    assert [f for f, n in forms.items() if n > 1] == []
    for term in TERMS:
        assert set(dict(term.names)) <= set(term.presets), term.word
        assert set(term.presets) <= set(ALL), term.word
        assert tuple(p for p in ALL if p in term.presets) == term.presets, term.word


# ----------------------------------------------------------------------
# Every preset-specific word is used by exactly the presets it names


def _card_points(rules: Rules) -> dict[str, int]:
    return {i.name: i.points for i in scheme(rules).items if isinstance(i, CardPoints)}


def _majority(rules: Rules, what: str) -> bool:
    return any(isinstance(i, Majority) and i.what == what and i.points
               for i in scheme(rules).items)


#: What the rules data says about each word that it can say: the presets whose rules
#: make the predicate true must be exactly the entry's presets.
USED_BY: dict[str, Callable[[Rules], bool]] = {
    "build": lambda r: r.building,
    "multiple build": lambda r: r.building,
    "announce": lambda r: r.building,
    "add": lambda r: r.building,
    "raise": lambda r: r.building,
    "owner": lambda r: r.building,
    "mökki": lambda r: r.scoring == "kasino",
    "tabla": lambda r: r.scoring == "tablic",
    "double sweep": lambda r: r.double_sweep,
    "twin": lambda r: r.decks == 2,
    "mulle": lambda r: any(isinstance(i, Mulles) for i in scheme(r).items),
    "compulsory capture": lambda r: r.compulsory_capture,
    "cardinality": lambda r: r.compulsory_capture,  # the option of compulsory captures
    "creeping": lambda r: r.compulsory_capture,
    "forced sweep": lambda r: r.forced_sweep,
    "set aside": lambda r: r.set_aside_pictures,
    "penalty": lambda r: scheme(r).penalty,
    "carry": lambda r: any(isinstance(i, Majority) and i.ties != "lost"
                           for i in scheme(r).items),
    "most cards": lambda r: _majority(r, "cards"),
    "most spades": lambda r: _majority(r, "spades"),
    "big casino": lambda r: "Td" in _card_points(r),
    "little casino": lambda r: "2s" in _card_points(r),
    "counting order": lambda r: r.win_rule == "counting-order",
    "target": lambda r: r.win_rule != "lower-after-games",
    "partnership": lambda r: _partners(r.name),
}


def _partners(name: str) -> bool:
    """Whether the preset plays four players as two partnerships."""
    from casino.engine.rules import player_counts

    return 4 in player_counts(name) and preset(name, players=4).partnerships


@pytest.mark.parametrize("word", sorted(USED_BY))
def test_the_presets_of_a_word_are_those_whose_rules_use_it(word: str) -> None:
    used = tuple(p for p in PRESET_NAMES if USED_BY[word](preset(p)))
    assert BY_WORD[word].presets == used


def test_a_last_capture_point_is_scored_where_the_entry_says() -> None:
    scored = [p for p in PRESET_NAMES
              if any(isinstance(i, LastCapture) for i in scheme(preset(p)).items)]
    assert scored == ["mulle"]
    assert "Mulle" in BY_WORD["last capture"].definition
    assert any(isinstance(i, LastCapture)
               for i in scheme(preset("kasino", last_capture_points=1)).items)


@pytest.mark.parametrize("name", ["krypkasino", "kasino", "mulle", "tablic"])
def test_a_preset_s_own_words_are_in_its_summary_or_guide(name: str) -> None:
    """Where an entry gives a preset a word of its own (mökki, tabla, a game for a
    round), or is the preset's alone, the preset's summary or guide uses it (or one of
    the entry's forms)."""
    said = " ".join([*describe(preset(name)), *paragraphs(GUIDES[name])]).lower()
    # Said in other words there ("worth more in the hand", "J, Q and K"), or options.
    said_otherwise = {"hand value", "picture card", "penalty cards", "match", "cardinality",
                      "creeping", "spades above 7"}
    checked = []
    for term in TERMS:
        own = dict(term.names).get(name)
        if own is None and term.presets != (name,):
            continue
        word = own or term.word
        if word in said_otherwise:
            continue
        forms = (word,) if own else (term.word, *term.forms)
        assert any(f.lower() in said for f in forms), (name, word)
        checked.append(word)
    assert checked


# ----------------------------------------------------------------------
# Linking


def test_only_the_first_use_links() -> None:
    seen: set[str] = set()
    spans = link_spans("A sweep, then another sweep; sweeps are points.", seen)
    assert [a for _, a in spans if a] == ["sweep"]
    assert "".join(s for s, _ in spans) == "A sweep, then another sweep; sweeps are points."
    assert link_spans("one more sweep", seen) == [("one more sweep", None)]


def test_code_spans_are_not_linked() -> None:
    assert link_markdown("`7h trails` it, then a trail", set()) == (
        "`7h trails` it, then a [trail](glossary.md#trail)")


def test_common_words_do_not_link_alone() -> None:
    assert [a for _, a in link_spans("Every game has a deal; add them", set()) if a] == []
    assert [a for _, a in link_spans("you add to a build", set()) if a] == ["add", "build"]


def test_how_to_play_links_into_the_glossary() -> None:
    text = (DOCS / "how-to-play.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(glossary\.md#([^)]+)\)", text)
    assert {"sweep", "build", "trail", "mulle", "tabla"} <= set(links)
    assert len(links) == len(set(links))  # each word once


# ----------------------------------------------------------------------
# The command line


def test_casino_glossary_prints_an_entry() -> None:
    result = CliRunner().invoke(app, ["glossary", "Mökki"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == text_lines("mökki")
    assert "Finnish Kasino's word for a sweep" in result.stdout
    assert "docs/rules.md §4.4" in result.stdout
    every = CliRunner().invoke(app, ["glossary"])
    assert every.exit_code == 0
    assert all(f"\n{t.word}\n" in "\n" + every.stdout for t in TERMS)


def test_casino_glossary_finds_a_preset_s_own_word() -> None:
    result = CliRunner().invoke(app, ["glossary", "tablas"])
    assert result.exit_code == 0 and result.stdout.startswith("tabla\n")


def test_casino_glossary_refuses_an_unknown_word_listing_the_known() -> None:
    result = CliRunner().invoke(app, ["glossary", "snap"])
    assert result.exit_code == 2
    assert "no glossary entry for 'snap'" in result.stderr
    assert "build" in result.stderr and "mulle" in result.stderr and "tabla" in result.stderr


def test_casino_rules_points_to_the_glossary() -> None:
    result = CliRunner().invoke(app, ["rules", "kasino"])
    assert result.exit_code == 0 and "casino glossary" in result.stdout


# ----------------------------------------------------------------------
# The web and the terminal game


def test_the_web_glossary_page_has_an_anchor_per_entry(tmp_path: Path) -> None:
    from tests.web_helpers import web

    with web(tmp_path) as client:
        page = client.get("/glossary")
        assert page.status_code == 200
        assert "content-security-policy" in {k.lower() for k in page.headers}
        for term in TERMS:
            assert f'id="{term.anchor}"' in page.text, term.word
            assert f'href="#{term.anchor}"' in page.text
        assert "docs/rules.md §4.4, The mökki (sweep)" in page.text
        assert "docs/rules.md §6.5, Tablić." in page.text and 'href="/rules/kasino"' in page.text


@pytest.mark.parametrize("name", ["casino", "kasino", "krypkasino", "tablic"])
def test_the_web_rules_and_guide_pages_link_each_word_once(tmp_path: Path,
                                                           name: str) -> None:
    from tests.web_helpers import web

    with web(tmp_path) as client:
        for path in (f"/rules/{name}", f"/guide/{name}"):
            page = client.get(path)
            assert page.status_code == 200
            links = re.findall(r'<a class="term" href="/glossary#([^"]+)"', page.text)
            assert links and len(links) == len(set(links)), (path, links)
            assert {t.anchor for t in TERMS} >= set(links)
            assert 'href="/glossary"' in page.text
        rules_page = client.get(f"/rules/{name}").text
        own = {"kasino": "sweep", "tablic": "sweep", "krypkasino": "forced-sweep",
               "casino": "build"}[name]
        assert f'href="/glossary#{own}"' in rules_page


def test_the_web_game_page_carries_the_words_of_its_ruleset() -> None:
    from casino.engine.scoring import Item
    from casino.words.glossary import kinds
    from casino.words.narrate import item_words

    assert set(kinds("casino")) == {"capture", "trail", "build", "add", "raise", "sweep",
                                    "last capture", "most cards", "spades", "10♦", "2♠"}
    assert set(kinds("tablic")) == {"capture", "trail", "sweep", "last capture",
                                    "most cards", "10♦"}
    assert kinds("tablic")["sweep"].startswith("tabla: ")
    assert "mulle" in kinds("mulle") and "most cards" not in kinds("mulle")
    # The scored items' keys are the words the game shows for them.
    for item in ("cards", "sweep", "last", "mulle", "Td", "2s"):
        assert item_words(Item(item, 0, 1)) in {**kinds("mulle"), **kinds("casino")}


def test_f1_lists_the_words_of_the_preset(tmp_path: Path) -> None:
    from casino.play.session import GameSession
    from tests.tui_helpers import f1_text

    session = GameSession.new(preset("kasino"), level="beginner", seed=3,
                              save_path=tmp_path / "g.rec")
    body = f1_text(session, "rules-glossary")
    assert "mökki: Finnish Kasino's word for a sweep" in body
    starts = [line.split(":")[0] for line in body.splitlines()]
    assert "hand value" in starts and "build" not in starts


def test_for_preset_follows_the_entries() -> None:
    assert [t.word for t in for_preset("tablic")] == [
        t.word for t in TERMS if "tablic" in t.presets]
    assert "mulle" not in [t.word for t in for_preset("casino")]


@pytest.mark.parametrize(("typed", "word"), [("mokki", "mökki"), ("MOKKI", "mökki"),
                                            ("tvangstabbe", "tvångstabbe")])
def test_a_word_typed_without_its_accents_is_found(typed: str, word: str) -> None:
    """A keyboard without ö or å still finds the entry: *mokki* is *mökki*."""
    assert find(typed) == find(word)
    result = CliRunner().invoke(app, ["glossary", typed])
    assert result.exit_code == 0, result.stderr
