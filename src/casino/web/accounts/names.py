"""What an account's name may be, and when two names are one.

Names are public (other players see them), so two accounts must never pass for each
other: ``Ann``, ``ann``, ``Аnn`` (a Cyrillic A), ``A nn`` and ``4nn`` are not all free
to take. A name is compared by its *skeleton*: Unicode NFKC (so full-width and
compatibility forms become the plain letters), casefolded, its accents dropped, its
separators dropped, and the common look-alikes mapped to one letter (Cyrillic and Greek
letters drawn like Latin ones; ``0`` and ``o``; ``1``, ``l``, ``i`` and ``I``; ``rn``
and ``m``). The accounts table keeps the skeleton under a unique index, so two names
with one skeleton cannot both be stored, even by two processes at once.

This is a bounded list, not Unicode's whole confusables table: it covers the letters
people type or paste to pass for someone (docs/server.md says so).
"""

from __future__ import annotations

import unicodedata

from casino.i18n import _

#: The shortest and the longest name, in characters (after NFKC).
NAME_MIN = 3
NAME_MAX = 24
#: The separators a name may hold between its letters and digits.
SEPARATORS = " -_."

#: Look-alikes, each mapped to the Latin letter it passes for (after casefolding).
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "l", "ї": "l", "ј": "j",
    "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ь": "b", "ӏ": "l",
    "п": "n", "г": "r",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "μ": "u", "ω": "w", "ς": "c",
    "σ": "o",
    # Latin and digits drawn alike
    "0": "o", "1": "l", "i": "l", "ı": "l", "|": "l", "5": "s", "2": "z", "8": "b",
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ł": "l",
}
#: Letter pairs drawn like one letter.
PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def normal(name: str) -> str:
    """The name as it is kept and shown: NFKC, its ends stripped."""
    return unicodedata.normalize("NFKC", name).strip()


def rule() -> str:
    """The rule in words, in the language in force: the second half of every refusal of
    a name, and the sign-up form's note."""
    return _("a name is %(min)s to %(max)s letters or digits, with single spaces, hyphens, "
             "underscores or dots between them") % {"min": NAME_MIN, "max": NAME_MAX}


def why_not(name: str) -> str | None:
    """Why ``name`` (as :func:`normal` keeps it) cannot be a name, in words; None when it
    can. Only letters, digits and single separators between them, so that nothing
    invisible, no control character and no lookalike spacing gets into a name."""
    shown = normal(name)
    values = {"rule": rule(), "count": len(shown)}
    if len(shown) < NAME_MIN:
        return _("the name is too short: %(rule)s") % values
    if len(shown) > NAME_MAX:
        return _("the name is too long (%(count)s characters): %(rule)s") % values
    previous = ""
    for ch in shown:
        if ch in SEPARATORS:
            if previous in SEPARATORS:
                return _("the name has two separators in a row: %(rule)s") % values
        elif not unicodedata.category(ch).startswith(("L", "N")):
            return (_("the name has a character that is not allowed (%(char)s): %(rule)s")
                    % {**values, "char": _shown(ch)})
        previous = ch
    if shown[0] in SEPARATORS or shown[-1] in SEPARATORS:
        return _("the name must begin and end with a letter or digit: %(rule)s") % values
    return None


def _shown(ch: str) -> str:
    """A refused character named so that it is visible, whatever it is."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}"


def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with one skeleton pass for each other, and
    only one of them may be an account's."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded)
                   if not unicodedata.combining(ch))
    out = "".join(CONFUSABLES.get(ch, ch) for ch in unicodedata.normalize("NFC", bare)
                  if ch not in SEPARATORS)
    for pair, single in PAIRS:
        out = out.replace(pair, single)
    return out


#: What a guest's name is marked with when it passes for an account's.
GUEST_MARK = " (guest)"


def as_guest(name: str, limit: int) -> str:
    """A guest's ``name`` marked as a guest's (shortened to fit ``limit`` characters
    with the mark): what a guest who typed an account's name is called at the table, so
    that nobody can pass for an account there, and the guest still plays."""
    return name[:max(1, limit - len(GUEST_MARK))].rstrip() + GUEST_MARK
