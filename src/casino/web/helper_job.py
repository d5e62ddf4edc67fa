"""The move helper's job in its worker processes: the plays ranked by the hints' judge.

Apart from :mod:`casino.web.tools` so that a worker, which imports the job's module to
run it, loads only the helper, the judge and the engine, not FastAPI, Jinja2 and
SQLAlchemy: a worker's start counts against the request's deadline
(``helper_seconds``). The tools and the teaching layer do not import each other
(docs/architecture.md), so the web joins them here.
"""

from __future__ import annotations

from typing import Any

from casino.i18n import DEFAULT, using
from casino.teach.hint import rank_plays
from casino.tools.helper import helper_json


def judged_helper_json(req: dict[str, Any]) -> dict[str, Any]:
    """:func:`helper_json` with the plays ranked by the hints' judge, best first, each
    with its reason (:func:`casino.teach.hint.rank_plays`: a hint's own judgement, its
    deals drawn from the position, not from the request's seed, which is the computer
    player's); ``"judge": false`` in the request lists them unjudged, the biggest
    captures first. ``"lang"``, set by the server (the asker's language), is the
    language of the reasons."""
    req = dict(req)
    lang = req.pop("lang", DEFAULT)  # the asker's: the reasons are written in it
    with using(lang if isinstance(lang, str) else DEFAULT):
        if not req.pop("judge", True):  # a bool: the request's model checked it
            return helper_json(req)
        return helper_json(req, rank=rank_plays)
