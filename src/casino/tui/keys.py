"""The key bar's words in the language in force.

Textual reads a screen's keys from its class's ``BINDINGS``, made once when the module
is imported, before any language is chosen; their descriptions are marked
``pN_("key", ...)`` there and translated here, per screen, when the screen is made.
"""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

from casino.i18n import pgettext


def translate_keys(node: DOMNode) -> None:
    """Give ``node``'s own key bindings their descriptions in the language in force (the
    English descriptions are the messages' ids, so English is unchanged)."""
    table = node._bindings.key_to_bindings  # Textual keeps a node's own keys only here
    for key, bindings in table.items():
        table[key] = [replace(b, description=pgettext("key", b.description))
                      if b.description else b for b in bindings]
