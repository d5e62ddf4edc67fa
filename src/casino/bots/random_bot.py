"""The floor of the ladder: a uniformly random legal move (for tests and as a baseline)."""

from __future__ import annotations

from casino.bots.base import Bot, Limit
from casino.engine.moves import Move
from casino.engine.position import Position


class RandomBot(Bot):
    name = "random"

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        return self.rng.choice(moves)
