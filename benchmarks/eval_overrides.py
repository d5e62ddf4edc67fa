"""Experiments on the evaluation's constants for one bot only (benchmarks' helper).

``casino.bots.evaluation`` reads its constants (``BUILD_KEEP_SAFE``, ``TEMPO``, ...)
at call time, so a bot can be made to think with other values by setting them
around its own decisions and putting them back after: its opponent, and the
judge of ``decision_loss.py``, keep the shipped values. Scripts take them as
``--eval NAME=NUMBER``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from casino.bots import evaluation


def parse(items: list[str]) -> dict[str, float]:
    """``["TEMPO=0.4", ...]`` -> ``{"TEMPO": 0.4}``; ValueError for an unknown name."""
    out: dict[str, float] = {}
    for item in items:
        name, sep, number = item.partition("=")
        if not sep or not isinstance(getattr(evaluation, name, None), int | float):
            raise ValueError(f"{item!r}: give NAME=NUMBER for a numeric constant of "
                             "casino.bots.evaluation")
        out[name] = float(number)
    return out


@contextmanager
def overridden(settings: dict[str, float]) -> Iterator[None]:
    saved = {name: getattr(evaluation, name) for name in settings}
    for name, value in settings.items():
        setattr(evaluation, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(evaluation, name, value)


def thinking_with(base: type[Any], settings: dict[str, float]) -> type[Any]:
    """A subclass of bot class ``base`` that decides with ``settings`` in force."""
    if not settings:
        return base

    class Overridden(base):  # type: ignore[misc, valid-type]
        def pick(self, *args: Any, **kwargs: Any) -> Any:
            with overridden(settings):
                return super().pick(*args, **kwargs)

    return Overridden
