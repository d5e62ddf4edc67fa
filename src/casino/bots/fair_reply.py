"""``fair-reply``: the card counter whose guessed opponent cannot see the bot's hand.

:class:`~casino.bots.expert.ExpertBot` searches two plies in each sample, its move
and the reply that is worst for it. But in a sample the opponent's best reply is
chosen knowing the sample's whole deal, the bot's own hand included: it never
leaves a card the bot can capture, never walks into a build the bot holds the card
for. A real opponent cannot see the bot's hand, so such a search undervalues the
moves that set a trap the opponent cannot know of.

Here the replier chooses by what it can see: each reply is scored by the
evaluation of the position as the replier observes it
(:meth:`~casino.engine.position.Position.observe`: the bot's hand and the stock as
counts, so the evaluation takes the expectation over what the bot may hold), the
one worst for the bot in that view is taken, and the value the bot keeps is the
sample's true one after that reply. Everything else, the last deal solved exactly
included, is ``expert``'s.

It is the ``expert`` level on Krypkasino (two players, forced sweeps) only. With
24 guesses, as ``hard`` weighs with two decks, it beat ``hard`` in 400 Krypkasino
games (56.5% [51.6%, 61.3%]), which ``pimc`` did not, and was level with ``pimc``
there (48.5% of 400), at a third of its p95 think time. The edge is small: against
``medium`` it won 52.5% of 400, and with six guesses it gains nothing. It gained
nothing in 400 Mulle games either (48.8% against ``hard``). An earlier form of the
idea in ``pimc`` (searching only the replies that look best without the hand)
measured no gain on the one-deck house rules (research/bots-log.md, "An opponent who cannot see the
hand").
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.bots.expert import MAX_INNER, ExpertBot
from casino.bots.solver import LEAF_CACHE_SIZE, Evaluator, Searcher, game_value
from casino.engine.moves import Move
from casino.engine.position import Position


class FairReplySearcher(Searcher):
    """A two-ply :class:`Searcher` whose second ply is the opponent's *fair* reply.

    Deeper searches, partnerships and more than two seats are searched as usual:
    only a root move followed by one opponent reply in the same deal is changed.
    """

    def __init__(self, seat: int, *, evaluate: Evaluator, deadline: float | None = None,
                 max_moves: int | None = None) -> None:
        super().__init__(seat, horizon="deal", evaluate=evaluate, terminal=game_value,
                         deadline=deadline, max_moves=max_moves)
        #: Evaluations of the replier's views, as :attr:`leaves` for the true ones.
        self.views: dict[Position, float] = {}

    def view_value(self, pos: Position, replier: int) -> float:
        """The value for the bot of ``pos`` as ``replier`` sees it: the bot's hand and
        the stock hidden, unless the bot's hand is empty (nothing left to hide but the
        stock, whose next packet the evaluation does not use) or the round is over."""
        if pos.result is not None:
            return self.terminal(pos, self.seat)
        if not pos.hand_size(self.seat):
            return self._evaluate(pos)
        seen = pos.observe(replier)
        v = self.views.get(seen)
        if v is None:
            self._tick()
            if len(self.views) >= LEAF_CACHE_SIZE:
                self.views.clear()
            v = self.views[seen] = self.evaluate(seen, self.seat)
        return v

    def fair_reply(self, pos: Position) -> Move:
        """The reply the opponent to move in ``pos`` chooses from what it sees: the one
        its view values worst for the bot (the first such in search order)."""
        self._tick()
        replier = pos.to_move
        best_view, chosen = float("inf"), None
        for reply in self._moves(pos, None):
            view = self.view_value(pos.successor(reply), replier)
            if view < best_view:
                best_view, chosen = view, reply
        if chosen is None:
            raise ValueError("the player to move has no move")
        return chosen

    def fair_value(self, pos: Position) -> float:
        """The bot's true value of ``pos`` (the opponent to move) after
        :meth:`fair_reply`."""
        child = pos.successor(self.fair_reply(pos))
        return self.alphabeta(child, 0, float("-inf"), float("inf"))

    def values(self, pos: Position, moves: Sequence[Move], depth: int = 2,
               cap: float | None = None, order: Sequence[int] | None = None) -> list[float]:
        """Two plies at two players: each reply chosen by what the replier can see
        (:meth:`fair_value`), valued on the sample's true deal; any other search is the
        plain searcher's."""
        if depth != 2 or pos.rules.players != 2 or cap is not None:
            return super().values(pos, moves, depth, cap, order)
        self._prepare(pos)
        out = []
        for m in moves:
            succ = pos.successor(m)
            if succ.result is not None or succ.deal != pos.deal or succ.to_move == self.seat:
                out.append(self.alphabeta(succ, 1, float("-inf"), float("inf")))
            else:
                out.append(self.fair_value(succ))
        return out


class FairReplyBot(ExpertBot):
    """``expert`` whose guessed opponent replies without seeing the bot's hand (see the
    module's notes): the ``expert`` level on Krypkasino."""
    name = "fair-reply"

    def searcher(self, seat: int, evaluate: Evaluator, deadline: float) -> Searcher:
        """Each sample's search, with the fair reply."""
        return FairReplySearcher(seat, evaluate=evaluate, deadline=deadline,
                                 max_moves=MAX_INNER)


__all__ = ["FairReplyBot", "FairReplySearcher"]
