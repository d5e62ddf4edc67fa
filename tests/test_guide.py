"""The how-to-play guide (casino.words.guide): one text for every front end, examples that
the engine plays, docs/how-to-play.md in sync (issue 16)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casino import PRESET_NAMES, Match
from casino.cli import app
from casino.engine import scheme as scheme_module
from casino.engine.rules import Rules, penalty_total, preset
from casino.engine.scheme import Majority, Scheme, Sweeps, scheme
from casino.words.guide import (
    DOCS_FILES,
    GUIDES,
    example_lines,
    guide_html,
    markdown,
    points_paragraph,
    text_lines,
)

ROOT = Path(__file__).resolve().parent.parent


def test_every_preset_has_a_guide() -> None:
    assert tuple(GUIDES) == PRESET_NAMES


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_worked_example_is_played_by_the_engine(name: str) -> None:
    """Each move is legal where it is played and written canonically, so the example
    cannot rot: a change of the deal or the rules breaks this test."""
    g = GUIDES[name]
    pos = Match(name, seed=g.seed).position
    for step in g.steps:
        move = pos.parse_move(step.move)
        assert pos.is_legal(move)
        assert str(move) == step.move
        pos = pos.successor(move)
    shown = "\n".join(example_lines(g))
    assert f"table: {' '.join(str(pos).splitlines()[1].split()[1:])}" in shown


def test_docs_how_to_play_is_generated_from_the_package() -> None:
    """docs/how-to-play.md is `python -m casino.words.guide > docs/how-to-play.md`."""
    assert (ROOT / "docs" / "how-to-play.md").read_text(encoding="utf-8") == markdown()


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_translated_how_to_play_pages_are_generated_from_the_package(lang: str) -> None:
    """docs/how-to-play.fi.md is `python -m casino.words.guide --lang fi > ...`, and
    the same for Swedish."""
    path = ROOT / "docs" / DOCS_FILES[lang]
    assert path.read_text(encoding="utf-8") == markdown(lang)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_casino_rules_points_to_the_guide_and_prints_it(name: str) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["rules", name])
    assert result.exit_code == 0
    assert f"casino rules {name} --guide" in result.stdout
    result = runner.invoke(app, ["rules", name, "--guide"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == text_lines(name)
    assert "Worked example" in result.stdout


def test_f1_shows_the_guide(tmp_path: Path) -> None:
    from tests.tui_helpers import beginner_session, f1_text

    body = f1_text(beginner_session(tmp_path / "g.rec", "tablic", seed=3), "rules-guide")
    assert "Ah x 7c+4d" in body and "Worked example" in body


def test_the_web_rules_page_links_to_the_guide(tmp_path: Path) -> None:
    from tests.web_helpers import web

    with web(tmp_path) as client:
        page = client.get("/rules/mulle")
        assert 'href="/guide/mulle"' in page.text
        guide = client.get("/guide/mulle")
        assert guide.status_code == 200
        assert "How to play Mulle" in guide.text
        assert "6s x [3c+2s+As]" in guide.text and "<code>" in guide.text
        missing = client.get("/guide/snap")
        assert missing.status_code == 404 and "no guide for" in missing.text


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\w♠♣♥♦])\d+(?![\w♠♣♥♦]| \d)", text)]


def _stated_by_the_rules(rules: Rules) -> set[int]:
    """Every number the points paragraph may state, each taken from the scoring scheme
    or the ruleset: the items' points, the penalties of a game, a double sweep, a split
    tie for most spades, the target, the games of a match, the sweep limit."""
    sch = scheme(rules)
    allowed = {i.points for i in sch.items if not isinstance(i, scheme_module.SpadesAbove)}
    allowed |= {2 * i.points for i in sch.items if isinstance(i, Sweeps)}
    allowed |= {i.points // 2 for i in sch.items if isinstance(i, Majority)}
    allowed |= {penalty_total(rules), rules.target, rules.games_per_match}
    if rules.sweep_limit is not None:
        allowed.add(rules.sweep_limit)
    return allowed


def _shown(name: str, paragraph: str) -> None:
    """The paragraph is what every front end shows: the CLI and F1 text, the web page
    and docs/how-to-play.md."""
    assert paragraph in text_lines(name, width=10_000)
    web = guide_html(name)["how"]
    assert isinstance(web, list)
    assert paragraph in ["".join(span[0] for span in para) for para in web]
    unlinked = re.sub(r"\[([^\]]*)\]\(glossary\.md#[^)]*\)", r"\1", markdown())
    assert paragraph + "\n" in unlinked


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_number_the_guide_states_about_points_is_the_schemes(name: str) -> None:
    """The points paragraph is made from the scoring scheme: each of its numbers is one
    the scheme (or the ruleset's target and limits) gives, and every item's points are
    stated. The hand-written paragraphs and steps state no points of their own."""
    rules = preset(name)
    paragraph = points_paragraph(rules)
    _shown(name, paragraph)
    assert set(_numbers(paragraph)) <= _stated_by_the_rules(rules)
    first = paragraph.split(". ")[0]  # "Points: ..." or "Penalties: ..."
    assert {i.points for i in scheme(rules).items
            if not isinstance(i, (Sweeps, scheme_module.SpadesAbove))} <= set(_numbers(first))
    g = GUIDES[name]
    by_hand = [*g.how, g.after, *(step.words for step in g.steps)]
    for text in by_hand:
        assert not re.search(r"\d+ (penalty )?points?\b|worth \d|Points:|Penalties:", text), text


def _perturbed(sch: Scheme) -> Scheme:
    """Every item of the scheme worth 200 points more (numbers no guide states)."""
    items = tuple(i if isinstance(i, scheme_module.SpadesAbove)
                  else dataclasses.replace(i, points=i.points + 200)
                  for i in sch.items)
    return Scheme(items, penalty=sch.penalty)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_guide_follows_a_change_of_the_scoring_scheme(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Change every item's points in the scheme the scorer reads, and the guide changes
    with it: the points it states and those of its worked example."""
    build = scheme_module._build
    # A memo of its own, so the perturbed schemes do not outlive the test.
    monkeypatch.setattr(scheme, "memo", {})
    monkeypatch.setattr(scheme_module, "_build", lambda rules: _perturbed(build(rules)))
    rules = preset(name)
    sch = scheme(rules)
    paragraph = points_paragraph(rules)
    _shown(name, paragraph)
    first = paragraph.split(". ")[0]
    stated = set(_numbers(first))
    assert {i.points for i in sch.items if hasattr(i, "points")} <= stated | {
        i.points for i in sch.items if isinstance(i, Sweeps)}
    assert all(n > 200 for n in stated), first
    assert set(_numbers(paragraph)) <= _stated_by_the_rules(rules)
    sweep = next((i.points for i in sch.items if isinstance(i, Sweeps)), None)
    if sweep is not None:
        assert f"{sweep} point" in paragraph or f"{sweep}." in paragraph
    example = "\n".join(example_lines(GUIDES[name]))
    pos = Match(name, seed=GUIDES[name].seed).position
    for step in GUIDES[name].steps:  # a step's points are what the scheme gives its cards
        move = pos.parse_move(step.move)
        taken = (move.card, *move.loose, *(c for b in move.builds for c in b.cards))
        if "{points}" in step.words:
            assert f"{sum(sch.points_of(c) for c in taken)} points" in example
        if "{sweep}" in step.words:
            assert f"{sweep} points" in example
        pos = pos.successor(move)
    if name == "krypkasino":  # the 10♠ and the 2♠ with the Q♦; the sweep
        assert "takes the 10♠ and the 2♠: 403 points of penalty" in example
        assert "which costs it 205 points" in example
