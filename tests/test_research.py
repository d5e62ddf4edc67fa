"""The research scripts' helper for the evaluation's constants (research/eval_overrides.py):
``--eval NAME=VALUE`` becomes an :class:`EvalParams` passed to one bot, never a global."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.bots import BOTS
from casino.bots.evaluation import DEFAULT_PARAMS, EvalParams
from casino.bots.expert import ExpertBot
from research import eval_overrides


def test_parse_takes_field_names_old_constant_names_and_tuples() -> None:
    got = eval_overrides.parse(["tempo=0.35", "BUILD_KEEP_SAFE=0.7",
                                "deal_start_last=1,0.5,-1"])
    assert got == EvalParams(tempo=0.35, build_keep_safe=0.7,
                             deal_start_last=(1.0, 0.5, -1.0))
    assert eval_overrides.parse([]) == DEFAULT_PARAMS


@pytest.mark.parametrize("item", ["nothing=1", "tempo", "tempo=high", "deal_start=1,2"])
def test_parse_refuses_what_is_not_a_constant_and_a_number(item: str) -> None:
    with pytest.raises(ValueError, match=r"field|number"):
        eval_overrides.parse([item])


def test_thinking_with_passes_the_constants_to_one_bot() -> None:
    params = EvalParams(tempo=0.7)
    make = eval_overrides.thinking_with(BOTS["expert"], params)
    bot = make(3)
    assert isinstance(bot, ExpertBot) and bot.eval_params == params
    # Other bots, and the module, keep the shipped constants.
    assert ExpertBot(3).eval_params is DEFAULT_PARAMS
    assert eval_overrides.thinking_with(BOTS["expert"], EvalParams()) is BOTS["expert"]
    with pytest.raises(ValueError, match="does not evaluate"):
        eval_overrides.thinking_with(BOTS["greedy"], params)


def test_pimc_variants_plays_a_variant_on_another_preset_against_a_level(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules``, ``--players``, a ``level:NAME`` opponent and ``--resume``: a resumed
    run plays nothing new and reports the same games."""
    from casino.measure.arena import journal_rows
    from research import pimc_variants

    journal = tmp_path / "run.jsonl"
    argv = ["careful", "--opponent", "level:beginner", "--rules", "mulle", "--pairs", "2",
            "--seed", "4", "--resume", str(journal)]
    assert pimc_variants.main(argv) == 0
    first = capsys.readouterr().out
    assert "careful v level:beginner (mulle, 2 players): games won" in first
    assert "of 4;" in first
    rows = journal_rows(journal)
    assert len(rows) == 2 and rows[0]["bots"] == ["careful", "greedy"]
    assert pimc_variants.main(argv) == 0
    again = capsys.readouterr().out
    assert again.split("; think")[0] == first.split("; think")[0]
    with pytest.raises(SystemExit):
        pimc_variants.main(["careful", "--opponent", "level:grandmaster"])
    # --players: at four each for themselves the beginner level is oblivious.
    four = tmp_path / "four.jsonl"
    assert pimc_variants.main(["careful", "--opponent", "level:beginner", "--rules", "mulle",
                               "--players", "4", "--pairs", "1", "--seed", "4",
                               "--resume", str(four)]) == 0
    assert "(mulle, 4 players)" in capsys.readouterr().out
    assert journal_rows(four)[0]["bots"] == ["careful", "oblivious"]
    with pytest.raises(SystemExit):
        pimc_variants.main(["careful", "--rules", "mulle", "--players", "9"])
