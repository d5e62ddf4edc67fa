"""Linking the first use of each glossary word in running text, in the language in force.

The web rules and guide pages and the how-to-play documents link the first use of each
entry of :mod:`casino.words.glossary` to its anchor (the anchors are the English words'
slugs in every language, so a link reaches the same entry whatever the page's language).
English text is matched by the entries' words and forms (a final ``s`` allowed); Finnish
and Swedish text by the entries' translated words and own names, each as the start of a
word, so that an inflected form links too (*rakennelman*, *tabben*).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from casino.i18n import current, pgettext, using

#: What may follow a translated word's form in running text: Finnish inflects with
#: endings of any length; Swedish adds its articles and plurals (*tabben*, *byggen*,
#: *byggena*) but no more, so that a short word does not link the start of another
#: (*par* in *parti*).
_ENDINGS = {"fi": r"\w*", "sv": r"(?:en|et|na|erna|arna|orna|ar|er|or|n|t|s)?"}


@cache
def _forms(lang: str) -> tuple[tuple[str, str], ...]:
    """Every linking form in ``lang`` with its entry's anchor, longest first."""
    from casino.words.glossary import TERMS

    pairs: dict[str, str] = {}
    with using(lang):
        # A word too common to link alone ("game": *peli*, *parti*) does not link as
        # another entry's own name either.
        common = {pgettext("glossary term", t.word).lower() for t in TERMS if not t.link}
        for term in TERMS:
            if lang == "en":
                forms = ((term.word,) if term.link else ()) + term.forms
            else:
                own = tuple(pgettext("glossary term", n) for _p, n in term.names)
                forms = ((pgettext("glossary term", term.word),) if term.link else ()) + own
            for form in forms:
                if lang == "en" or form.lower() not in common:
                    pairs.setdefault(form.lower(), term.anchor)
    return tuple(sorted(pairs.items(), key=lambda fa: len(fa[0]), reverse=True))


@cache
def _pattern(lang: str) -> re.Pattern[str]:
    """Every form of every entry in ``lang``, as whole words (English: a final ``s``
    allowed; Finnish and Swedish: their endings)."""
    def ending(form: str) -> str:
        """What may follow the form."""
        if not form[-1].isalpha():
            return ""
        return "s?" if lang == "en" else _ENDINGS[lang]

    alts = "|".join(re.escape(f) + ending(f) for f, _a in _forms(lang))
    return re.compile(rf"(?<![\w♠♣♥♦])(?:{alts})(?![\w♠♣♥♦])", re.IGNORECASE)


def _anchor_of(text: str, lang: str) -> str:
    """The anchor of the entry a matched text names: the longest form it starts with."""
    key = text.lower()
    for form, anchor in _forms(lang):
        if key == form or (key.startswith(form) and (lang != "en" or key == form + "s")):
            return anchor
    raise AssertionError(text)  # the pattern only matches forms


def link_spans(text: str, seen: set[str]) -> list[tuple[str, str | None]]:
    """``text`` cut into spans, each with the anchor of the entry it names or None.

    Only the first use of each entry is linked: ``seen`` holds the anchors already
    linked on the page, and grows. A page links a word once, however often it is used.
    """
    lang = current()
    spans: list[tuple[str, str | None]] = []
    at = 0
    for m in _pattern(lang).finditer(text):
        anchor = _anchor_of(m.group(0), lang)
        if anchor in seen:
            continue
        seen.add(anchor)
        if m.start() > at:
            spans.append((text[at:m.start()], None))
        spans.append((m.group(0), anchor))
        at = m.end()
    if at < len(text):
        spans.append((text[at:], None))
    return spans


def link_markdown(text: str, seen: set[str], target: str = "glossary.md") -> str:
    """``text`` (Markdown) with the first use of each entry linked to ``target``; code
    spans (between backticks) are left as they are."""
    out = []
    for k, part in enumerate(text.split("`")):
        if k % 2:
            out.append(f"`{part}`")
        else:
            out.append("".join(s if a is None else f"[{s}]({target}#{a})"
                               for s, a in link_spans(part, seen)))
    return "".join(out)


def link_all(texts: Iterable[str], seen: set[str] | None = None
             ) -> list[list[tuple[str, str | None]]]:
    """:func:`link_spans` of several texts of one page, in order (the web pages)."""
    seen = set() if seen is None else seen
    return [link_spans(t, seen) for t in texts]
