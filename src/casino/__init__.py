"""casino: an exact engine for Casino and its family of fishing card games.

The public API (docs/position.md): :class:`Position`, :class:`Move`, :class:`Rules`,
:class:`Match`, and the errors :class:`IllegalMove` and :class:`InvalidPosition`.

The names are imported on first use (PEP 562), not with the package: the
``casino`` command imports ``casino.cli``, which imports this package, and
``casino --help`` should not pay for loading the whole engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from casino.engine.builds import Build
    from casino.engine.cards import Cards, card_text, parse_card
    from casino.engine.errors import (
        CardError,
        CasinoError,
        IllegalMove,
        InvalidPosition,
        InvalidRecord,
        MalformedMove,
        RulesError,
    )
    from casino.engine.match import Match
    from casino.engine.moves import Move
    from casino.engine.position import HiddenInformation, Position
    from casino.engine.rules import PRESET_NAMES, Rules, preset
    from casino.engine.scoring import Item, Result

__version__ = "0.1.0"

#: Where each public name lives.
_HOMES: dict[str, str] = {
    "Build": "casino.engine.builds",
    "Cards": "casino.engine.cards",
    "card_text": "casino.engine.cards",
    "parse_card": "casino.engine.cards",
    "CardError": "casino.engine.errors",
    "CasinoError": "casino.engine.errors",
    "IllegalMove": "casino.engine.errors",
    "InvalidPosition": "casino.engine.errors",
    "InvalidRecord": "casino.engine.errors",
    "MalformedMove": "casino.engine.errors",
    "RulesError": "casino.engine.errors",
    "Match": "casino.engine.match",
    "Move": "casino.engine.moves",
    "HiddenInformation": "casino.engine.position",
    "Position": "casino.engine.position",
    "PRESET_NAMES": "casino.engine.rules",
    "Rules": "casino.engine.rules",
    "preset": "casino.engine.rules",
    "Item": "casino.engine.scoring",
    "Result": "casino.engine.scoring",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'casino' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # the next look-up is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "PRESET_NAMES",
    "Build",
    "CardError",
    "Cards",
    "CasinoError",
    "HiddenInformation",
    "IllegalMove",
    "InvalidPosition",
    "InvalidRecord",
    "Item",
    "MalformedMove",
    "Match",
    "Move",
    "Position",
    "Result",
    "Rules",
    "RulesError",
    "__version__",
    "card_text",
    "parse_card",
    "preset",
]
