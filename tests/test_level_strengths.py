"""The computer levels' published strengths (issue 46): fitted from the arena's journals by
research/level_ratings.py, shipped as src/casino/measure/level_strengths.json, read by
casino.measure.level_strengths and shown on the leaderboard.

The shipped file is what the journals give (so it is never edited by hand), the levels
rise with their names in every measured pool, the fit is checked on small journals
worked out by hand, and the leaderboard shows a pool's levels, or says they are not
measured, whatever people's ratings do.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from casino.engine.presets import CASINO, CLASSIC, DEFAULT, KASINO
from casino.measure import level_strengths
from casino.measure.arena import JOURNAL_FORMAT
from casino.measure.glicko2 import DEVIATION_FLOOR, Rating
from casino.web.accounts.store import AccountRow, RatingRow
from casino.web.store import now
from research import level_ratings
from research.level_ratings import ORDER, Step, chain, step
from tests.web_helpers import ACCOUNTS, browser, store_of, web

ROOT = Path(__file__).resolve().parent.parent
JOURNALS = sorted((ROOT / "research" / "journals").glob("*.jsonl"))
SHIPPED = ROOT / "src" / "casino" / "measure" / level_strengths.FILE


def test_the_shipped_file_is_generated_from_the_journals() -> None:
    assert JOURNALS, "no journals in research/journals/"
    text = SHIPPED.read_text(encoding="utf-8")
    assert text == level_ratings.document(JOURNALS), (
        f"{SHIPPED.name} differs from the journals' fit: run `make results` "
        f"({level_ratings.COMMAND}) instead of editing it")
    assert level_ratings.COMMAND in json.loads(text)["generated"]


@pytest.mark.parametrize("preset", [CASINO.name, CLASSIC.name, KASINO.name])
def test_the_levels_rise_in_each_measured_pool(preset: str) -> None:
    levels = level_strengths.strengths(preset, 2)
    assert [name for name, _ in levels] == list(ORDER)
    ratings = [r.rating for _, r in levels]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), levels
    assert level_strengths.strength("medium", preset, 2) == Rating(1500.0, DEVIATION_FLOOR)
    assert all(DEVIATION_FLOOR <= r.deviation < 100 for _, r in levels)


def test_a_pool_the_arena_did_not_measure_has_no_levels() -> None:
    assert level_strengths.strengths(CASINO.name, 4) == []
    assert level_strengths.strength("expert", CASINO.name, 4) is None
    assert level_strengths.strength("grandmaster", CASINO.name, 2) is None
    assert level_strengths.anchor() == ("medium", 1500.0)


def test_a_share_of_three_quarters_is_191_points() -> None:
    # 100 pairs: 50 won both games, 50 split (one each): 150 of 200, 75%.
    s = step("hard", "medium", [2.0] * 50 + [1.0] * 50)
    assert (s.games, s.share) == (200, 0.75)
    assert s.difference == pytest.approx(400 * math.log10(3))  # 190.8
    assert round(s.difference) == 191
    # Pair shares 1 and ½ about 0.75: standard error 0.25 / √99 (clustered by pair),
    # times 400 / ln 10 / (0.75 · 0.25) on the rating scale.
    assert s.error == pytest.approx(400 / math.log(10) / 0.1875 * 0.25 / math.sqrt(99))


def test_an_undecided_game_counts_half_and_a_split_every_time_is_even() -> None:
    s = step("easy", "beginner", [1.0] * 10)
    assert s.difference == 0.0
    # Every pair split alike: no spread between pairs, the binomial error instead.
    assert s.error == pytest.approx(400 / math.log(10) / 0.25 * math.sqrt(0.25 / 20))
    assert step("easy", "beginner", [1.5, 0.5]).difference == 0.0


def test_a_clean_sweep_is_finite() -> None:
    won = step("expert", "hard", [2.0] * 100)
    assert won.share == 1.0
    assert won.difference == pytest.approx(400 * math.log10(399))  # as if 199.5 of 200
    assert math.isfinite(won.error) and won.error > 0
    lost = step("expert", "hard", [0.0] * 100)
    assert lost.difference == pytest.approx(-won.difference)
    with pytest.raises(ValueError):
        step("expert", "hard", [])


def test_the_chain_adds_differences_and_variances_from_medium() -> None:
    steps = [Step("easy", "beginner", 200, 0.9, 300.0, 40.0),
             Step("medium", "easy", 200, 0.6, 70.0, 30.0),
             Step("hard", "medium", 200, 0.6, 70.0, 20.0)]
    levels = chain(steps)
    assert list(levels) == ["beginner", "easy", "medium", "hard"]  # expert not measured
    assert levels["medium"].rating == 1500.0
    assert levels["medium"].deviation == DEVIATION_FLOOR  # exact, raised to the floor
    assert levels["hard"].rating == 1570.0 and levels["hard"].deviation == DEVIATION_FLOOR
    assert levels["easy"].rating == 1430.0 and levels["easy"].deviation == 30.0
    assert levels["beginner"].rating == 1130.0
    assert levels["beginner"].deviation == pytest.approx(50.0)  # √(30² + 40²)
    # A gap in the chain: the levels beyond it are not published.
    assert list(chain([steps[0], steps[2]])) == ["medium", "hard"]
    assert chain([steps[0]]) == {}


def _pair(seed: int, higher_first: bool, wins: tuple[str | None, str | None],
          rules: str | dict[str, Any] = CASINO.name, max_rounds: int = 50) -> dict[str, Any]:
    """A journal line: ``level:hard`` against ``level:medium`` (or the other way round),
    each game won by side ``"A"``, ``"B"`` or nobody."""
    a, b = ("level:hard", "level:medium") if higher_first else ("level:medium", "level:hard")
    games = [{"seed": seed, "mirror": m, "first_dealer": 0,
              "seats": ["A", "B"] if m == 0 else ["B", "A"], "winner": w, "scores": [21, 9],
              "rounds": 1, "points": [[21, 9]], "margins": [12], "decks": ["d" * 12],
              "moves": 10, "think": {"A": [0.001], "B": [0.001]}}
             for m, w in enumerate(wins)]
    return {"format": JOURNAL_FORMAT, "a": a, "b": b, "bots": ["expert", "expert"],
            "limits": [{"seconds": 0.5, "iterations": 6}, {"seconds": 0.5, "iterations": 1}],
            "rules": rules, "max_rounds": max_rounds, "seed": seed, "games": games}


def _journal(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_small_journal_is_fitted_from_the_higher_levels_side(tmp_path: Path) -> None:
    # hard (side B here) wins 3 of 4 games: 75%, +191 over medium.
    path = _journal(tmp_path / "tiny.jsonl", [
        _pair(1, False, ("B", "B")), _pair(2, False, ("A", "B")),
        # Single rounds and a table with options of its own are no preset's pool.
        _pair(3, True, ("A", "A"), max_rounds=1),
        _pair(4, True, ("A", "A"), rules={"preset": CASINO.name, "target": 11})])
    (pool,) = level_ratings.pools([path])
    assert (pool.preset, pool.players, pool.sources) == (DEFAULT.name, 2, ["tiny.jsonl"])
    data = json.loads(level_ratings.document([path]))
    assert data["format"] == level_strengths.FORMAT
    (shown,) = data["pools"]
    assert shown["steps"] == [{"higher": "hard", "lower": "medium", "games": 4,
                               "share": 0.75, "difference": 190.8,
                               "error": shown["steps"][0]["error"]}]
    assert shown["levels"]["medium"] == {"rating": 1500.0, "deviation": DEVIATION_FLOOR}
    assert shown["levels"]["hard"]["rating"] == 1690.8
    assert level_ratings.main([str(path)]) == 0


def test_two_ways_of_playing_the_same_levels_are_refused(tmp_path: Path) -> None:
    other = _pair(2, True, ("A", "B"))
    other["limits"][0]["iterations"] = 12  # the level changed between runs
    path = _journal(tmp_path / "mixed.jsonl", [_pair(1, True, ("A", "B")), other])
    with pytest.raises(ValueError, match="more than one way"):
        level_ratings.pools([path])


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def test_the_leaderboard_shows_the_pools_levels(app: TestClient) -> None:
    def levels(players: int) -> str:
        """The levels' section of the pool's leaderboard."""
        page = browser(app).get("/leaderboard",
                                params={"rules": CLASSIC.name, "players": str(players)})
        assert page.status_code == 200
        text: str = page.text
        return text[text.index('id="levels"'):]

    shown = levels(2)
    assert "The computer's levels" in shown and 'id="levels-unmeasured"' not in shown
    for name, rating in level_strengths.strengths(CLASSIC.name, 2):
        row = f"<td>{name}</td><td>{round(rating.rating)} ± {round(2 * rating.deviation)}"
        assert row in shown, row
    # A person's rating in the pool moves nothing of the levels'.
    with Session(store_of(app).engine) as s, s.begin():
        s.add(AccountRow(id="x" * 32, name="Eve", skeleton="eve", password="-",
                         created=now()))
        s.flush()
        s.add(RatingRow(account="x" * 32, preset=CLASSIC.name, players=2, rating=2400.0,
                        deviation=40.0, volatility=0.06, games=90, updated=now()))
    after = levels(2)
    assert ">Eve<" not in after and after == shown
    unmeasured = levels(4)
    assert 'id="levels-unmeasured"' in unmeasured
    assert 'id="leaderboard-levels"' not in unmeasured
