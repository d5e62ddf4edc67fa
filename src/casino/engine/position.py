"""The immutable Position: legal moves, playing a move, and the round's phases.

A position is a value: ``play`` returns a new one and leaves the old one as it
was, so a front end can keep history for undo and a bot can search freely.
``play`` also carries the round forward (docs/rules.md §2.2, §2.6, §3): when every
hand is empty it deals the next deal from the stock (setting picture cards
aside first where the ruleset says so); after the last card it gives the
leftovers to the last capturer and scores the round.

Hidden parts (another seat's hand, the stock) may be unknown, as in an
observation: they are then held as counts. Such a position still lists the
legal moves of a seat whose hand is known, and plays them until it would need
a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from casino.engine.builds import Build, mark_twins
from casino.engine.cards import JACK, remove_cards
from casino.engine.core import generate
from casino.engine.errors import CasinoError, IllegalMove
from casino.engine.movegen import Budget, TooMuchWork
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.rules import Rules
from casino.engine.scoring import Carry, Result, next_carry, round_items, settle

if TYPE_CHECKING:
    from casino.engine.legality import CardOptions, MoveList

TableItem = int | Build
Hand = tuple[int, ...] | int


class HiddenInformation(CasinoError):
    """The position lacks a hidden card it needs (an unknown hand or stock)."""


T = TypeVar("T")
_MISSING = object()


@dataclass(frozen=True, eq=False)
class Position:
    """Everything needed to go on playing a round (docs/position.md).

    ``hands[s]`` and ``stock`` are sorted tuples of card ids, or an int count
    where hidden. ``table`` holds loose cards (ints) and :class:`Build` values
    in table order; equality ignores table order and pile order, which no rule
    reads, but not the order of the stock.
    """

    rules: Rules
    round: int
    deal: int
    dealer: int
    to_move: int
    hands: tuple[Hand, ...]
    table: tuple[TableItem, ...]
    piles: tuple[tuple[int, ...], ...]
    sweeps: tuple[int, ...] = ()
    last_capture: int | None = None
    stock: tuple[int, ...] | int = ()
    set_aside: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    result: Result | None = None
    #: Finnish Kasino: tied majority points carried into this round.
    carry: Carry = field(default_factory=Carry)
    #: Mulle: the seats that made each mulle this round, in order.
    mulles: tuple[int, ...] = ()
    #: What is derived from the position, computed once (see :meth:`memo`). Not an
    #: argument: ``dataclasses.replace`` gives the new position an empty one.
    _cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False,
                                   repr=False)

    def __post_init__(self) -> None:
        # Only two decks can hold two builds that differ by owner alone; they are
        # marked so that every move's text names one of them (Build.owner_shown).
        if self.rules.decks > 1:
            object.__setattr__(self, "table", mark_twins(self.table))

    def memo(self, key: str, make: Callable[[], T]) -> T:
        """``make()``, computed once per position and key.

        A position never changes, so anything derived from it (its legal moves, a
        bot's table analysis) can be kept with it; code outside the engine keeps
        its own derived values here under its own keys."""
        got = self._cache.get(key, _MISSING)
        if got is _MISSING:
            got = self._cache[key] = make()
        return got  # type: ignore[no-any-return]

    # ------------------------------------------------------------------
    # Identity

    def _key(self) -> tuple[Any, ...]:
        k = self._cache.get("key")
        if k is None:
            loose = tuple(sorted(c for c in self.table if isinstance(c, int)))
            builds = tuple(sorted(b for b in self.table if isinstance(b, Build)))
            k = (
                self.rules, self.round, self.deal, self.dealer, self.to_move,
                tuple(h if isinstance(h, int) else tuple(sorted(h)) for h in self.hands),
                loose, builds,
                tuple(tuple(sorted(p)) for p in self.piles),
                self.sweeps, self.last_capture, self.stock,
                tuple(sorted(self.set_aside)), self.scores, self.result,
                self.carry, self.mulles,
            )
            self._cache["key"] = k
        return k

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # ------------------------------------------------------------------
    # Views

    @property
    def loose(self) -> tuple[int, ...]:
        """The loose cards on the table, in table order."""
        return tuple(c for c in self.table if isinstance(c, int))

    @property
    def builds(self) -> tuple[Build, ...]:
        """The builds on the table, in table order (the loose cards left out)."""
        return tuple(b for b in self.table if isinstance(b, Build))

    @property
    def is_over(self) -> bool:
        """The round has been played out and scored."""
        return self.result is not None

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds; HiddenInformation where this position (an observation)
        shows only their number."""
        h = self.hands[seat]
        if isinstance(h, int):
            raise HiddenInformation(f"seat {seat}'s hand is hidden in this position")
        return h

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds, hidden or not."""
        h = self.hands[seat]
        return h if isinstance(h, int) else len(h)

    @property
    def stock_size(self) -> int:
        """How many cards are left to deal, hidden or not."""
        return self.stock if isinstance(self.stock, int) else len(self.stock)

    @property
    def is_last_deal(self) -> bool:
        """Whether the stock is out: the hands now hold the round's last cards."""
        return self.stock_size == 0

    # ------------------------------------------------------------------
    # Moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, each once (empty once the round is over).

        Its cost grows exponentially with the loose cards on the table (a crowded
        Finnish Kasino table has hundreds of thousands of moves): fine for small
        positions, tests and tools. Questions about a move or a card are answered
        without it by :meth:`is_legal`, :meth:`parse_move`, :meth:`card_options`,
        :meth:`moves_of` and :meth:`candidate_moves`."""
        moves = self._cache.get("moves")
        if moves is None:
            moves = [] if self.result is not None else self._generate(None)
            self._cache["moves"] = moves
        return list(moves)

    def moves_within(self, steps: int) -> list[Move] | None:
        """Every legal move, as :meth:`legal_moves` lists them, when the enumeration
        finishes within ``steps`` steps (:class:`casino.engine.movegen.Budget`); else
        ``None``. At most about twice ``steps`` is spent, whatever the table, and the
        answer is kept: a listing found here is the one :meth:`legal_moves` returns."""
        moves = self._cache.get("moves")
        if moves is not None:
            return list(moves)
        if self._cache.get("over_steps", -1) >= steps:
            return None
        if self.result is not None:
            return self.legal_moves()
        try:
            moves = self._generate(Budget(steps))
        except TooMuchWork:
            self._cache["over_steps"] = steps
            return None
        self._cache["moves"] = moves
        return list(moves)

    def _generate(self, budget: Budget | None) -> list[Move]:
        return generate(self.rules, self.hand(self.to_move), self.loose, self.builds,
                        self.to_move, budget)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal, checked on its own (polynomial in the table)."""
        return isinstance(move, Move) and self._listed(move) is not None

    def _listed(self, move: Move) -> Move | None:
        """The legal move equal to ``move``: looked up when the moves were listed already
        (search code lists them first), else checked on its own."""
        if "moves" in self._cache:
            table = self.memo("move_set", lambda: {m: m for m in self._cache["moves"]})
            return table.get(move)
        from casino.engine.legality import find

        return find(self, move)

    def card_options(self, card: int) -> CardOptions:
        """What ``card`` in the mover's hand can do: trail, the values it can capture, the
        values a new build may announce, the builds it can join or raise."""
        from casino.engine.legality import card_options

        return card_options(self, card)

    def moves_of(self, card: int) -> MoveList:
        """Legal moves of ``card``, ranked: all of them when the table is small
        (``complete``), else a bounded selection (the best capture of each value,
        the smallest and largest build of each kind)."""
        from casino.engine.legality import moves_of

        return moves_of(self, card)

    def candidate_moves(self) -> MoveList:
        """:meth:`moves_of` for every card in hand: what bots and hints choose from."""
        from casino.engine.legality import candidate_moves

        return candidate_moves(self)

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names; :class:`IllegalMove` saying why otherwise."""
        from casino.engine.explain import resolve

        return resolve(self, text)

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a Move or its text); this one is unchanged."""
        if isinstance(move, str):
            move = self.parse_move(move)
        legal = self._listed(move) if isinstance(move, Move) else None
        if legal is None:
            from casino.engine.explain import why_illegal

            raise IllegalMove(why_illegal(self, move))
        return self._apply(move if _same_cards(move, legal) else legal)

    def successor(self, move: Move) -> Position:
        """The position after ``move`` without checking that it is legal.

        For search code that takes its moves from :meth:`legal_moves` of this very
        position and plays millions of them; anything else should call :meth:`play`.
        """
        return self._apply(move)

    def _apply(self, move: Move) -> Position:
        rules = self.rules
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] = remove_cards(self.hand(seat), (move.card,))
        table = list(self.table)
        piles = list(self.piles)
        sweeps = self.sweeps
        mulles = self.mulles
        last_capture = self.last_capture
        put_on_table(table, move, seat)
        if move.kind == CAPTURE:
            taken = list(move.loose)
            for b in move.builds:
                taken.extend(b.cards)
            piles[seat] = piles[seat] + (move.card, *taken)
            last_capture = seat
            if not table and sweep_counts(self, ends_round=self.stock_size == 0
                                          and not any(_size(h) for h in hands)):
                sweeps = sweeps + ((seat, seat) if double_sweep(self, move) else (seat,))
            if (rules.mulle_points and not move.builds and move.loose == (move.card,)):
                mulles = (*mulles, seat)
        return self._advance(hands, table, piles, sweeps, mulles, last_capture)

    def _advance(self, hands: list[Hand], table: list[TableItem], piles: list[tuple[int, ...]],
                 sweeps: tuple[int, ...], mulles: tuple[int, ...],
                 last_capture: int | None) -> Position:
        seat = next_with_cards(self.rules, self.to_move, [_size(h) for h in hands])
        if seat is not None:
            return self._with(hands, table, piles, sweeps, mulles, last_capture,
                              to_move=seat)
        # Every hand is empty: the next deal, or the end of the round.
        if self.stock_size:
            return self._next_deal(hands, table, piles, sweeps, mulles, last_capture)
        return self._end_round(table, piles, sweeps, mulles, last_capture)

    def _with(self, hands: Sequence[Hand], table: Sequence[TableItem],
              piles: Sequence[tuple[int, ...]], sweeps: tuple[int, ...],
              mulles: tuple[int, ...], last_capture: int | None, **changes: Any) -> Position:
        values: dict[str, Any] = dict(
            rules=self.rules, round=self.round, deal=self.deal, dealer=self.dealer,
            to_move=self.to_move, hands=tuple(hands), table=tuple(table),
            piles=tuple(piles), sweeps=sweeps, last_capture=last_capture,
            stock=self.stock, set_aside=self.set_aside, scores=self.scores,
            result=None, carry=self.carry, mulles=mulles,
        )
        values.update(changes)
        return Position(**values)

    def _next_deal(self, hands: list[Hand], table: list[TableItem],
                   piles: list[tuple[int, ...]], sweeps: tuple[int, ...],
                   mulles: tuple[int, ...], last_capture: int | None) -> Position:
        if isinstance(self.stock, int):
            raise HiddenInformation("the next deal comes from the stock, which is hidden here")
        rules = self.rules
        set_aside = self.set_aside
        if rules.set_aside_pictures:
            table, pictures = set_aside_pictures(table)
            set_aside = set_aside + pictures
        new_hands, stock = deal_packets(rules, self.dealer, self.stock, rules.deal_size)
        leader = first_with_cards(rules, self.dealer, new_hands)
        return self._with(new_hands, table, piles, sweeps, mulles, last_capture,
                          deal=self.deal + 1, stock=stock, set_aside=set_aside,
                          to_move=leader)

    def _end_round(self, table: list[TableItem], piles: list[tuple[int, ...]],
                   sweeps: tuple[int, ...], mulles: tuple[int, ...],
                   last_capture: int | None) -> Position:
        rules = self.rules
        if any(isinstance(item, Build) for item in table):
            raise AssertionError("a build survived the round: the ownership rule was broken")
        taker = leftovers_taker(self, last_capture)
        set_aside = self.set_aside
        if taker is not None:
            rest = tuple(c for c in table if isinstance(c, int)) + set_aside
            piles[taker] = piles[taker] + rest
            table = []
            set_aside = ()
        items = round_items(rules, piles, sweeps, mulles, last_capture, self.carry)
        result = settle(rules, items, self.scores, self.round)
        return self._with(
            tuple(() for _ in range(rules.players)), table, piles, sweeps, mulles,
            last_capture, to_move=rules.next_seat(self.to_move), set_aside=set_aside,
            result=result,
        )

    def next_carry(self) -> Carry:
        """Finnish Kasino: what this finished round carries into the next."""
        if self.result is None:
            raise ValueError("the round is not over")
        return next_carry(self.rules, self.piles, self.carry)

    # ------------------------------------------------------------------
    # JSON (docs/position.md)

    def to_json(self) -> dict[str, Any]:
        """The ``casino-position/1`` JSON form, every card shown (:meth:`observation` hides
        what a seat may not see)."""
        from casino.engine.codec import position_to_json

        return position_to_json(self)

    @staticmethod
    def from_json(obj: Any) -> Position:
        """The position of a ``casino-position/1`` object or text; InvalidPosition says
        which field is wrong and why."""
        from casino.engine.codec import position_from_json

        return position_from_json(obj)

    def observation(self, seat: int) -> dict[str, Any]:
        """The JSON form with what ``seat`` may not see hidden: other hands and the stock."""
        from casino.engine.codec import observation_json

        return observation_json(self, seat)

    def seen_hands(self, seat: int | None) -> tuple[Hand, ...]:
        """The hands as ``seat`` sees them: its own cards, every other hand as a count
        (``None``, a spectator: every hand). The one place that decides it, for
        :meth:`observe`, :meth:`observe_public` and the writers that work from the whole
        position (the JSON of an observation, the research environment's array)."""
        return tuple(h if s == seat else _size(h) for s, h in enumerate(self.hands))

    def observe(self, seat: int) -> Position:
        """The observation of ``seat`` as a Position (hidden parts held as counts)."""
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat} is not a seat of this {self.rules.players}-player game")
        return self._with(self.seen_hands(seat), self.table, self.piles, self.sweeps, self.mulles,
                          self.last_capture, stock=self.stock_size, result=self.result)

    def observe_public(self) -> Position:
        """What a spectator, who holds no seat, may see (docs/server.md, "Spectators"): the
        table, the piles (each card was shown as it was taken), the scores; every hand and
        the stock as counts."""
        return self._with(self.seen_hands(None), self.table, self.piles, self.sweeps,
                          self.mulles, self.last_capture, stock=self.stock_size,
                          result=self.result)

    def __str__(self) -> str:
        from casino.engine.render import render_position

        return render_position(self)

    def __repr__(self) -> str:
        return f"Position.from_json({self.to_json()!r})"

    # ------------------------------------------------------------------
    # A round's first deal (used by Match; the position itself never shuffles)

    @staticmethod
    def start_round(rules: Rules, deck: Sequence[int], dealer: int, *, round: int = 1,
                    scores: Sequence[int] | None = None, carry: Carry | None = None) -> Position:
        """The position after the first deal of a round from ``deck`` (top first)."""
        if len(deck) != rules.deck_size:
            raise ValueError(f"a {rules.name} deck has {rules.deck_size} cards, not {len(deck)}")
        hands, table, stock = first_deal(rules, dealer, tuple(deck))
        set_aside: tuple[int, ...] = ()
        if rules.set_aside_pictures:
            table_items, set_aside = set_aside_pictures(list(table))
            table = tuple(c for c in table_items if isinstance(c, int))
        leader = first_with_cards(rules, dealer, hands)
        return Position(
            rules=rules, round=round, deal=1, dealer=dealer, to_move=leader,
            hands=tuple(hands), table=tuple(table),
            piles=tuple(() for _ in range(rules.players)), stock=stock,
            set_aside=set_aside,
            scores=tuple(scores) if scores is not None else (0,) * rules.players,
            carry=carry or Carry(),
        )


def double_sweep(pos: Position, move: Move) -> bool:
    """Whether ``move``, a sweep, counts twice: Krypkasino's pairing of the table's
    lone card (docs/rules.md K4), one place for the engine and the bots' forecasts."""
    return twin_sweep(pos.rules, pos.loose, pos.builds, move.card)


def twin_sweep(rules: Rules, loose: Sequence[int], builds: Sequence[Build], card: int
               ) -> bool:
    """Whether ``card`` sweeping a table of these ``loose`` cards and ``builds`` is a
    double sweep (K4): the table's one card, a loose one, taken by its identical twin.
    For code that weighs a card against a table rather than a listed move."""
    return rules.double_sweep and not builds and len(loose) == 1 and loose[0] == card


def leftovers_taker(pos: Position, last_capture: int | None) -> int | None:
    """Who takes the cards left on the table at the round's end: the last capturer,
    else the dealer where the rules say so (else nobody)."""
    if last_capture is None and pos.rules.leftovers_no_capture == "dealer":
        return pos.dealer
    return last_capture


def _same_cards(move: Move, legal: Move) -> bool:
    """Whether ``move``'s own groups hold the cards of ``legal``'s split, so that they can
    be kept as the player wrote them (any split of a legal move is as good)."""
    def flat(m: Move) -> list[int]:
        return sorted(c for g in m.groups for c in g)
    if flat(move) != flat(legal) or len(move.groups) != len(legal.groups):
        return False
    if move.kind in (BUILD, ADD) and move.groups and move.card not in move.groups[0]:
        return False
    return not (move.kind == RAISE and move.groups and move.groups[0] != (move.card,))


def put_on_table(table: list[TableItem], move: Move, seat: int) -> None:
    """Change ``table`` (loose cards and builds, in table order) as ``move`` of ``seat``
    does: the one place the table after a move is made, for play and for the bots'
    look-ahead alike."""
    for c in move.loose:
        table.remove(c)
    if move.kind == TRAIL:
        table.append(move.card)
    elif move.kind == CAPTURE:
        for b in move.builds:
            table.remove(b)
    elif move.kind == BUILD:
        table.append(Build.make(move.value, seat, move.groups))
    else:
        target = move.builds[0]
        table[table.index(target)] = build_after(target, move, seat)


def table_after(pos: Position, move: Move) -> tuple[tuple[int, ...], tuple[Build, ...]]:
    """The loose cards and builds after ``move``, without dealing or scoring (so it works
    on observations, where the stock is hidden)."""
    table = list(pos.table)
    put_on_table(table, move, pos.to_move)
    return (tuple(c for c in table if isinstance(c, int)),
            tuple(b for b in table if isinstance(b, Build)))


def sweep_counts(pos: Position, *, ends_round: bool = False) -> bool:
    """Whether a capture clearing the table on the next move of ``pos`` is a sweep
    (docs/rules.md §2.6, §4, F2): not in Finnish Kasino's last deal nor past its score
    limit, and not with the round's last card where the rules say so (``ends_round``:
    the move is the round's last)."""
    rules = pos.rules
    last_deal = pos.stock_size == 0
    if rules.no_sweep_last_deal and last_deal:
        return False
    if rules.sweep_limit is not None and any(s > rules.sweep_limit for s in pos.scores):
        return False
    return not (ends_round and not rules.last_card_sweep)


def build_after(target: Build, move: Move, seat: int) -> Build:
    """The build ``target`` once ``move`` (an add or a raise, docs/rules.md §2.4) has
    changed it: the adder owns it; an added group joins as it is; a raise puts the played
    card into the single group, and loose groups of the new value join whole."""
    if move.kind == ADD:
        groups = target.groups + move.groups
    else:
        groups = ((*target.groups[0], move.card), *move.groups[1:])
    return Build.make(move.value, seat, groups)


def _size(h: Hand) -> int:
    return h if isinstance(h, int) else len(h)


def first_with_cards(rules: Rules, dealer: int, hands: Sequence[Hand]) -> int:
    """The seat after the dealer leads each deal (docs/rules.md §2.2, §4, §5); skip
    empty hands."""
    seat = next_with_cards(rules, dealer, [_size(h) for h in hands])
    return rules.next_seat(dealer) if seat is None else seat


def next_with_cards(rules: Rules, seat: int, sizes: Sequence[int]) -> int | None:
    """The first seat after ``seat`` in playing order (``seat`` itself last) whose hand
    of ``sizes[s]`` cards is not empty, or None when every hand is: who moves next in a
    deal, and who leads the next one (the engine's and the bots' forecasts' one rule)."""
    return next((s for s in rules.playing_order(rules.next_seat(seat)) if sizes[s]), None)


def seat_order(rules: Rules, dealer: int) -> list[int]:
    """Seats in dealing order: the seat after the dealer first, the dealer last."""
    return list(rules.playing_order(rules.next_seat(dealer)))


def deal_packets(rules: Rules, dealer: int, stock: tuple[int, ...],
                 size: int) -> tuple[list[Hand], tuple[int, ...]]:
    """A later deal (docs/rules.md §2.2): packets of 2 from the top, starting after the dealer and
    going round until each hand holds ``size`` cards or the stock runs out."""
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    pos = 0
    order = seat_order(rules, dealer)
    while pos < len(stock) and any(len(hands[s]) < size for s in order):
        for s in order:
            need = size - len(hands[s])
            if need <= 0 or pos >= len(stock):
                continue
            k = min(2, need, len(stock) - pos)
            hands[s].extend(stock[pos:pos + k])
            pos += k
    return [tuple(sorted(h)) for h in hands], stock[pos:]


def first_deal(rules: Rules, dealer: int,
               deck: tuple[int, ...]) -> tuple[list[Hand], tuple[int, ...], tuple[int, ...]]:
    """The first deal in packets of 2 (docs/rules.md §2.2, §4, §5, §9.8): ``dealer-last``
    deals to the others, then the table, then the dealer; ``table-last`` to every player,
    then the table."""
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    table: list[int] = []
    order = seat_order(rules, dealer)
    if rules.first_deal == "dealer-last":
        turns: list[int | None] = [*order[:-1], None, order[-1]]
    else:
        turns = [*order, None]
    pos = 0
    while any(len(hands[s]) < rules.first_hand for s in order) or len(table) < rules.first_table:
        for who in turns:
            have = len(table) if who is None else len(hands[who])
            want = rules.first_table if who is None else rules.first_hand
            k = min(2, want - have)
            if k <= 0:
                continue
            packet = deck[pos:pos + k]
            pos += k
            (table if who is None else hands[who]).extend(packet)
    return [tuple(sorted(h)) for h in hands], tuple(table), deck[pos:]


def set_aside_pictures(table: list[TableItem]) -> tuple[list[TableItem], tuple[int, ...]]:
    """Krypkasino (docs/rules.md §3.3, K5): every J, Q and K lying loose on the table is
    set aside."""
    keep: list[TableItem] = []
    out: list[int] = []
    for item in table:
        if isinstance(item, int) and item >> 2 >= JACK:
            out.append(item)
        else:
            keep.append(item)
    return keep, tuple(out)
