"""The bot protocol: an observation and a limit in, a legal move out.

A bot never sees a full position: it is given ``Position.observation(seat)``
(the JSON form with other hands and the stock hidden) and reads it with
``Position.from_json``. What it knows beyond that it must work out itself
(:mod:`casino.bots.knowledge`). Bots are deterministic given their seed, so
arena runs reproduce.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from casino.bots.evaluation import DEFAULT_PARAMS, EvalParams
from casino.engine.legality import is_small
from casino.engine.moves import Move
from casino.engine.partition import OutOfTime
from casino.engine.partition import deadline as time_limit
from casino.engine.position import Position

#: Seconds of a timed limit kept back from thinking (at most a tenth of the limit):
#: what a bot does once its deadline has passed (a one-ply decision, the legality
#: check) and the pauses of Python's garbage collector, whose full collections
#: during a search took 80-110 ms (docs/benchmarks.md, "Bots on crowded tables").
RESERVE = 0.05


@dataclass(frozen=True)
class Limit:
    """How long a bot may think: wall-clock seconds and/or iterations (samples,
    playouts or nodes, as each bot defines). ``None`` leaves it to the bot's default."""

    seconds: float | None = None
    iterations: int | None = None

    def deadline(self, start: float | None = None) -> float | None:
        """The ``time.perf_counter()`` value at which to stop, if timed."""
        if self.seconds is None:
            return None
        return (time.perf_counter() if start is None else start) + self.seconds

    def less(self, spent: float) -> Limit:
        """This limit with ``spent`` seconds already used (the seconds left, never below
        zero): what a bot may still think once reading the observation and generating
        the candidates have taken their share of the time."""
        if self.seconds is None:
            return self
        return replace(self, seconds=max(0.0, self.seconds - spent))


def candidates(pos: Position, deadline: float | None = None) -> list[Move]:
    """The moves a bot chooses from: :meth:`Position.candidate_moves` (every legal move
    on a small table, a bounded selection on a crowded one).

    With a ``deadline`` (a ``time.perf_counter()`` value), a crowded table's moves are
    generated card by card, and once some move has been found the rest stop at the
    deadline (:func:`casino.engine.partition.deadline`): on a crowded table of some rulesets
    (Tablic's Aces that count 1 or 11, Krypkasino's largest compulsory capture) one
    card's moves can take a tenth of a second or more to find, and the time limit is
    the bot's. Until a move is found there is no deadline: a bot must move.
    """
    if deadline is None or is_small(pos) or pos.result is not None:
        return list(pos.candidate_moves().moves)
    moves: list[Move] = []
    for card in sorted(set(pos.hand(pos.to_move))):
        try:
            with time_limit(deadline if moves else None):
                moves.extend(pos.moves_of(card).moves)
        except OutOfTime:
            break
    return moves


class Bot(ABC):
    """A computer player. Subclasses implement :meth:`pick` on the observed position."""

    #: The ladder name (``random``, ``greedy``, ...).
    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: dict[str, Any] | Position, limit: Limit | None = None) -> Move:
        """A legal move for the seat to move in ``observation``.

        ``observation`` is ``Position.observation(seat)``; a Position is accepted only
        if it is itself an observation of the seat to move (as ``Position.observe``
        gives), so a bot never receives another seat's hidden cards.

        ``limit.seconds`` counts from this call: reading the observation and generating
        the candidates come out of the same time as the thinking.
        """
        start = time.perf_counter()
        pos = (observation if isinstance(observation, Position)
               else Position.from_json(observation))
        seat = pos.to_move
        for s, h in enumerate(pos.hands):
            if s != seat and not isinstance(h, int):
                raise ValueError("a bot must be given an observation: another seat's hand "
                                 f"(seat {s}) is visible")
        if not isinstance(pos.stock, int):
            raise ValueError("a bot must be given an observation: the stock is visible")
        return self.decide(pos, limit or Limit(), self.pick, start)

    def decide(self, pos: Position, limit: Limit,
               chooser: Callable[[Position, list[Move], Limit], Move],
               start: float | None = None) -> Move:
        """The move ``chooser`` picks among the candidate moves of ``pos``: a lone
        candidate is played without thinking, and whatever is chosen is checked to be
        legal. Shared by :meth:`choose` and the oracles' ``choose_full``.

        The candidates are :meth:`Position.candidate_moves`, not every legal move: on a
        small table they are the same list, on a crowded one (hundreds of thousands of
        legal moves) a bounded selection with the best capture of each value, found in
        polynomial work (milliseconds on a crowded Kasino table). The check is
        :meth:`Position.is_legal` for the same reason. ``chooser`` gets the time left of
        ``limit``, counted from ``start`` (a ``time.perf_counter()`` value; default:
        now) and less :data:`RESERVE`, and the candidates are cut short there
        (:func:`candidates`)."""
        if start is None:
            start = time.perf_counter()
        reserve = min(RESERVE, limit.seconds / 10) if limit.seconds is not None else 0.0
        moves = candidates(pos, limit.less(reserve).deadline(start))
        if not moves:
            raise ValueError("there is no move to choose: the round is over")
        if len(moves) == 1:
            return moves[0]
        move = chooser(pos, moves, limit.less(time.perf_counter() - start + reserve))
        if not pos.is_legal(move):
            raise AssertionError(f"{self.name} chose an illegal move {move}")
        return move

    @abstractmethod
    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """Choose among ``moves`` (the candidate moves of the observed position ``pos``:
        every legal move on a small table, a bounded selection on a crowded one)."""


class EvaluatingBot(Bot):
    """A bot whose search values positions with :mod:`casino.bots.evaluation`.

    The evaluation's constants are passed in, not read from module globals:
    ``eval_params`` (default :data:`~casino.bots.evaluation.DEFAULT_PARAMS`, the
    shipped values), so an experiment can make one bot think with other values
    while its opponent and any judge keep the shipped ones, in the same process.
    A subclass may also set ``eval_params`` as a class attribute.
    """

    eval_params: EvalParams = DEFAULT_PARAMS

    def __init__(self, seed: int | None = None, *,
                 eval_params: EvalParams | None = None) -> None:
        super().__init__(seed)
        if eval_params is not None:
            self.eval_params = eval_params
