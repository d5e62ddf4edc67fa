"""English words still allowed where their translation is yet to come, checked once it
has come: the tests that look at a whole screen or page in Finnish or Swedish list the
words another part of the program gives it (the server's, the engine's), each with a
pattern of the message that will translate it, and forbid them once the catalog holds
such a message. The checks tighten by themselves as the translations arrive.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from casino import i18n


def catalog_has(lang: str, pattern: str) -> bool:
    """True when ``lang``'s catalog translates a message whose key matches ``pattern``:
    the English message, after its context and ``\\x04`` when it has one."""
    if lang == i18n.DEFAULT:
        return False
    catalog: dict[Any, str] = getattr(i18n.translation(lang), "_catalog", {})
    for key, text in catalog.items():
        full = key[0] if isinstance(key, tuple) else key
        message = full.rsplit("\x04", 1)[-1]
        if message and text and text != message and re.search(pattern, full):
            return True
    return False


def translated_now(lang: str, words: Mapping[str, str]) -> list[str]:
    """The English ``words`` (each with its message's pattern) whose message ``lang``'s
    catalog translates: a page or screen in ``lang`` may no longer show them."""
    return [w for w, pattern in words.items() if catalog_has(lang, pattern)]


def shown(words: list[str] | tuple[str, ...], text: str) -> list[str]:
    """The ``words`` found in ``text`` as whole words (case counts)."""
    return [w for w in words if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)]
