"""Reading the project's Markdown documents: headings and the anchors GitHub gives them
(shared by the tests of the docs and of the generated glossary)."""

from __future__ import annotations

import re
from pathlib import Path

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.M | re.S)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to
    hyphens."""
    text = re.sub(r"[`*_~]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of the document's headings (outside code fences), GitHub's way:
    a repeated heading gets -1, -2, ..."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    for line in FENCE.sub("", read(path)).splitlines():
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out
