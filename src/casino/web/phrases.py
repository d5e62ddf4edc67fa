"""The chat's quick phrases: each code a page sends, and its words (docs/server.md,
"Chat").

A quick phrase travels as its code (``gg``), never as words, so that each reader can be
shown it in their own language: this mapping is the one home of the words, which the
translated catalogs replace; the pages are sent it with the chat's status.
"""

from __future__ import annotations

#: Each quick phrase's code, and its words.
PHRASES: dict[str, str] = {
    "gg": "Good game!",
    "wp": "Well played!",
    "thanks": "Thanks!",
    "oops": "Oops!",
}
