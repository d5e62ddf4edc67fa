"""casino: an exact engine for Casino and its family of fishing card games.

The public API (POSITION.md): :class:`Position`, :class:`Move`, :class:`Rules`,
:class:`Match`, and the errors :class:`IllegalMove` and :class:`InvalidPosition`.
"""

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
