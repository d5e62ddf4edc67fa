"""Values derived from a ruleset, kept per :class:`~casino.engine.rules.Rules` object.

A bot asks for its ruleset's scoring scheme, card points or counting order at
every leaf of a search; hashing a ``Rules`` value field by field costs more than
building most of these, so they are kept by the object's identity instead (the
object held beside its value, so a recycled id is never mistaken for it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from casino.engine.rules import Rules

T = TypeVar("T")

#: Rulesets kept at most per function before it starts afresh.
KEPT = 256


class per_rules(Generic[T]):  # lower case: used as a decorator, like lru_cache
    """``make`` computed once per ``Rules`` object (by identity)."""

    def __init__(self, make: Callable[[Rules], T]) -> None:
        self.make = make
        self.memo: dict[int, tuple[Rules, T]] = {}
        update_wrapper(self, make)

    def __call__(self, rules: Rules) -> T:
        got = self.memo.get(id(rules))
        if got is None or got[0] is not rules:
            if len(self.memo) > KEPT:
                self.memo.clear()
            got = (rules, self.make(rules))
            self.memo[id(rules)] = got
        return got[1]


__all__ = ["per_rules"]
