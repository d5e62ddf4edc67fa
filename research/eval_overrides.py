"""Experiments on the evaluation's constants for one bot only (the research scripts' helper).

The evaluation's constants are parameters (:class:`casino.bots.evaluation.EvalParams`,
the shipped values its defaults), and every bot that evaluates positions takes
them (``eval_params``, :class:`casino.bots.base.EvaluatingBot`). So one bot can
think with other values while its opponent, and the judge of ``decision_loss.py``,
keep the shipped ones, in the same process and without touching any global.
Scripts take them as ``--eval NAME=VALUE``: ``NAME`` a field of ``EvalParams``
(``tempo``, ``build_keep_safe``, ...; the upper-case names of the module constants
they once were, ``TEMPO``, ``BUILD_KEEP_SAFE``, are accepted too), ``VALUE`` a
number, or three numbers separated by commas for ``deal_start`` and
``deal_start_last``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from casino.bots.base import Bot, EvaluatingBot
from casino.bots.evaluation import DEFAULT_PARAMS, EvalParams


def parse(items: list[str], base: EvalParams = DEFAULT_PARAMS) -> EvalParams:
    """``["TEMPO=0.4", ...]`` -> ``base`` with those fields changed; ValueError for an
    unknown name or a value that is not a number (three numbers for a tuple field)."""
    changes: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        field = name.strip().lower()
        if not sep or field not in EvalParams.names():
            raise ValueError(f"{item!r}: give NAME=VALUE for a field of EvalParams "
                             f"({', '.join(EvalParams.names())})")
        default = getattr(base, field)
        try:
            if isinstance(default, tuple):
                numbers = tuple(float(x) for x in text.split(","))
                if len(numbers) != len(default):
                    raise ValueError(f"{len(default)} numbers")
                changes[field] = numbers
            else:
                changes[field] = float(text)
        except ValueError as exc:
            raise ValueError(f"{item!r}: {field} takes "
                             + (f"{len(default)} numbers separated by commas"
                                if isinstance(default, tuple) else "a number")) from exc
    return replace(base, **changes)


def thinking_with(base: Callable[..., Bot], params: EvalParams) -> Callable[[int | None], Bot]:
    """A constructor (seed -> bot) of bot class ``base`` thinking with ``params``.

    With the shipped constants it is ``base`` itself. ValueError when ``base`` is
    not a bot that evaluates positions (its choices would not depend on them)."""
    if params == DEFAULT_PARAMS:
        return base
    if not (isinstance(base, type) and issubclass(base, EvaluatingBot)):
        raise ValueError(f"{getattr(base, 'name', base)!r} does not evaluate positions: "
                         "--eval would change nothing")
    cls: type[EvaluatingBot] = base

    def make(seed: int | None) -> Bot:
        return cls(seed, eval_params=params)

    return make
