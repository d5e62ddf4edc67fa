"""What is wrong with a value of a message, in the language in force, where pydantic's
own words are English: the common kinds of wrong value a refused WebSocket message has
(a field of the wrong type, a number out of its range, a text too short or too long).

In English pydantic's words are kept as they are; in another language the kinds
below are worded here, and any other kind keeps pydantic's English.
"""

from __future__ import annotations

from typing import Any

from casino import i18n
from casino.i18n import _, ngettext


def value_words(kind: str, ctx: dict[str, Any] | None) -> str | None:
    """What is wrong with the value, for pydantic's error ``kind`` (its ``ctx``), in the
    language in force; None in English or for a kind not worded here."""
    if i18n.current() == i18n.DEFAULT:
        return None
    ctx = ctx or {}
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return _("input should be a whole number")
    if kind == "string_type":
        return _("input should be text")
    if kind == "bool_type":
        return _("input should be true or false")
    if kind == "list_type":
        return _("input should be a list")
    if kind == "greater_than_equal" and "ge" in ctx:
        return _("input should be at least %(n)s") % {"n": ctx["ge"]}
    if kind == "less_than_equal" and "le" in ctx:
        return _("input should be at most %(n)s") % {"n": ctx["le"]}
    if kind == "string_too_short" and "min_length" in ctx:
        n = int(ctx["min_length"])
        return ngettext("the text should have at least %(n)s character",
                        "the text should have at least %(n)s characters", n) % {"n": n}
    if kind == "string_too_long" and "max_length" in ctx:
        n = int(ctx["max_length"])
        return ngettext("the text should have at most %(n)s character",
                        "the text should have at most %(n)s characters", n) % {"n": n}
    return None
