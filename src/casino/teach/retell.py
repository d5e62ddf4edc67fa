"""A kept review told again in the language in force.

The web computes a review once, in a worker process, and keeps its JSON
(``casino-review/2``), whose sentences are in English; anyone may read it afterwards, in
their own language. :func:`retold` writes those sentences again from what each decision
keeps (the seat's observation and the moves in notation) in the language in force, at
the moment the review is shown: the moves' words, what each move leaves, the hindsight's
best move, the options and the costliest decisions' advice. It adds the grades' and the
totals' kinds' words (``verdict_words``, ``kind_words``) beside their codes, which stay
English (the page keys its colours and counts on them). English is returned as kept.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from casino.engine.codec import position_from_json
from casino.engine.position import Position
from casino.i18n import DEFAULT, current
from casino.teach.phrases import leaves_words
from casino.teach.report import kind_words
from casino.teach.review import Decision, Review, advice, grade_words
from casino.words.narrate import move_phrase


def _phrase(view: Position, move: str) -> str:
    """The move ``move`` (notation) of ``view``'s player as words."""
    return move_phrase(view.parse_move(move), view.rules)


def retold_decision(d: Decision) -> Decision:
    """``d`` with its words written again in the language in force, from the
    observation it keeps; unchanged when it keeps none (or it cannot be read)."""
    if not d.position:
        return d
    try:
        view = position_from_json(json.loads(d.position))
        played, better = view.parse_move(d.move), view.parse_move(d.preferred)
        return replace(
            d, words=move_phrase(played, view.rules),
            preferred_words=move_phrase(better, view.rules),
            leaves=leaves_words(view, played), preferred_leaves=leaves_words(view, better),
            hindsight=replace(d.hindsight, best_words=_phrase(view, d.hindsight.best)),
            options=tuple(replace(o, words=_phrase(view, o.move)) for o in d.options))
    except (ValueError, KeyError, TypeError):  # CasinoError is a ValueError
        return d


def retold(data: dict[str, Any]) -> dict[str, Any]:
    """The review ``data`` (its JSON as kept) with its words in the language in force;
    ``data`` itself in English, or when it is no review this version reads."""
    if current() == DEFAULT:
        return data
    try:
        r = Review.from_json(data)
    except ValueError:
        return data
    decisions = tuple(retold_decision(d) for d in r.decisions)
    told = replace(r, decisions=decisions,
                   advice=tuple(advice(decisions[i]) for i in r.costliest))
    out = told.to_json()
    for d in out["decisions"]:
        d["verdict_words"] = grade_words(d["verdict"])
    for t in out["totals"]:
        t["kind_words"] = kind_words(t["kind"])
    return out


__all__ = ["retold", "retold_decision"]
