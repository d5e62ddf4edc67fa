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
    from casino.builds import Build
    from casino.cards import Cards, card_text, parse_card
    from casino.errors import (
        CardError,
        CasinoError,
        IllegalMove,
        InvalidPosition,
        InvalidRecord,
        MalformedMove,
        RulesError,
    )
    from casino.match import Match
    from casino.moves import Move
    from casino.position import HiddenInformation, Position
    from casino.rules import PRESET_NAMES, Rules, preset
    from casino.scoring import Item, Result

__version__ = "0.1.0"

#: Where each public name lives.
_HOMES: dict[str, str] = {
    "Build": "casino.builds",
    "Cards": "casino.cards",
    "card_text": "casino.cards",
    "parse_card": "casino.cards",
    "CardError": "casino.errors",
    "CasinoError": "casino.errors",
    "IllegalMove": "casino.errors",
    "InvalidPosition": "casino.errors",
    "InvalidRecord": "casino.errors",
    "MalformedMove": "casino.errors",
    "RulesError": "casino.errors",
    "Match": "casino.match",
    "Move": "casino.moves",
    "HiddenInformation": "casino.position",
    "Position": "casino.position",
    "PRESET_NAMES": "casino.rules",
    "Rules": "casino.rules",
    "preset": "casino.rules",
    "Item": "casino.scoring",
    "Result": "casino.scoring",
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
