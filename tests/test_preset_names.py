"""Each preset named once (issue 45): its name, titles and words are in one table,
:mod:`casino.engine.presets`, and the rest of the package reads them from there.

The grep test scans every module of ``src/casino`` for a string literal that is exactly
a preset's name (``"krypkasino"``, ``'tablic'``; docstrings and longer strings that only
mention one do not count) and fails on any outside the table's module and the allowlist
below, each entry of which says why that module must name them.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from casino.engine import presets
from casino.engine.presets import PRESETS, for_scoring
from casino.engine.rules import ALIASES, PRESET_NAMES, describe, preset

SRC = Path(__file__).resolve().parent.parent / "src" / "casino"

#: Preset names the scan leaves alone everywhere, as they are also ordinary words of the
#: package: ``spade`` is a suit ("1 spade").
COMMON_WORDS = frozenset({"spade"})

#: ``casino`` is also the package's and the command's name.
_THE_PACKAGE = frozenset({"casino"})

#: Modules that must name presets, and which, with why.
ALLOWED: dict[str, tuple[frozenset[str], str]] = {
    "engine/rules.py": (frozenset(PRESET_NAMES),
                        "the preset definitions themselves: each preset's function names "
                        "its ruleset and its scoring kind, the Scoring literal and the "
                        "options' JSON choices list the scoring kinds"),
    "engine/scheme.py": (frozenset({"krypkasino", "kasino", "tablic"}),
                         "builds each scoring kind's scheme: it branches on Rules.scoring, a "
                         "scoring kind named for the preset that brought it, and that "
                         "branch is the rule itself"),
    "engine/codec.py": (frozenset({"kasino"}),
                        "only the Finnish scoring kind carries points between rounds "
                        "(Rules.scoring, the rule itself, not the preset's name)"),
    "engine/scoring.py": (frozenset({"kasino", "mulle"}),
                          "the Finnish scoring kind's carry-over (Rules.scoring), and "
                          "'mulle' the scored item (a card taken by its twin)"),
    "engine/core.py": (frozenset({"casino"}),
                       "tells the compiled core whether the evaluation's deal-start "
                       "correction applies: it was fitted on the house scoring kind "
                       "(Rules.scoring), a rule, not the preset's name"),
    "bots/evaluation.py": (frozenset({"casino"}),
                           "the deal-start correction was fitted on the house scoring "
                           "kind only (Rules.scoring), a rule, not the preset's name"),
    "cli/__init__.py": (_THE_PACKAGE, "the command's name in the command lines it prints"),
    "measure/arena.py": (_THE_PACKAGE, "the package's version in a result's header"),
    "play/session.py": (_THE_PACKAGE, "the folder of saved games, named for the package"),
    "web/app.py": (_THE_PACKAGE, "the web app's title"),
    "web/seats.py": (_THE_PACKAGE, "the seat cookie's name"),
    "bots/race.py": (frozenset({"mulle"}), "'mulle' the scored item, not the preset"),
    "tools/scorepad.py": (frozenset({"mulle"}), "'mulle' the scored item, not the preset"),
    "words/narrate.py": (frozenset({"mulle"}), "'mulle' the scored item and its word"),
    "words/glossary.py": (frozenset({"mulle"}),
                          "'mulle' the word the glossary defines and the scored item's "
                          "label, not the preset (its terms name presets by the table's "
                          "constants)"),
}


def _named_presets(path: Path) -> list[tuple[int, str]]:
    """The lines and names of the string literals in ``path`` that are a preset's name."""
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        try:
            value = ast.literal_eval(tok.string)
        except (ValueError, SyntaxError):  # an f-string
            continue
        if value in PRESETS and value not in COMMON_WORDS:
            found.append((tok.start[0], value))
    return found


def test_no_module_names_a_preset_outside_the_table_and_the_allowlist() -> None:
    stray = []
    for path in sorted(SRC.rglob("*.py")):
        where = path.relative_to(SRC).as_posix()
        if where == "engine/presets.py":
            continue
        allowed = ALLOWED.get(where, (frozenset(), ""))[0]
        stray += [f"{where}:{line}: {name!r}" for line, name in _named_presets(path)
                  if name not in allowed]
    assert not stray, ("a preset named outside casino.engine.presets; read it from the "
                       "table instead:\n" + "\n".join(stray))


def test_the_allowlist_has_no_stale_entries() -> None:
    for where, (names, why) in ALLOWED.items():
        assert why
        found = {name for _, name in _named_presets(SRC / where)}
        assert found, f"{where} names no preset now: drop it from the allowlist"
        assert found <= names


def test_the_scan_finds_a_quoted_name(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Tablic, "tablic" in a docstring."""\nX = \'tablic\'\nY = "kasino-ish"\n')
    assert _named_presets(module) == [(2, "tablic")]


def test_the_table_holds_every_preset_the_rules_define() -> None:
    assert presets.PRESET_NAMES == PRESET_NAMES
    assert all(ALIASES[a] == p.name for p in PRESETS.values() for a in p.aliases)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_words_follow_the_scoring(name: str) -> None:
    rules = preset(name)
    assert rules.round_word == ("game" if name == "krypkasino" else "round")
    assert rules.sweep_word == ("tabla" if name == "tablic" else "sweep")
    assert describe(rules)[0] == PRESETS[name].title
    assert for_scoring(rules.scoring).round_word == rules.round_word
