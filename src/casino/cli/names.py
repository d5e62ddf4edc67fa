"""The names the command line offers as choices, without importing what they name.

``casino --help`` lists the rulesets and the players' levels; importing
:mod:`casino.engine.rules` and :mod:`casino.bots.levels` for that would load the engine
and every bot. The rulesets come from the presets' table, :mod:`casino.engine.presets`,
which imports nothing; the levels repeat the names, in the same order. tests/test_cli.py
checks that they equal ``casino.engine.rules.PRESET_NAMES`` and the keys of
``casino.bots.levels.LEVELS`` (and :data:`HELPER_LIMIT` the helper's ``MAX_SHOWN``), so
they cannot drift apart.
"""

from __future__ import annotations

from casino.engine.presets import PRESET_NAMES

#: The ruleset presets (``casino.engine.rules.PRESET_NAMES``), from the presets' table.
RULESETS: tuple[str, ...] = PRESET_NAMES

#: The players' levels, weakest first (``casino.bots.levels.LEVELS``).
LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")

#: ``casino helper``'s default --limit (``casino.words.shortlist.MAX_SHOWN``).
HELPER_LIMIT = 40


def choices(names: tuple[str, ...]) -> str:
    """The metavar that shows the choices in help: ``casino | kasino | ...`` (spaced, so
    that a narrow help column wraps between names, not inside one)."""
    return " | ".join(names)
