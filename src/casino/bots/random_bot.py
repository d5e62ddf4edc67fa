"""The floor of the ladder: a uniformly random legal move (for tests and as a baseline)."""

from __future__ import annotations

from casino.bots.base import Bot, Limit
from casino.engine.moves import Move
from casino.engine.position import Position


class RandomBot(Bot):
    """A legal move drawn uniformly: the floor any other bot must beat."""
    name = "random"

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """Any of the candidate moves, with equal chances."""
        return self.rng.choice(moves)
