"""vulture_allowlist.py names only names the code still has: an entry allows its name
everywhere, so one left behind by a removal could later hide dead code of that name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWLIST = ROOT / "vulture_allowlist.py"
CODE = ("src", "tests", "benchmarks", "research", "examples")  # the Makefile's CODE_PATHS


def test_every_allowed_name_is_still_in_the_code() -> None:
    tree = ast.parse(ALLOWLIST.read_text(encoding="utf-8"))
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert len(names) > 50  # the file was read: textual's handlers alone are more
    text = "\n".join(p.read_text(encoding="utf-8") for folder in CODE
                     for p in (ROOT / folder).rglob("*.py") if p.is_file())
    stale = sorted(n for n in names if not re.search(rf"\b{re.escape(n)}\b", text))
    assert not stale, f"vulture_allowlist.py names what the code no longer has: {stale}"
