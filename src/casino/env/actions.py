"""The action encoding: a fixed ``Discrete(ACTIONS)`` space over the engine's moves.

An action is ``card * SLOTS + slot``:

- ``card`` is the played card's id, 0 to 51 (``rank * 4 + suit``, ranks ``A 2 .. K``,
  suits ``s c h d``: :mod:`casino.engine.cards`). Both copies of a card in a two-deck
  game play alike, so one id names either.
- ``slot`` (0 to ``SLOTS - 1``) is the move's place among that card's kept moves in
  the canonical order below.

So ``ACTIONS = 52 * SLOTS = 3328`` whatever the ruleset, the players or the table.

**Which moves.** A card's moves are the engine's bounded move generation,
:meth:`Position.moves_of <casino.engine.position.Position.moves_of>` (through
:meth:`~casino.engine.position.Position.candidate_moves`): every legal move where
listing them is cheap (:func:`casino.engine.legality.is_small`), and on a more crowded
table the engine's bounded selection (the trail, the best capture of each value with
and without the builds of that value, the smallest and a large build, addition and
raise of each kind; docs/bounded.md). Work and size stay polynomial in the table.

**Canonical order.** Captures first, then new builds, additions, raises and the trail;
within a kind, the moves taking or using the most cards first, then the most worth
(:func:`casino.engine.legality.worth`), then the lower announced value, then the
loose cards and the builds (value, owner, cards) as sorted tuples. The key holds
everything that makes two moves different, so the order is total and does not depend
on the order of the table.

**When a card has more than SLOTS moves** (rare: seen on crowded small tables in
random play of Mulle with 4 players and Tablić with 3),
the trail is always kept (a card that may be trailed keeps that option), and the
other places are shared out kind by kind in turn (a capture, a build, an addition, a
raise, a capture, ...), each kind giving its moves in the canonical order: so each
kind the card has stays playable, and within a kind the moves taking the most cards
are kept. The kept moves are then numbered in the canonical order. The action mask
allows exactly the kept moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.legality import SMALL_TABLE, candidate_moves, listing, worth
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position

#: Places per card: the most moves of one card the encoding holds.
SLOTS = 64
#: Distinct card ids.
CARDS = 52
#: The size of the action space.
ACTIONS = CARDS * SLOTS

_KIND_ORDER = {CAPTURE: 0, BUILD: 1, ADD: 2, RAISE: 3, TRAIL: 4}
_SHARED = (CAPTURE, BUILD, ADD, RAISE)


#: Each card id's worth (:func:`casino.engine.legality.worth`), looked up: the key is
#: made for every move of every step.
_WORTH = tuple(worth(c) for c in range(CARDS))
_WORTH_OF = _WORTH.__getitem__


def canonical_key(move: Move) -> tuple[object, ...]:
    """The total order of one card's moves (see the module's docstring).

    The worths are summed here, not by a helper: the key is made for several moves of
    most steps, and a call is much of its cost."""
    loose = move.loose
    builds = move.builds
    try:
        w = sum(map(_WORTH_OF, loose))
        if builds:
            taken = len(loose)
            for b in builds:
                taken += len(b.cards)
                w += sum(map(_WORTH_OF, b.cards))
            return (_KIND_ORDER[move.kind], -taken, -w, move.value, loose,
                    tuple([(b.value, b.owner, b.cards) for b in builds]))
    except IndexError:  # not a card id (made-up moves in tests): worked out
        return _plain_key(move)
    return (_KIND_ORDER[move.kind], -len(loose), -w, move.value, loose, ())


def _plain_key(move: Move) -> tuple[object, ...]:
    """:func:`canonical_key` with every worth worked out."""
    cards = [*move.loose, *(c for b in move.builds for c in b.cards)]
    return (_KIND_ORDER[move.kind], -len(cards), -sum(map(worth, cards)), move.value,
            move.loose, tuple([(b.value, b.owner, b.cards) for b in move.builds]))


def keep(moves: Sequence[Move]) -> list[Move]:
    """One card's moves as the encoding numbers them: at most ``SLOTS``, in canonical
    order (the trail kept, the other places shared out kind by kind in turn)."""
    ordered = sorted(dict.fromkeys(moves), key=canonical_key)
    if len(ordered) <= SLOTS:
        return ordered
    kept = [m for m in ordered if m.kind == TRAIL]
    queues = [[m for m in ordered if m.kind == kind] for kind in _SHARED]
    while len(kept) < SLOTS:
        for q in queues:
            if q and len(kept) < SLOTS:
                kept.append(q.pop(0))
    return sorted(kept, key=canonical_key)


def action_table(pos: Position) -> dict[int, Move]:
    """Every allowed action of the player to move in ``pos``, with the move it plays.

    ``pos`` may be an observation (``Position.observe(seat)`` of the seat to move):
    only the mover's hand is read. Empty once the round is over. Kept with the
    position (:meth:`Position.memo`), so asking again is free."""
    return pos.memo("env.action_table", lambda: _table(pos))


def _table(pos: Position) -> dict[int, Move]:
    if pos.result is not None:
        return {}
    # legality.listing is what candidate_moves lists on a table where every move is
    # listed (nearly every table), without the copy into a MoveList; and on a table of
    # at most SMALL_TABLE items, so of as many loose cards at most, that is
    # pos.legal_moves(), asked without counting the loose cards first.
    moves: Sequence[Move] | None = (pos.legal_moves() if len(pos.table) <= SMALL_TABLE
                                    else listing(pos))
    complete = True
    if moves is None:
        listed = candidate_moves(pos)  # Position.candidate_moves, without its import
        moves, complete = listed.moves, listed.complete
    by_card: dict[int, list[Move]] = {}
    for m in moves:
        got = by_card.get(m.card)
        if got is None:
            by_card[m.card] = [m]
        else:
            got.append(m)
    out: dict[int, Move] = {}
    for card in sorted(by_card):
        ordered = by_card[card]
        base = card * SLOTS
        if len(ordered) == 1:
            out[base] = ordered[0]
            continue
        # A complete list is every legal move once (Position.legal_moves): nothing to
        # drop, and at most SLOTS of them need only the sort, or not even that when
        # no two share a kind and the kinds come in order (a capture and the trail, the
        # commonest pair): the kind decides the canonical order first.
        if complete and len(ordered) <= SLOTS:
            if not _kinds_in_order(ordered):
                ordered.sort(key=canonical_key)
        else:
            ordered = keep(ordered)
        for slot, m in enumerate(ordered):
            out[base + slot] = m
    return out


def _kinds_in_order(moves: list[Move]) -> bool:
    """Whether each move's kind comes strictly after the one before in the canonical
    order (so the moves are in canonical order whatever else their keys hold)."""
    rank = _KIND_ORDER
    last = -1
    for m in moves:
        r = rank[m.kind]
        if r <= last:
            return False
        last = r
    return True


def describe(action: int) -> str:
    """``card 37 (Td), slot 2``: an action in words, for error messages."""
    from casino.engine.cards import card_text

    card, slot = divmod(action, SLOTS)
    if not 0 <= card < CARDS:
        return f"action {action} (outside 0..{ACTIONS - 1})"
    return f"action {action} (card {card_text(card)}, slot {slot})"
