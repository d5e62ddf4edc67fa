"""The compiled core, when there is one: which engine answers, and the switch that turns it off.

The core (``casino.engine._core``, C built from ``src/ccore/`` by ``pip install`` where a
compiler exists) answers the engine's hottest questions faster. The pure-Python engine
stays the reference and the authority for every move played: the core is held equal to
it by the differential tests (tests/test_core.py), and wherever it cannot hold a
position (a table beyond its masks) the Python engine answers instead.

``CASINO_CORE=off`` (or ``0``, ``no``, ``false``) in the environment turns the core off
for the whole process, so the same program can be run both ways::

    >>> from casino.engine import core
    >>> core.engine_name() in ("compiled core (C)", "pure Python (no compiled core built)",
    ...                        "pure Python (CASINO_CORE=off)")
    True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType

from casino.engine import movegen
from casino.engine.builds import Build
from casino.engine.memo import per_rules
from casino.engine.movegen import Budget, TooMuchWork
from casino.engine.moves import KINDS, Move
from casino.engine.rules import Rules

#: The environment variable that turns the core off.
SWITCH = "CASINO_CORE"
#: The core's interface version this adapter speaks (``CORE_ABI`` in src/ccore/core.h).
ABI = 1

_OFF_WORDS = frozenset({"off", "0", "no", "false"})


def _load() -> tuple[ModuleType | None, str]:
    """The core module and why not, once per process."""
    if os.environ.get(SWITCH, "").strip().lower() in _OFF_WORDS:
        return None, f"pure Python ({SWITCH}=off)"
    try:
        from casino.engine import _core  # type: ignore[attr-defined]
    except ImportError:
        return None, "pure Python (no compiled core built)"
    if getattr(_core, "ABI", None) != ABI:
        return None, "pure Python (the compiled core is out of date: reinstall to rebuild it)"
    return _core, "compiled core (C)"


_MODULE, _NAME = _load()


def module() -> ModuleType | None:
    """The compiled core, or ``None`` when the Python engine answers alone."""
    return _MODULE


def engine_name() -> str:
    """Which engine answers, in words, for ``casino --version`` and the server's start-up
    line: ``compiled core (C)``, or ``pure Python (...)`` saying why."""
    return _NAME


# ----------------------------------------------------------------------
# Move generation


def _card_tables(rules: Rules) -> object:
    """The ruleset's numbers as the core holds them (a capsule), made once per ruleset."""
    table = rules.table
    alt = rules.ace_sum_alt
    assert _MODULE is not None
    return _MODULE.make_rules(
        table.played, table.sum_value, table.sum_alt,
        tuple(tuple(k) for k in table.pair_played), table.pair_table, table.holds,
        tuple(bool(x) for x in table.face_one), table.max_value, table.max_build,
        (alt - rules.ace_sum) if alt else 0, bool(alt), rules.building,
        rules.raise_own_build, rules.compulsory_capture,
        rules.maximal_capture == "cardinality", rules.forced_sweep,
    )


_tables = per_rules(_card_tables)


def generate(rules: Rules, hand: Sequence[int], loose: Sequence[int],
             builds: Sequence[Build], seat: int, budget: Budget | None = None) -> list[Move]:
    """Every legal move, exactly as :func:`casino.engine.movegen.generate` lists them (the
    same moves in the same order, shown with the same groups, and the same steps spent
    against ``budget``, raising :class:`TooMuchWork` where it would): from the core when
    there is one and it can hold the table, else from the Python generator."""
    if _MODULE is None:
        return movegen.generate(rules, hand, loose, builds, seat, budget)
    steps = -1 if budget is None else budget.left
    got = _MODULE.generate(_tables(rules), tuple(hand), tuple(loose), tuple(builds), seat,
                           steps)
    if got is NotImplemented:
        return movegen.generate(rules, hand, loose, builds, seat, budget)
    moves, left = got
    if budget is not None:
        budget.left = left
        if moves is None:
            raise TooMuchWork(f"listing every move needs more than {budget.steps} steps")
    return moves  # type: ignore[no-any-return]


if _MODULE is not None:
    _MODULE.bind(Move, KINDS)
