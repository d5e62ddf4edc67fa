"""The pieces of the terminal game's screen: card faces, builds, seats, scores, the log.

Each widget draws values it is handed (cards, builds, a :class:`~casino.engine.position.Position`
seen by the person) and knows nothing of the session, so the game screen
decides what is shown and these only decide how it looks. Text is built as
:class:`~textual.content.Content`, never as markup: move notation has square
brackets that markup would swallow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rich.cells import cell_len
from textual import events
from textual.app import RenderResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from casino.engine.builds import Build
from casino.engine.cards import SUIT_SYMBOLS, card_symbol
from casino.engine.match import shuffle_words
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import scheme
from casino.i18n import _, ngettext, pgettext
from casino.play.session import Entry
from casino.play.standing import Unseen, round_so_far
from casino.words.narrate import Tally, move_phrase

#: Keys that pick table items: letters, leaving out those bound to commands (q, s, u).
TABLE_KEYS = "abcdefghijklmnoprtvwxyz"
#: Keys that pick hand cards.
HAND_KEYS = "123456789"

CARD_WIDTH = 7  # a card face with its frame; CSS gives the same numbers
CARD_GAP = 1


def is_red(card: int) -> bool:
    """Hearts and diamonds are drawn red."""
    return card & 3 in (2, 3)


def card_style(card: int, *, on_dark: bool = False) -> str:
    """Red or black ink; on the dark panels black suits are drawn light to stay visible."""
    if on_dark:
        return "bold #ff7b7b" if is_red(card) else "bold #e8e8e8"
    return "bold #c4122f" if is_red(card) else "bold #111111"


def card_label(card: int, *, on_dark: bool = False) -> Content:
    """``10♦`` in its suit's colour."""
    return Content.styled(card_symbol(card), card_style(card, on_dark=on_dark))


def cards_label(cards: Sequence[int], sep: str = " ", *, on_dark: bool = False) -> Content:
    """Several cards in their colours: ``9♣ 4♦``."""
    return Content(sep).join(card_label(c, on_dark=on_dark) for c in cards)


def group_label(group: Sequence[int]) -> Content:
    """A group of table cards as a sum: ``4♣+5♥``."""
    return cards_label(group, "+")


def option_words(move: Move) -> str:
    """A legal move in a few words, as the option list shows it.

    ``capture 9♣ and 4♣+5♥``, ``build 8``, ``raise the 5-build to 8``, ``trail 7♥``:
    the short form of :func:`casino.words.narrate.move_phrase`, whose switch also
    makes the log's full sentences, so both name the same cards the same way.
    """
    return move_phrase(move, short=True)


class ItemClicked(Message):
    """A card of the hand or an item of the table was clicked."""

    def __init__(self, zone: str, index: int) -> None:
        self.zone = zone
        self.index = index
        super().__init__()


class CardFace(Widget):
    """One card drawn as a small face: rank and suit in the corners, the suit in the middle.

    ``zone`` and ``index`` say where it lies, so a click can name it.
    """

    def __init__(self, card: int, zone: str, index: int, key: str = "") -> None:
        super().__init__(classes="red" if is_red(card) else "black")
        self.card = card
        self.zone = zone
        self.index = index
        self.border_title = key

    def render(self) -> RenderResult:
        """Rank and suit in the top left corner, the suit in the middle, rank and suit in
        the bottom right, as a printed card has them."""
        sym = card_symbol(self.card)
        suit = SUIT_SYMBOLS[self.card & 3]
        inner = CARD_WIDTH - 2
        lines = [sym.ljust(inner), suit.center(inner), sym.rjust(inner)]
        return Content.styled("\n".join(lines), card_style(self.card))

    def on_click(self, event: events.Click) -> None:
        """A click names the card by its zone and place: the screen treats it as the card's
        key."""
        event.stop()
        self.post_message(ItemClicked(self.zone, self.index))


class BuildStack(Widget):
    """A build drawn as a framed stack: its value on top, each group of cards below,
    the owner on the frame, and the pick letter in the frame's title."""

    def __init__(self, build: Build, index: int, key: str, owner: str, mine: bool) -> None:
        super().__init__(classes="mine" if mine else "theirs")
        self.build = build
        self.zone = "table"
        self.index = index
        self.border_title = key
        self.border_subtitle = owner
        self.lines = self._lines()
        width = max(*(len(s.plain) for s in self.lines), len(owner) + 2)
        self.styles.width = max(width + 4, CARD_WIDTH + 2)
        self.styles.height = len(self.lines) + 2

    def _lines(self) -> list[Content]:
        b = self.build
        head = (_("multiple build %(value)s") if b.multiple else _("build %(value)s")) % {
            "value": b.value}
        return [Content.styled(head, "bold #1b1b1b"), *(group_label(g) for g in b.groups)]

    @property
    def cell_width(self) -> int:
        """The columns the stack takes in a table row (its width, set from its widest line)."""
        width = self.styles.width
        return int(width.value) if width is not None else CARD_WIDTH

    def render(self) -> RenderResult:
        """The build's head (its value, and ``multiple``) over its groups."""
        return Content("\n").join(self.lines)

    def on_click(self, event: events.Click) -> None:
        """A click names the build by its place on the table, as its key would."""
        event.stop()
        self.post_message(ItemClicked(self.zone, self.index))


class TableArea(VerticalScroll):
    """The table's felt: its items flow in rows, so it says when its width changes."""

    class WidthChanged(Message):
        """The table's width changed: its rows must be laid out again."""

    def on_resize(self, event: events.Resize) -> None:
        """Say that the width changed: the items' rows depend on it, and only the screen
        lays them out."""
        self.post_message(self.WidthChanged())


def table_rows(widgets: Sequence[Widget], width: int) -> list[Horizontal]:
    """The table's items laid out left to right in rows no wider than ``width``."""
    rows: list[list[Widget]] = [[]]
    used = 0
    for w in widgets:
        w_width = w.cell_width if isinstance(w, BuildStack) else CARD_WIDTH
        if rows[-1] and used + w_width > width:
            rows.append([])
            used = 0
        rows[-1].append(w)
        used += w_width + CARD_GAP
    return [Horizontal(*row, classes="table-row") for row in rows if row]


def card_backs(count: int, words: str) -> Content:
    """A hand seen from across the table: a card back (▮) per card, then ``words``."""
    return Content.assemble(("▮" * count, "#6b9be0"), words)


def pile_words(t: Tally) -> str:
    """``pile 12 · 3♠ · 2 sweeps``: what a seat has captured, on one line of its box."""
    line = _("pile %(cards)s · %(spades)s♠") % {"cards": t.cards, "spades": t.spades}
    if t.sweeps:
        line += " · " + ngettext("%(n)s sweep", "%(n)s sweeps", t.sweeps) % {"n": t.sweeps}
    return line


class SeatBox(Static):
    """One seat's box, drawn the same way by the game (:class:`SeatPanel`) and the replay
    viewer (``viewer.SeatView``): the seat's name on the frame, marked ▶ and styled
    ``to-move`` on its turn; what the seat is, and ``dealer``, under it; then its hand,
    its pile and whatever more the screen shows. The subclasses decide only what the
    hand line says and what the seat is called (``you``, ``partner``, a computer's
    level), so the two screens cannot drift apart in how a seat looks."""

    def __init__(self, seat: int, *, classes: str = "") -> None:
        super().__init__(classes=classes)
        self.seat = seat

    def draw(self, pos: Position, name: str, role: str, hand: Content, tally: Tally,
             *more: Content) -> None:
        """Show the seat in ``pos`` (the position as this screen may show it)."""
        seat = self.seat
        turn = pos.result is None and pos.to_move == seat
        # The turn marker and the deal go on the frame, so the box keeps its height.
        self.border_title = f"▶ {name}" if turn else name
        self.border_subtitle = " · ".join(w for w in (role, _("dealer") if pos.dealer == seat
                                                      else "") if w)
        self.set_class(turn, "to-move")
        self.update(Content("\n").join([hand, Content(pile_words(tally)), *more]))


B = TypeVar("B", bound=SeatBox)


async def seat_boxes(row: Widget, kind: type[B], seats: Sequence[int]) -> list[B]:
    """The ``kind`` boxes of ``row``, one per seat in order: mounted when the row has
    none (or the wrong number), otherwise those already there, to be drawn again."""
    boxes = [w for w in row.children if isinstance(w, kind)]
    if len(boxes) != len(seats):
        await row.remove_children()
        boxes = [kind(seat) for seat in seats]
        await row.mount_all(boxes)
    return boxes


class SeatPanel(SeatBox):
    """One seat in the game: name and role, cards in hand (backs for others), captured
    pile, and the point cards in it."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, classes="seat")

    def show(self, view: Position, names: Sequence[str], human: int, tally: Tally) -> None:
        """Draw the seat in the person's ``view``: its role (you, partner, opponent), the
        others' hands as backs (the person's own cards are in the hand box), and the point
        cards of its pile, fitted to the panel."""
        rules = view.rules
        seat = self.seat
        foe = False
        if seat == human:
            role = pgettext("seat", "you")
        elif rules.partnerships and rules.team_of(seat) == rules.team_of(human):
            role = pgettext("seat", "partner")
        else:
            role, foe = pgettext("seat", "opponent"), True
        self.set_class(not foe, "ally")
        self.set_class(foe, "foe")
        count = view.hand_size(seat)
        if seat != human and count:
            hand = card_backs(count, " " + ngettext("%(n)s card", "%(n)s cards", count)
                              % {"n": count})
        else:
            hand = Content(ngettext("%(n)s card in hand", "%(n)s cards in hand", count)
                           % {"n": count})
        room = (self.content_size.width or PANEL_TEXT) - len(tally.label) - 1
        points = Content.assemble(f"{tally.label} ", fitted_cards(tally.point_cards, room))
        self.draw(view, names[seat], role, hand, tally, points)


#: The text width of a seat panel at 80 columns (four panels and their frames).
PANEL_TEXT = 21


def fitted_cards(cards: Sequence[int], room: int) -> Content:
    """As many of ``cards`` as fit in ``room`` cells, then ``+N`` for the rest: Tablić
    has 21 point cards, and a seat panel is one line of about 20."""
    if not cards:
        return Content.styled("—", "dim")
    shown = len(cards)
    while shown > 0:
        width = sum(cell_len(card_symbol(c)) for c in cards[:shown]) + shown - 1
        more = f" +{len(cards) - shown}" if shown < len(cards) else ""
        if width + len(more) <= room:
            break
        shown -= 1
    label = cards_label(cards[:shown], on_dark=True)
    if shown == len(cards):
        return label
    return Content.assemble(label, (f"{' ' if shown else ''}+{len(cards) - shown}", "bold"))


def team_name(rules: Rules, names: Sequence[str], team: int) -> str:
    """A side's name: the player's, or both partners' (``You & Partner``)."""
    if not rules.partnerships:
        return names[team]
    return " & ".join(names[s] for s in rules.seats if rules.team_of(s) == team)


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def score_content(view: Position, names: Sequence[str], human: int) -> Content:
    """The game score by side with the target, for the side panel; beside each side its
    points in this round so far (the piles scored as they stand), and who captured
    last (the table's leftovers go to them when the round ends)."""
    rules = view.rules
    scores = view.result.scores if view.result is not None else view.scores
    penalty = scheme(rules).penalty
    so_far = round_so_far(view)
    lines: list[Content] = []
    width = max(len(team_name(rules, names, t)) for t in rules.teams)
    # The column heads are 5 wide (the numbers' width): each language's short forms.
    unit = pgettext("score box", "game") if penalty else pgettext("score box", "round")
    head = pgettext("score box", "total") if penalty else pgettext("score box", "score")
    lines.append(Content.styled(f"{'':{width}}  {head:>5}  {unit:>5}", "dim"))
    for t in rules.teams:
        style = "bold #7ee787" if rules.team_of(human) == t else "bold"
        lines.append(Content.assemble((team_name(rules, names, t).ljust(width), style),
                                      f"  {scores[t]:>5}  ",
                                      (f"{_signed(so_far[t]):>5}", "#f2cc60")))
    taker = view.last_capture
    lines.append(Content.assemble((_("last capture") + " ", "dim"),
                                  names[taker] if taker is not None else _("none yet")))
    return Content("\n").join(lines)


def score_note(rules: Rules) -> str:
    """How the game is won, short enough for the score box's frame."""
    if rules.win_rule == "lower-after-games":
        return _("lower wins, %(n)s games") % {"n": rules.games_per_match}
    return _("first to %(n)s wins") % {"n": rules.target}


def cards_content(left: Unseen, view: Position, names: Sequence[str], human: int) -> Content:
    """The cards panel: each suit's ranks, bright while some copy is still unseen (in
    another hand or the stock), dim once seen (in your hand, on the table, in a pile,
    set aside); then where the unseen cards are. Only the person's view is used."""
    lines: list[Content] = []
    for symbol, ranks in left.by_suit():
        red = symbol in "♥♦"
        ink = "bold #ff7b7b" if red else "bold #e8e8e8"
        parts: list[Content | tuple[str, str] | str] = [(symbol, ink)]
        for name, n in ranks:
            if n == 0:
                style = "#4b5a52"
            elif n < left.decks:
                style = "#ff7b7b" if red else "#b8b8b8"
            else:
                style = ink
            parts += [" ", (name, style)]
        lines.append(Content.assemble(*parts))
    others = [s for s in view.rules.seats if s != human]
    hands = (_("%(name)s holds %(n)s") % {"name": names[others[0]], "n": left.in_hands}
             if len(others) == 1 else _("others hold %(n)s") % {"n": left.in_hands})
    lines.append(Content.styled(_("%(hands)s · stock %(n)s") % {"hands": hands,
                                                                "n": left.in_stock}, "dim"))
    return Content("\n").join(lines)


def game_content(view: Position, opponents: str, seed: int | None = None) -> Content:
    """The ruleset and who plays; round (game, in Krypkasino), deal and stock.

    A seeded game shows its seed: its deals are no secret, and the player should know.
    """
    rules = view.rules
    unit = pgettext("unit", rules.round_word).capitalize()
    stock = ngettext("stock %(n)s card", "stock %(n)s cards", view.stock_size) % {
        "n": view.stock_size}
    lines = [
        Content.assemble((rules.name, "bold"), (f" · {opponents}", "dim")),
        Content(_("%(unit)s %(round)s · deal %(deal)s/%(deals)s") % {
            "unit": unit, "round": view.round, "deal": view.deal,
            "deals": rules.deals_per_round}),
        Content(stock + (" · " + _("last deal") if view.is_last_deal else "")),
    ]
    if view.set_aside:
        lines.append(Content.assemble(_("set aside") + " ",
                                      cards_label(view.set_aside, on_dark=True)))
    if seed is not None:
        lines.append(Content.styled(shuffle_words(seed), "dim"))
    return Content("\n").join(lines)


def log_content(log: Sequence[Entry], rules: Rules, limit: int = 200) -> Content:
    """The move log, newest last, with a heading at each new deal; the last move stands out."""
    unit = pgettext("unit", rules.round_word).capitalize()
    lines: list[Content] = []
    shown = log[-limit:]
    prev: tuple[int, int] | None = None
    for i, e in enumerate(shown):
        if (e.round, e.deal) != prev:
            lines.append(Content.styled(_("── %(unit)s %(round)s, deal %(deal)s ──") % {
                "unit": unit, "round": e.round, "deal": e.deal}, "dim"))
            prev = (e.round, e.deal)
        last = i == len(shown) - 1
        lines.append(Content.styled(("▶ " if last else "  ") + e.words,
                                    "bold #111111 on #f2cc60" if last else ""))
    if not lines:
        lines.append(Content.styled(_("No moves yet."), "dim"))
    return Content("\n").join(lines)
