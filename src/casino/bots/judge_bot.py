"""The judge as a player: the move the hint names, played (the expert level at two players).

A player who asks for a hint, reads the review and plays the expert level should meet
one opinion. So where the compiled core judges (two players, a table it holds), this
bot plays :func:`casino.bots.judge.preferred_on_core`: the very judgement the hint,
the review and the move helper's ranking make at the same observation, 64 deals of
the hidden cards drawn from the observation's own seed, each searched exactly to the
deal's end. At the same observation it plays the hint's move, on any machine fast
enough to search them within its limit.

Two places play otherwise, by :class:`~casino.bots.pimc.PimcBot`'s search:

* the last deal of two players, where nothing is hidden: solved exactly for the
  *game* (a round that ends the game is worth winning it), where the judge, which
  reports round points, weighs the round's margin;
* wherever the core cannot judge within the limit (no core built, more or other
  players, a deadline that cut the judgement below two deals) and on a crowded table
  (one whose moves are not cheap to list: the judge lists its candidates afresh,
  with no deadline, where the bot's own listing stops at its deadline):
  ``pimc``'s search within what is left of the limit, never the Python judge, whose
  work no deadline cuts.
"""

from __future__ import annotations

import time

from casino.bots.base import Limit
from casino.bots.expert import perfect_information
from casino.bots.judge import preferred_on_core
from casino.bots.pimc import PimcBot
from casino.engine.legality import is_small
from casino.engine.moves import Move
from casino.engine.position import Position


class JudgeBot(PimcBot):
    """The judgement's preferred move (see the module's notes), else ``pimc``'s."""

    name = "judge"

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The judgement's preferred move where the compiled core can judge (a small table,
        something hidden); else, or when the core gives no answer in time, ``pimc``'s move
        with the time left."""
        if (len(moves) > 1 and self._on_core(pos) and is_small(pos)
                and perfect_information(pos) is None):
            start = time.perf_counter()
            seconds = limit.seconds if limit.seconds is not None else self.seconds
            preferred = preferred_on_core(pos, start + seconds)
            if preferred is not None:
                return preferred
            limit = limit.less(time.perf_counter() - start)
        return super().pick(pos, moves, limit)


__all__ = ["JudgeBot"]
