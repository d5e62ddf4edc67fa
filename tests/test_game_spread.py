"""research/game_spread.py: a journal's games read into their length and spread, and the
step a round a pairing needs to separate, on numbers worked out by hand."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from casino.measure.arena import JOURNAL_FORMAT
from research import game_spread


def _game(margins: list[int], winner: str | None,
          scores: tuple[int, int] = (21, 10)) -> dict[str, object]:
    return {"seed": 1, "mirror": 0, "first_dealer": 0, "seats": ["A", "B"],
            "winner": winner, "scores": list(scores), "rounds": len(margins),
            "points": [[0, 0] for _ in margins], "margins": margins,
            "decks": ["" for _ in margins], "moves": 0}


def test_a_journal_gives_games_rounds_and_spreads(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    rows = [{"format": JOURNAL_FORMAT, "games": [_game([4], "A"), _game([-2, 6], "A", (22, 25))]},
            {"format": JOURNAL_FORMAT, "games": [_game([-4], "B", (10, 21)),
                                                 _game([0, 0], None)]}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{\"torn", encoding="utf-8")
    s = game_spread.read_journal(path)
    assert s.games == 4 and s.won == 2.5
    assert dict(s.rounds) == {1: 2, 2: 2} and s.rounds_per_game == 1.5
    # Round margins 4, -2, 6, -4, 0, 0: mean 4/6; game totals 4, 4, -4, 0.
    assert s.margin == pytest.approx(4 / 6)
    assert s.game_sd == pytest.approx(math.sqrt((3**2 + 3**2 + 5**2 + 1**2) / 3))
    # The second game went to A with 22 points against 25: reached first in counting order.
    assert s.won_behind == 1
    assert "4 games" in game_spread.report(s, 400)


def test_the_step_needed_is_the_model_turned_round() -> None:
    s = game_spread.Spread(name="t", games=400, won=200, rounds=Counter({2: 400}), margin=0.0,
                           round_sd=7.0, game_sd=10.0)
    need = s.margin_needed(400)
    # 400 games at 80% power: a true share of 0.5 + (1.96 + 0.8416) / 40 = 0.5700.
    assert s.predicted_share(need) == pytest.approx(0.5 + (1.959964 + 0.841621) / 40, abs=1e-6)
    assert need == pytest.approx(10.0 * game_spread.NORMAL.inv_cdf(0.57004) / 2, abs=1e-3)
    # More games tell a smaller edge.
    assert s.margin_needed(1600) < need


def test_an_empty_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="fewer than two games"):
        game_spread.read_journal(path)
