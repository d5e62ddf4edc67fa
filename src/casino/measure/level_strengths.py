"""The computer levels' published strengths: a Glicko-2 rating for each level, per
preset and player count, measured by the arena (docs/server.md, "Ratings").

The numbers are in ``level_strengths.json`` beside this module, generated from the
arena's journals by ``research/level_ratings.py`` (``make results``; the file names the
command, and ``tests/test_level_strengths.py`` checks that it is that command's
output). They come from games between the levels only, with ``medium`` placed at 1500
(a new person's rating): people's games never move them, and a level's
:class:`~casino.measure.glicko2.Rating` is only ever read, never rated.

:func:`strengths` gives a pool's levels, weakest first (empty where the arena has not
measured them), :func:`strength` one level's (None where not measured), and
:func:`anchor` the level and rating the scale is placed by.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from casino.measure.glicko2 import Rating

#: The file's format, its ``format`` field.
FORMAT = "casino-level-strengths/1"
#: The file, a data file of this package.
FILE = "level_strengths.json"


@cache
def _published() -> dict[str, Any]:
    """The file, read once; a file of another format is refused."""
    text = resources.files(__package__ or "casino.measure").joinpath(FILE).read_text(
        encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"{FILE}: format {data.get('format')!r}, expected {FORMAT!r}")
    return data


def anchor() -> tuple[str, float]:
    """The level the ratings are placed by and its rating (``medium``, 1500)."""
    placed = _published()["anchor"]
    return str(placed["level"]), float(placed["rating"])


def strengths(preset: str, players: int) -> list[tuple[str, Rating]]:
    """Each measured level of the preset (by its name) at this player count with its
    published rating, weakest first; empty where the levels were not measured."""
    for pool in _published()["pools"]:
        if pool["preset"] == preset and pool["players"] == players:
            return [(name, Rating(float(s["rating"]), float(s["deviation"])))
                    for name, s in pool["levels"].items()]
    return []


def strength(level: str, preset: str, players: int) -> Rating | None:
    """The published rating of ``level`` for the preset at this player count, or None
    where it was not measured."""
    return dict(strengths(preset, players)).get(level)
