"""The chat's quick phrases: each code a page sends, and its words (docs/server.md,
"Chat").

A quick phrase travels as its code (``gg``), never as words, so that each reader can be
shown it in their own language: this mapping is the one home of the words, which the
translated catalogs replace. The chat's status sends the English words; the game page
carries them in its reader's language (:func:`phrases_shown`), and shows those.
"""

from __future__ import annotations

from casino.i18n import pgettext, pN_

#: The catalogs' context of the quick phrases' words (written out in each pN_ below:
#: extraction reads only literals).
CONTEXT = "chat phrase"

#: Each quick phrase's code, and its words (in English: see :func:`phrases_shown`).
PHRASES: dict[str, str] = {
    "gg": pN_("chat phrase", "Good game!"),
    "wp": pN_("chat phrase", "Well played!"),
    "thanks": pN_("chat phrase", "Thanks!"),
    "oops": pN_("chat phrase", "Oops!"),
}


def phrases_shown() -> dict[str, str]:
    """Each quick phrase's code and its words in the language in force: the game page
    carries them (its chat's buttons, and the phrases others send), so that a reader
    sees them in their own language whatever the WebSocket sends."""
    return {code: pgettext(CONTEXT, words) for code, words in PHRASES.items()}
