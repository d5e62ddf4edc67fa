"""The names the game gives players who were not named, shown in the reader's language.

A game's record keeps its names as they were given: ``You``, ``Computer``,
``Partner``, ``Left``, ``Across``, ``Right`` and ``Player N``
(:func:`casino.play.session.default_names`), and a web table's ``Computer N``, stay
English in every record, so that a record reads the same wherever it is opened. Only
where a name is shown is a default one said in the language in force (*Sinä*,
*Tietokone*; *Du*, *Datorn*): a name a person chose is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from casino.i18n import pgettext, pN_

#: The default names (as the record keeps them), marked for translation.
DEFAULT_NAMES = (pN_("player", "You"), pN_("player", "Computer"),
                 pN_("player", "Partner"), pN_("player", "Left"),
                 pN_("player", "Across"), pN_("player", "Right"))

_PLAYER_N = re.compile(r"Player (\d+)")
#: A web table's computers, numbered when there are several (``Computer 2``).
_COMPUTER_N = re.compile(r"Computer (\d+)")


def shown_name(name: str) -> str:
    """``name`` as shown: a default name in the language in force, any other as it is."""
    if name in DEFAULT_NAMES:
        return pgettext("player", name)
    numbered = _PLAYER_N.fullmatch(name)
    if numbered:
        return pgettext("player", "Player %(n)s") % {"n": numbered.group(1)}
    computer = _COMPUTER_N.fullmatch(name)
    if computer:
        return pgettext("player", "Computer %(n)s") % {"n": computer.group(1)}
    return name


def shown_names(names: Sequence[str]) -> tuple[str, ...]:
    """Each of ``names`` as shown (:func:`shown_name`)."""
    return tuple(shown_name(n) for n in names)
