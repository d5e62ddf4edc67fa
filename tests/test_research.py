"""The research scripts' helper for the evaluation's constants (research/eval_overrides.py):
``--eval NAME=VALUE`` becomes an :class:`EvalParams` passed to one bot, never a global."""

from __future__ import annotations

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
