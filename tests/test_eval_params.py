"""The evaluation's constants are passed in (``EvalParams``), never patched into globals.

The shipped constants are the defaults, so the bots must value and choose exactly as
before the constants became parameters: the figures below were recorded from the
code before that change (same positions, same bot seeds, limits counted in
samples with a generous time, so the clock does not decide). Other constants,
passed to one bot, change what that bot values and chooses, and nothing else's.
"""

from __future__ import annotations

import pytest

from casino import Match, Position
from casino.bots import Limit, make_bot
from casino.bots import evaluation as ev
from casino.bots.base import EvaluatingBot
from casino.bots.evaluation import DEFAULT_PARAMS, EvalParams, deal_start_estimate, estimate
from casino.bots.expert import ExpertBot
from casino.bots.ismcts import IsmctsBot
from casino.bots.pimc import PimcBot, PimcOracle

#: The bots that evaluate positions, by ladder name.
BOTS: dict[str, type[EvaluatingBot]] = {"expert": ExpertBot, "pimc": PimcBot,
                                        "ismcts": IsmctsBot}

SAMPLES = Limit(seconds=60, iterations=3)
PLAYOUTS = Limit(iterations=60)
#: No credit for an owned build when hands are known: a search's samples value builds
#: at nothing, which changes the search bots' choices at the first position below.
NO_BUILDS = EvalParams(build_keep_safe=0.0, build_keep_threatened=0.0)


def position(seed: int, plies: int) -> Position:
    """House rules, ``Match(seed)``, after ``plies`` moves of two greedy bots."""
    match = Match("casino", seed=seed)
    greedy = [make_bot("greedy", 1), make_bot("greedy", 2)]
    for _ in range(plies):
        p = match.position
        match.play(greedy[p.to_move].choose(p.observation(p.to_move)))
    return match.position


# (seed, plies): estimate and deal_start_estimate for seat 0, and the moves of expert,
# pimc and ismcts (seed 4), as the code with module-level constants gave them.
RECORDED = [
    ((3, 0), -0.666666666666667, -0.6222222222222227, "4c 3h+Ad =4", "4c x 3h+Ad", "4c x 3h+Ad"),
    ((5, 3), 3.252512106818059, 3.252512106818059, "Kc", "Kc", "Kh"),
    ((17, 9), -2.3281410396800406, -2.3281410396800406, "4c+4s =8", "Kc", "4c+4s =8"),
    ((23, 12), 3.7303605450482245, 3.7303605450482245, "4d > [6c+3h] Kc =13",
     "4d > [6c+3h] =13", "4d > [6c+3h] Kc =13"),
    ((7, 8), 0.4881413264081651, 0.5579825962494349, "5d x 4h+As", "5d+4h+As =10",
     "5d x 4h+As"),
    ((31, 40), -2.932530449661945, -1.8325304496619448, "7c", "7c", "7c"),
    ((37, 16), -1.347893449237445, -1.2066236079676038, "6h+4d Tc =10", "4c+4d =8",
     "6h+4d =10"),
]


@pytest.mark.parametrize(("where", "est", "start", "expert", "pimc", "ismcts"), RECORDED)
def test_the_defaults_value_and_choose_as_before(where: tuple[int, int], est: float,
                                                 start: float, expert: str, pimc: str,
                                                 ismcts: str) -> None:
    p = position(*where)
    for params in (DEFAULT_PARAMS, EvalParams()):
        assert estimate(p, 0, params) == pytest.approx(est, abs=1e-12)
        assert deal_start_estimate(p, 0, params) == pytest.approx(start, abs=1e-12)
    assert estimate(p, 0) == pytest.approx(est, abs=1e-12)
    obs = p.observation(p.to_move)
    for name, limit, want in (("expert", SAMPLES, expert), ("pimc", SAMPLES, pimc),
                              ("ismcts", PLAYOUTS, ismcts)):
        assert str(make_bot(name, seed=4).choose(obs, limit)) == want, name
        # The shipped constants passed explicitly are the same player.
        assert str(BOTS[name](4, eval_params=EvalParams()).choose(obs, limit)) == want, name


def test_passed_constants_change_the_values_and_the_choices() -> None:
    p = position(23, 12)
    assert estimate(p, 0, EvalParams(tempo=3.0)) != pytest.approx(estimate(p, 0))
    assert estimate(p, 0, NO_BUILDS) != pytest.approx(estimate(p, 0))
    last = position(31, 40)   # the last deal's start: leading costs the fitted constant
    flat = EvalParams(deal_start=(0.0, 0.0, 0.0), deal_start_last=(0.0, 0.0, 0.0))
    assert deal_start_estimate(last, 0, flat) == pytest.approx(estimate(last, 0))
    assert deal_start_estimate(last, 0) != pytest.approx(estimate(last, 0))

    first = position(3, 0)
    obs = first.observation(first.to_move)
    assert str(BOTS["expert"](4, eval_params=NO_BUILDS).choose(obs, SAMPLES)) == "4c x 3h+Ad"
    assert str(BOTS["pimc"](4, eval_params=NO_BUILDS).choose(obs, SAMPLES)) == "6h x 5d+Ad"
    tempo = EvalParams(tempo=3.0)
    assert str(BOTS["ismcts"](4, eval_params=tempo).choose(obs, PLAYOUTS)) == "4d x 3h+Ad"
    # The module's globals are untouched: a bot built without constants is as shipped.
    assert str(make_bot("expert", seed=4).choose(obs, SAMPLES)) == "4c 3h+Ad =4"


def test_the_evaluator_wraps_only_other_constants() -> None:
    assert ev.evaluator("estimate") is ev.estimate
    assert ev.evaluator("deal_start_estimate", EvalParams()) is ev.deal_start_estimate
    assert ev.evaluator("value", NO_BUILDS) is ev.value
    p = position(23, 12)
    assert ev.evaluator("estimate", NO_BUILDS)(p, 0) == estimate(p, 0, NO_BUILDS)
    with pytest.raises(KeyError):
        ev.evaluator("no-such-evaluation")


def test_the_oracle_thinks_with_its_own_constants_or_else_the_fair_bots() -> None:
    class Variant(PimcBot):
        eval_params = NO_BUILDS

    class VariantOracle(PimcOracle):
        fair = Variant

    assert PimcOracle(1)._params() is DEFAULT_PARAMS
    assert VariantOracle(1)._params() is NO_BUILDS
    tempo = EvalParams(tempo=0.7)
    assert VariantOracle(1, eval_params=tempo)._params() is tempo
