"""The shared wording primitives (casino.engine.wording), and a guard that keeps them shared.

Counts, lists, groups and builds are worded in one module so that every screen
says them the same way; the last tests fail when a private copy (an inline
plural, a module's own ``_listing``) comes back into the package.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino.engine.builds import Build
from casino.engine.cards import parse_card
from casino.engine.moves import Move
from casino.engine.rules import preset
from casino.engine.wording import (
    build_notation,
    build_words,
    cards_words,
    group_words,
    listing,
    noun,
    plural,
    table_item_words,
    times,
)
from casino.words.narrate import move_explanation, move_phrase

SRC = Path(__file__).resolve().parent.parent / "src" / "casino"


def c(text: str) -> int:
    return parse_card(text)


def test_plural_counts_and_irregulars() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(2, "card") == "2 cards"
    assert plural(0, "sweep") == "0 sweeps"
    assert plural(0, "sweep", zero="no") == "no sweeps"
    assert plural(1, "sweep", zero="no") == "1 sweep"
    assert plural(3, "match") == "3 matches"
    assert plural(2, "penny", "pence") == "2 pence"
    assert noun(1, "play") == "play"
    assert noun(4, "play") == "plays"
    assert noun(2, "is") == "are"


def test_times() -> None:
    assert [times(n) for n in (1, 2, 3)] == ["once", "twice", "3 times"]


def test_listing() -> None:
    assert listing([]) == ""
    assert listing(["a"]) == "a"
    assert listing(["a", "b"]) == "a and b"
    assert listing(["a", "b", "c"]) == "a, b and c"
    assert listing(["a", "b"], serial=True) == "a, and b"
    assert listing(["a", "b", "c"], last="or") == "a, b or c"


def test_groups_read_highest_first() -> None:
    group = (c("Ad"), c("6h"))
    assert group_words(group) == "6♥ + A♦"
    assert group_words(group, "+") == "6♥+A♦"
    assert cards_words((c("9c"), c("4d"))) == "9♣ 4♦"


def test_builds_in_words_and_notation() -> None:
    single = Build.make(8, 1, ((c("5d"), c("3s")),))
    multiple = Build.make(8, 0, ((c("5d"), c("3s")), (c("8h"),)))
    assert build_notation(single.groups) == "[5d+3s]" == single.text()
    assert build_notation(multiple.groups) == "[8h 5d+3s]" == multiple.text()
    assert build_notation(single.groups, symbols=True) == "[5♦+3♠]"
    assert build_words(single) == "the 8-build (5♦ + 3♠)"
    assert build_words(multiple) == "the multiple 8-build (8♥, 5♦ + 3♠)"
    assert build_words(multiple, "your") == "your multiple 8-build (8♥, 5♦ + 3♠)"
    assert build_words(multiple, cards=False, kind=False) == "the 8-build"
    assert table_item_words(multiple) == "the 8-build"
    assert table_item_words(c("7d")) == "7♦"


def test_one_move_switch_three_styles() -> None:
    """The option label, the sentence and the helper's explanation come from the same
    switch, naming the same groups in the same order."""
    eight = Build.make(8, 0, ((c("5d"), c("3s")),))
    capture = Move("capture", c("9d"), (c("9c"),), (eight,), 9, ((c("9c"),), (c("4c"), c("5h"))))
    assert move_phrase(capture, short=True) == "capture 9♣, 5♥+4♣ and the 8-build"
    assert move_phrase(capture) == "take 9♣, 5♥ + 4♣ and the 8-build (5♦ + 3♠) with the 9♦"
    assert move_phrase(Move("trail", c("7h")), short=True) == "trail 7♥"
    assert move_phrase(Move("trail", c("7h"))) == "trail the 7♥"
    # The helper's explaining style: the card as subject, each sum with its group.
    rules = preset("casino")
    assert move_phrase(capture, rules) == ("take 9♣, 5♥ + 4♣ and the 8-build (5♦ + 3♠) "
                                           "with the 9♦ (5 + 4 = 9)")
    assert move_explanation(capture, rules, lambda b: "your") == (
        "9♦ takes the 9♣, 5♥ + 4♣ because 5 + 4 = 9, and your 8-build (5♦ + 3♠)")
    assert move_explanation(Move("trail", c("7h")), rules) == "trail the 7♥ (lay it on the table)"


_PRIVATE_COPIES = [
    (re.compile(r"""['"]s['"] if\b"""), "an inline plural: use casino.engine.wording.plural/noun"),
    (re.compile(r"!= 1 else ['\"]"), "an inline plural: use casino.engine.wording.plural/noun"),
    (re.compile(r"""== 1 else ['"]s['"]"""), "an inline plural: use casino.engine.wording.noun"),
    (re.compile(r"\bdef _listing\b"), "a private listing: use casino.engine.wording.listing"),
]


@pytest.mark.parametrize(("pattern", "why"), _PRIVATE_COPIES,
                         ids=["s-if", "ne-1-else", "eq-1-else-s", "_listing"])
def test_no_private_wording_in_src(pattern: re.Pattern[str], why: str) -> None:
    """Counts and lists are worded by casino.engine.wording alone: a module that
    words them itself drifts (``1 cards``, ``a, b, and c`` on one screen only)."""
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in sorted(SRC.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert not found, f"{why}:\n" + "\n".join(found)
