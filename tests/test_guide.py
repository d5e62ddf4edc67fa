"""The how-to-play guide (casino.words.guide): one text for every front end, examples that
the engine plays, docs/how-to-play.md in sync (issue 16)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casino import PRESET_NAMES, Match
from casino.cli import app
from casino.words.guide import GUIDES, example_lines, markdown, text_lines

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
    from casino.engine.rules import preset
    from casino.play.session import GameSession
    from casino.tui.app import CasinoApp
    from casino.tui.screens import RulesScreen

    session = GameSession.new(preset("tablic"), level="beginner", seed=3,
                              save_path=tmp_path / "g.rec")
    app_ = CasinoApp(session, None, pause=0)

    async def main() -> None:
        async with app_.run_test(size=(100, 40)) as pilot:
            for _ in range(200):
                await app_.workers.wait_for_complete()
                await pilot.pause()
                if app_.session.to_move == 0:
                    break
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app_.screen, RulesScreen)
            body = str(app_.screen.query_one("#rules-guide").render())
            assert "Ah x 7c+4d" in body and "Worked example" in body

    asyncio.run(main())


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
