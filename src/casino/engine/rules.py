"""Rulesets as data: one frozen :class:`Rules` value per preset, keyword options.

Every ruleset of docs/rules.md is a set of numbers and flags here, never a code
path of its own: the move generator and the scorer read these fields. The
per-card value tables (:class:`CardTable`) are built once per ``Rules`` value
and cached, so the hot path only indexes tuples.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from casino.engine.cards import ACE, JACK, card_symbol, card_text, parse_card
from casino.engine.errors import CardError, RulesError
from casino.engine.presets import PRESETS, for_scoring, named
from casino.engine.scheme import (
    CardPoints,
    EachSpade,
    Majority,
    Mulles,
    ScoringItem,
    SpadesAbove,
    Sweeps,
    scheme,
)
from casino.engine.wording import listing
from casino.i18n import _, ngettext, pgettext

FaceCapture = Literal["sum", "one", "all"]
Pairing = Literal["rank", "value"]
Scoring = Literal["casino", "krypkasino", "kasino", "spade", "mulle", "tablic"]
WinRule = Literal["counting-order", "higher-total", "lower-after-games"]
FirstDeal = Literal["dealer-last", "table-last"]
Leftovers = Literal["dealer", "nobody"]
MaximalCapture = Literal["inclusion", "cardinality"]


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One ruleset. Build it with :meth:`Rules.preset`; every field is an option.

    Field groups follow the rules: card values, play, dealing, sweeps and the end of
    a round, scoring and winning; docs/rules.md §7 describes every field.
    """

    #: The preset this ruleset derives from (``casino``, ``krypkasino``, ...).
    name: str = "casino"
    #: Number of seats (2-4 where the preset allows).
    players: int = 2
    #: Four players as two partnerships, partners opposite (seats 0+2, 1+3).
    partnerships: bool = False
    #: 1 or 2 decks shuffled together.
    decks: int = 1

    # --- card values (docs/rules.md §1) ---
    #: Number values of J, Q, K; ``None``: face cards have no number value and
    #: only pair (classic Casino).
    face_values: tuple[int, int, int] | None = (11, 12, 13)
    #: How a value-less face card captures: ``one`` table card of its rank, or ``all``
    #: that the player chooses. Ignored when face cards have values.
    face_capture: FaceCapture = "sum"
    #: The played values of an Ace (``(14,)`` house, ``(1, 14)`` Royal, ``(1, 11)`` Tablic).
    ace_played: tuple[int, ...] = (14,)
    #: The value of an Ace inside a sum or build, and an alternative (Tablic's 11).
    ace_sum: int = 1
    ace_sum_alt: int | None = None
    #: Hand (played) values that differ from the table value, as ``(card, value)``
    #: pairs: Finnish Kasino's 2s 15 and Td 16.
    hand_values: tuple[tuple[str, int], ...] = ()
    #: ``rank``: a played card takes lone table cards of its rank; ``value``: lone
    #: table cards whose table value equals its played value.
    pairing: Pairing = "rank"

    # --- play (docs/rules.md §2.4-2.5, §3) ---
    building: bool = True
    #: May the owner raise their own single build (docs/rules.md D1).
    raise_own_build: bool = True
    #: Krypkasino: a card that can capture must, and maximally.
    compulsory_capture: bool = False
    #: What "maximal" means for compulsory captures (docs/rules.md K2).
    maximal_capture: MaximalCapture = "inclusion"
    #: Krypkasino: a card that can take the whole table must be played to do so.
    forced_sweep: bool = False
    #: Krypkasino: J, Q, K on the table are set aside at each deal.
    set_aside_pictures: bool = False
    #: 1: clockwise (seat numbers rise); -1: anticlockwise (Tablic).
    direction: int = 1

    # --- dealing (docs/rules.md §2.2) ---
    first_hand: int = 4
    first_table: int = 4
    deal_size: int = 4
    #: Order of the first deal's packets: ``dealer-last`` (others, table, dealer)
    #: or ``table-last`` (every player, then the table; Finnish Kasino).
    first_deal: FirstDeal = "dealer-last"

    # --- sweeps and the end of a round (docs/rules.md §2.6) ---
    sweep_points: int = 1
    #: Does a sweep with the last card of the round count (docs/rules.md F2).
    last_card_sweep: bool = True
    #: Finnish Kasino: no sweep (mökki) during the round's last deal.
    no_sweep_last_deal: bool = False
    #: Finnish Kasino: no sweep once any player had more than this at the round's start.
    sweep_limit: int | None = None
    #: Finnish option (docs/rules.md N3): a new sweep of another player knocks one of yours down.
    sweeps_cancel: bool = False
    #: Krypkasino: a lone table card taken by its identical twin is a double sweep
    #: (docs/rules.md K4).
    double_sweep: bool = False
    #: Who takes the leftovers when nobody captured in the whole round (docs/rules.md F3).
    leftovers_no_capture: Leftovers = "dealer"

    # --- scoring and winning (docs/rules.md §2.7-2.8 and the variants) ---
    scoring: Scoring = "casino"
    #: Points for most cards (3; Finnish 1; Mulle and Krypkasino 0).
    cards_points: int = 3
    #: Points for most spades (1; Finnish 2).
    spades_points: int = 1
    #: Points for the last capture (Mulle 1; Finnish option 1).
    last_capture_points: int = 0
    #: Points for a mulle (a card taken alone by its identical twin).
    mulle_points: int = 0
    #: Finnish two-player option: 1 point per spade above 7 instead of most spades.
    spades_above_7: bool = False
    target: int = 21
    win_rule: WinRule = "counting-order"
    #: Krypkasino: games in a match (the lower total after them wins; a tie adds as many).
    games_per_match: int = 2

    # ------------------------------------------------------------------
    @staticmethod
    def preset(name: str = "casino", /, **options: Any) -> Rules:
        """The preset ``name`` (or an alias) with ``options`` applied.

        ``Rules.preset("classic", players=4)`` gives the partnership game.
        """
        return preset(name, **options)

    @property
    def deck_size(self) -> int:
        """The cards in play: 52 for each deck."""
        return 52 * self.decks

    @property
    def round_word(self) -> str:
        """What a scored cycle of deals is called under these rules (``game`` in
        Krypkasino, whose match is several games; ``round`` elsewhere), so that every
        front end words it the same; it follows the scoring (:func:`.presets.for_scoring`)."""
        return for_scoring(self.scoring).round_word

    @property
    def sweep_word(self) -> str:
        """What a sweep is called under these rules (``tabla`` with Tablić's scoring),
        so that the summary and the score pad word it the same."""
        return for_scoring(self.scoring).sweep_word

    @property
    def seats(self) -> range:
        """Every seat in seat order."""
        return range(self.players)

    @property
    def deals_per_round(self) -> int:
        """How many deals a round has: the first (hands and table), then hands only until
        the stock is out."""
        first = self.players * self.first_hand + self.first_table
        rest = self.deck_size - first
        per = self.players * self.deal_size
        return 1 + -(-rest // per)

    def team_of(self, seat: int) -> int:
        """The first seat of ``seat``'s side: itself, or the lower partner's seat."""
        return seat % 2 if self.partnerships else seat

    @property
    def teams(self) -> tuple[int, ...]:
        """The first seat of each side, in seat order."""
        return (0, 1) if self.partnerships else tuple(range(self.players))

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play (Tablić's goes the other way round)."""
        return (seat + self.direction) % self.players

    def playing_order(self, first: int) -> tuple[int, ...]:
        """Every seat once in playing order, ``first`` first: the one walk round the
        table that the engine's and the bots' forecasts share (each stops where it
        needs to)."""
        return tuple((first + k * self.direction) % self.players for k in range(self.players))

    def options(self) -> dict[str, Any]:
        """The fields that differ from the preset's own, for JSON and records."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in _differences(self)}

    def to_json(self) -> str | dict[str, Any]:
        """A preset name, or ``{"preset": NAME, ...options}`` when options differ."""
        opts = self.options()
        if not opts:
            return self.name
        return {"preset": self.name, **{k: _jsonable(v) for k, v in opts.items()}}

    @property
    def table(self) -> CardTable:
        """The per-card numbers of this ruleset (:func:`card_table`, kept for the last
        rulesets asked)."""
        return card_table(self)


def player_counts(name: str) -> tuple[int, ...]:
    """The numbers of players preset ``name`` allows (2 to 4), as every front end offers
    them."""
    out = []
    for n in (2, 3, 4):
        try:
            preset(name, players=n)
        except RulesError:
            continue
        out.append(n)
    return tuple(out)


@lru_cache(maxsize=64)
def _differences(rules: Rules) -> tuple[tuple[str, Any], ...]:
    """The fields of ``rules`` that differ from its preset's, kept per ruleset: every
    position's JSON names its rules, and building the preset to compare with costs
    more than the rest of the JSON (the research env writes one per seat and step)."""
    base = _PRESETS[rules.name](players=rules.players)
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name != "name" and value != getattr(base, f.name):
            out.append((f.name, value))
    if rules.players != _PRESETS[rules.name]().players:
        out.append(("players", rules.players))
    return tuple(out)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class CardTable:
    """Per-card numbers of a ruleset, indexed by card id (docs/rules.md §1).

    ``played[c]``: the values ``c`` has when played (empty for a value-less face card);
    ``sum_value[c]``: its value inside a sum or build (0: it never joins one);
    ``sum_alt[c]``: a second sum value (Tablic's Ace 11), else 0;
    ``pair_played[c]`` / ``pair_table[c]``: keys; a played card takes a lone table
    card by pairing when the table card's key is among the played card's keys;
    ``holds[c]``: bitmask over values, bit v set when ``c`` is "a card of value v";
    ``face_one[c]``: a value-less face card that takes one card of its rank per capture.
    """

    played: tuple[tuple[int, ...], ...]
    sum_value: tuple[int, ...]
    sum_alt: tuple[int, ...]
    pair_played: tuple[tuple[int, ...], ...]
    pair_table: tuple[int, ...]
    holds: tuple[int, ...]
    face_one: tuple[bool, ...]
    max_value: int
    max_build: int = field(default=14)


@lru_cache(maxsize=64)
def card_table(rules: Rules) -> CardTable:
    """Each card's values under ``rules`` (played, in a sum, as a pair, what it holds),
    worked out once per ruleset: every legality check reads them."""
    played: list[tuple[int, ...]] = []
    sums: list[int] = []
    alts: list[int] = []
    pair_played: list[tuple[int, ...]] = []
    pair_table: list[int] = []
    face_one: list[bool] = []
    hand_over = {parse_card(text): value for text, value in rules.hand_values}
    for c in range(52):
        rank = c >> 2
        alt = 0
        one = False
        if rank == ACE:
            p: tuple[int, ...] = tuple(rules.ace_played)
            s = rules.ace_sum
            alt = rules.ace_sum_alt or 0
        elif rank >= JACK:
            if rules.face_values is None:
                p, s = (), 0
                one = rules.face_capture == "one"
            else:
                value = rules.face_values[rank - JACK]
                p, s = (value,), value
        else:
            p, s = (rank + 1,), rank + 1
        if c in hand_over:
            p = (hand_over[c],)
        played.append(p)
        sums.append(s)
        alts.append(alt)
        face_one.append(one)
        if rules.pairing == "rank":
            pair_played.append((rank,))
            pair_table.append(rank)
        else:
            pair_played.append(p)
            pair_table.append(s if s else -1)
    holds = tuple(sum(1 << v for v in p) for p in played)
    max_value = max(max(p) for p in played if p)
    return CardTable(
        played=tuple(played),
        sum_value=tuple(sums),
        sum_alt=tuple(alts),
        pair_played=tuple(pair_played),
        pair_table=tuple(pair_table),
        holds=holds,
        face_one=tuple(face_one),
        max_value=max_value,
        max_build=min(14, max_value),
    )


# ----------------------------------------------------------------------
# Presets


def _casino(players: int = 2) -> Rules:
    if players != 2:
        raise RulesError(_("%(name)s is a game for 2 players, not %(players)s")
                         % {"name": "casino", "players": players})
    return Rules(name="casino", players=2)


def _krypkasino(players: int = 2) -> Rules:
    if players != 2:
        raise RulesError(_("%(name)s is a game for 2 players, not %(players)s")
                         % {"name": "krypkasino", "players": players})
    return Rules(
        name="krypkasino",
        players=2,
        decks=2,
        pairing="value",
        building=False,
        compulsory_capture=True,
        forced_sweep=True,
        set_aside_pictures=True,
        first_hand=6,
        first_table=4,
        deal_size=4,
        sweep_points=5,
        double_sweep=True,
        scoring="krypkasino",
        cards_points=0,
        spades_points=0,
        target=0,
        win_rule="lower-after-games",
    )


def _kasino(players: int = 2) -> Rules:
    if players not in (2, 3, 4):
        raise RulesError(_("%(name)s is a game for 2 to 4 players, not %(players)s")
                         % {"name": "kasino", "players": players})
    return Rules(
        name="kasino",
        players=players,
        pairing="value",
        hand_values=(("2s", 15), ("Td", 16)),
        building=False,
        first_deal="table-last",
        no_sweep_last_deal=True,
        sweep_limit=10,
        scoring="kasino",
        cards_points=1,
        spades_points=2,
        target=16,
        win_rule="higher-total",
    )


def _classic(players: int = 2) -> Rules:
    if players not in (2, 3, 4):
        raise RulesError(_("%(name)s is a game for 2, 3 or 4 players, not %(players)s")
                         % {"name": "classic", "players": players})
    return Rules(
        name="classic",
        players=players,
        partnerships=players == 4,
        face_values=None,
        face_capture="one",
        ace_played=(1,),
        win_rule="higher-total",
    )


def _royal(players: int = 2) -> Rules:
    base = _classic(players)
    return dataclasses.replace(
        base, name="royal", face_values=(11, 12, 13), face_capture="sum", ace_played=(1, 14)
    )


def _spade(players: int = 2) -> Rules:
    base = _classic(players)
    return dataclasses.replace(base, name="spade", scoring="spade", target=61)


def _faces_all(players: int = 2) -> Rules:
    base = _classic(players)
    return dataclasses.replace(base, name="faces-all", face_capture="all")


def _mulle(players: int = 2) -> Rules:
    if players not in (2, 3, 4):
        raise RulesError(_("%(name)s is a game for 2 to 4 players, not %(players)s")
                         % {"name": "mulle", "players": players})
    return Rules(
        name="mulle",
        players=players,
        decks=2,
        ace_played=(1, 14),
        first_hand=5,
        first_table=5,
        deal_size=5,
        scoring="mulle",
        cards_points=0,
        last_capture_points=1,
        mulle_points=5,
        target=21,
        win_rule="counting-order",
    )


def _tablic(players: int = 2) -> Rules:
    if players not in (2, 3, 4):
        raise RulesError(_("%(name)s is a game for 2 to 4 players, not %(players)s")
                         % {"name": "tablic", "players": players})
    return Rules(
        name="tablic",
        players=players,
        partnerships=players == 4,
        face_values=(12, 13, 14),
        ace_played=(1, 11),
        ace_sum=1,
        ace_sum_alt=11,
        building=False,
        direction=-1,
        first_hand=6,
        first_table=4,
        deal_size=6,
        scoring="tablic",
        target=101,
        win_rule="higher-total",
    )


_PRESETS: dict[str, Any] = {
    "casino": _casino,
    "krypkasino": _krypkasino,
    "kasino": _kasino,
    "classic": _classic,
    "royal": _royal,
    "spade": _spade,
    "faces-all": _faces_all,
    "mulle": _mulle,
    "tablic": _tablic,
}

#: Other names people type for a preset, each turned into the preset's name (the table
#: beside the presets, :mod:`casino.engine.presets`, keeps them).
ALIASES = {alias: p.name for p in PRESETS.values() for alias in p.aliases}

PRESET_NAMES: tuple[str, ...] = tuple(_PRESETS)

_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def canonical_name(name: str) -> str:
    """The preset's own name for ``name`` or one of its aliases."""
    if not isinstance(name, str):
        raise RulesError(_("a ruleset name must be text, not %(kind)s")
                         % {"kind": type(name).__name__})
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in _PRESETS:
        known = ", ".join(PRESET_NAMES)
        raise RulesError(_("unknown ruleset %(name)r; the presets are %(presets)s")
                         % {"name": name, "presets": known})
    return key


def preset(name: str = "casino", /, **options: Any) -> Rules:
    """Build a preset with options; bad options raise :class:`RulesError` saying why."""
    key = canonical_name(name)
    players = options.pop("players", None)
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise RulesError(_("players must be a whole number, not %(given)r")
                         % {"given": players})
    base: Rules = _PRESETS[key](players) if players is not None else _PRESETS[key]()
    if not options:
        return base
    changes: dict[str, Any] = {}
    for opt, value in options.items():
        if opt in ("name", "preset"):
            raise RulesError(_("%(option)r is not an option; choose the preset by name")
                             % {"option": opt})
        if opt not in _FIELDS:
            raise RulesError(_("%(name)s has no option %(option)r")
                             % {"name": key, "option": opt})
        changes[opt] = _coerce(opt, value, getattr(base, opt))
    rules = dataclasses.replace(base, **changes)
    _check(rules)
    return rules


def _coerce(opt: str, value: Any, current: Any) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RulesError(_("option %(option)s must be true or false, not %(given)r")
                             % {"option": opt, "given": value})
        return value
    if isinstance(current, int) or (current is None and opt in ("sweep_limit", "ace_sum_alt")):
        if value is None and current is None:
            return None
        if value is None and opt in ("sweep_limit", "ace_sum_alt"):
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(_("option %(option)s must be a whole number, not %(given)r")
                             % {"option": opt, "given": value})
        return value
    if isinstance(current, str):
        if not isinstance(value, str):
            raise RulesError(_("option %(option)s must be text, not %(given)r")
                             % {"option": opt, "given": value})
        return value
    if opt == "face_values":
        if value is None:
            return None
        if (
            not isinstance(value, list | tuple)
            or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise RulesError(_("option face_values must be three numbers (J, Q, K) or null"))
        return tuple(value)
    if opt == "ace_played":
        if (
            not isinstance(value, list | tuple)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise RulesError(_("option ace_played must be a list of numbers, as [14] or "
                               "[1, 14]"))
        return tuple(value)
    if opt == "hand_values":
        if not isinstance(value, list | tuple):
            raise RulesError(_("option hand_values must be a list of [card, value] pairs"))
        pairs = []
        for item in value:
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not isinstance(item[1], int)
                or isinstance(item[1], bool)
            ):
                raise RulesError(_("option hand_values must be a list of [card, value] "
                                   "pairs"))
            try:
                text = card_text(parse_card(item[0]))
            except CardError as exc:
                raise RulesError(_("option hand_values: %(reason)s") % {"reason": exc}) \
                    from None
            pairs.append((text, item[1]))
        return tuple(pairs)
    raise RulesError(_("option %(option)s cannot be set to %(given)r")
                     % {"option": opt, "given": value})


_CHOICES: dict[str, tuple[str, ...]] = {
    "face_capture": ("sum", "one", "all"),
    "pairing": ("rank", "value"),
    "scoring": ("casino", "krypkasino", "kasino", "spade", "mulle", "tablic"),
    "win_rule": ("counting-order", "higher-total", "lower-after-games"),
    "first_deal": ("dealer-last", "table-last"),
    "leftovers_no_capture": ("dealer", "nobody"),
    "maximal_capture": ("inclusion", "cardinality"),
}


def _check(rules: Rules) -> None:
    for opt, choices in _CHOICES.items():
        if getattr(rules, opt) not in choices:
            raise RulesError(_("option %(option)s must be one of %(choices)s")
                             % {"option": opt, "choices": ", ".join(choices)})
    if rules.players not in (2, 3, 4):
        raise RulesError(_("players must be 2, 3 or 4, not %(players)s")
                         % {"players": rules.players})
    if rules.partnerships and rules.players != 4:
        raise RulesError(_("partnerships need 4 players"))
    if rules.decks not in (1, 2):
        raise RulesError(_("decks must be 1 or 2, not %(decks)s") % {"decks": rules.decks})
    if rules.direction not in (1, -1):
        raise RulesError(_("direction must be 1 (clockwise) or -1 (anticlockwise)"))
    if rules.first_hand < 1 or rules.deal_size < 1 or rules.first_table < 0:
        raise RulesError(_("hand sizes must be at least 1 and the table deal at least 0"))
    first = rules.players * rules.first_hand + rules.first_table
    if first > rules.deck_size:
        raise RulesError(_("the first deal needs %(cards)s cards, more than the deck's")
                         % {"cards": first})
    for value in rules.ace_played:
        if not 1 <= value <= 16:
            raise RulesError(_("ace_played values must be between 1 and 16"))
    if rules.face_values is not None and not all(1 <= v <= 16 for v in rules.face_values):
        raise RulesError(_("face_values must be between 1 and 16"))
    for _card, value in rules.hand_values:
        if not 1 <= value <= 16:
            raise RulesError(_("hand_values must be between 1 and 16"))
    if (rules.compulsory_capture or rules.forced_sweep) and (
            rules.building or (rules.face_values is None and rules.face_capture == "one")):
        raise RulesError(_("compulsory captures and forced sweeps need a ruleset without "
                           "builds in which every card may take any selection (as in "
                           "krypkasino)"))
    if rules.building and rules.ace_sum_alt is not None:
        raise RulesError(_("an Ace with two sum values cannot be used with building"))


def rules_from_json(obj: Any) -> Rules:
    """``"casino"`` or ``{"preset": "classic", "players": 4, ...}``."""
    if isinstance(obj, str):
        return preset(obj)
    if isinstance(obj, dict):
        if "preset" not in obj:
            raise RulesError(_('a rules object needs "preset", the name of a ruleset'))
        opts = {k: v for k, v in obj.items() if k != "preset"}
        return preset(obj["preset"], **opts)
    raise RulesError(_('rules must be a preset name or an object with "preset"'))


# ----------------------------------------------------------------------
# Human summary (``casino rules NAME``)


def ruleset_title(rules: Rules) -> str:
    """The ruleset's title in the language in force (a custom ruleset: its name)."""
    known = named(rules.name)
    return known.shown_title() if known else rules.name


def _faces_line(rules: Rules) -> str:
    """How the J, Q, K count, and the Ace, as the summary says it."""
    if rules.face_values is None:
        faces = (_("J, Q, K have no number value: they only pair with their rank (one "
                   "card per capture).") if rules.face_capture == "one" else
                 _("J, Q, K have no number value: they only pair with their rank (any "
                   "of them)."))
    else:
        j, q, k = rules.face_values
        faces = _("J %(j)s, Q %(q)s, K %(k)s.") % {"j": j, "q": q, "k": k}
    ace = listing([str(v) for v in rules.ace_played], last=pgettext("listing", "or"))
    ace_sum = str(rules.ace_sum) if not rules.ace_sum_alt else listing(
        [str(rules.ace_sum), str(rules.ace_sum_alt)], last=pgettext("listing", "or"))
    return _("Values: 2-10 face value; %(faces)s A played as %(ace)s, %(sum)s in "
             "sums.") % {"faces": faces, "ace": ace, "sum": ace_sum}


def _deal_line(rules: Rules) -> str:
    """Who gets how many cards, how many deals a round (Krypkasino: a game), and which
    way play goes."""
    way = _("clockwise") if rules.direction == 1 else _("anticlockwise")
    args = {"hand": rules.first_hand, "table": rules.first_table, "size": rules.deal_size,
            "deals": rules.deals_per_round, "way": way}
    if rules.round_word == "game":
        return _("Deal: %(hand)s each and %(table)s to the table, then %(size)s each per "
                 "deal; %(deals)s deals a game; play goes %(way)s.") % args
    return _("Deal: %(hand)s each and %(table)s to the table, then %(size)s each per "
             "deal; %(deals)s deals a round; play goes %(way)s.") % args


def _play_lines(rules: Rules) -> list[str]:
    """The moves, and the rules of owning builds, compulsory captures, forced sweeps and
    set-aside pictures, each a line where the ruleset has it."""
    moves = [pgettext("summary", "capture"), pgettext("summary", "trail")]
    if rules.building:
        moves[1:1] = [_("build (up to %(most)s)") % {"most": rules.table.max_build},
                      _("add to or raise a build")]
    lines = [_("Moves: %(moves)s.") % {"moves": ", ".join(moves)}]
    if rules.building:
        lines.append(_("Owning a build: no trailing, and always keep a card of each "
                       "build's value."))
        if not rules.raise_own_build:
            lines.append(_("You may not raise your own build."))
    if rules.compulsory_capture:
        lines.append(_("Captures are compulsory and maximal; only a card that can "
                       "capture nothing is trailed."))
    if rules.forced_sweep:
        lines.append(_("Forced sweep: a card that can take the whole table must do so."))
    if rules.set_aside_pictures:
        lines.append(_("J, Q, K on the table are set aside at each deal; they go to the "
                       "last capturer at the end."))
    return lines


def describe(rules: Rules) -> list[str]:
    """Readable lines summarising a ruleset, in the order a player learns it, in the
    language in force."""
    lines = [ruleset_title(rules)]
    if rules.partnerships:
        lines.append(ngettext("Players: %(n)s in two partnerships; %(cards)s cards "
                              "(%(decks)s deck).",
                              "Players: %(n)s in two partnerships; %(cards)s cards "
                              "(%(decks)s decks).", rules.decks)
                     % {"n": rules.players, "cards": rules.deck_size, "decks": rules.decks})
    else:
        lines.append(ngettext("Players: %(n)s; %(cards)s cards (%(decks)s deck).",
                              "Players: %(n)s; %(cards)s cards (%(decks)s decks).",
                              rules.decks)
                     % {"n": rules.players, "cards": rules.deck_size, "decks": rules.decks})
    lines.append(_faces_line(rules))
    if rules.hand_values:
        extra = ", ".join(_("%(card)s %(value)s in hand") % {"card": c, "value": v}
                          for c, v in rules.hand_values)
        lines.append(_("Special cards: %(cards)s (their face value on the table).")
                     % {"cards": extra})
    pairing = (_("a played card takes lone table cards of its rank")
               if rules.pairing == "rank" else
               _("a played card takes lone table cards whose table value equals its value"))
    lines.append(_("Pairing: %(how)s.") % {"how": pairing})
    lines.append(_deal_line(rules))
    lines += _play_lines(rules)
    lines.append(_("Sweep: %(text)s") % {"text": sweep_text(rules)})
    lines.append(_("Scoring: %(text)s") % {"text": _scoring_text(rules)})
    lines.append(_("Winning: %(text)s") % {"text": winning_text(rules)})
    return lines


def sweep_text(rules: Rules) -> str:
    """Taking the whole table: what it is worth (the scheme's sweep item, as the scorer
    counts it), and every limit the ruleset sets."""
    sch = scheme(rules)
    worth = next((i.points for i in sch.items if isinstance(i, Sweeps)), rules.sweep_points)
    if sch.penalty:
        text = ngettext("%(n)s point of penalty to the sweeper, and taken off the previous "
                        "player's total",
                        "%(n)s points of penalty to the sweeper, and taken off the "
                        "previous player's total", worth) % {"n": worth}
        if rules.double_sweep:
            text += _("; a lone card taken by its identical twin is a double sweep "
                      "(%(n)s)") % {"n": 2 * worth}
    else:
        text = ngettext("%(n)s point", "%(n)s points", worth) % {"n": worth}
    limits = sweep_limits(rules)
    if limits:
        text += "; " + "; ".join(_("none %(when)s") % {"when": limit} for limit in limits)
    if rules.sweeps_cancel:
        text += _("; a new sweep cancels one of another player's")
    return text + "."


def sweep_limits(rules: Rules) -> list[str]:
    """When a sweep does not count (``during the round's last deal``, ...), each limit
    the ruleset sets, for the summary and the how-to-play guide alike."""
    limits = []
    if rules.no_sweep_last_deal:
        limits.append(_("during the round's last deal"))
    if rules.sweep_limit is not None:
        limits.append(_("in a round that started with a player above %(n)s points")
                      % {"n": rules.sweep_limit})
    if not rules.last_card_sweep:
        limits.append(_("with the round's last card"))
    return limits


def _scoring_text(rules: Rules) -> str:
    """The ruleset's scoring items in counting order, written from its scoring scheme
    (:func:`casino.engine.scheme.scheme`), so the summary says what the scorer counts."""
    sch = scheme(rules)
    phrases = scoring_phrases(rules)
    if sch.penalty:
        cards = [text for item, text in phrases if not isinstance(item, Sweeps)]
        sweeps = [text for item, text in phrases if isinstance(item, Sweeps)]
        text = (_("penalties: %(cards)s (%(total)s a game); ")
                % {"cards": ", ".join(cards), "total": penalty_total(rules)}
                + "; ".join(sweeps) + ".")
    else:
        text = ", ".join(text for _item, text in phrases) + "."
    ties = majority_ties_text(rules)
    if ties:
        text += " " + ties
    return text


def penalty_total(rules: Rules) -> int:
    """All the penalty points the cards of a game hold (Krypkasino: 42), from the scheme."""
    sch = scheme(rules)
    return sum(sch.points_of(c) for c in range(52)) * rules.decks


def _sweeps_phrase(rules: Rules, entry: Sweeps, prose: bool) -> str:
    """The sweeps' scoring item in words: ``each sweep 1``, ``sweeps +5 / -5``."""
    word = rules.sweep_word
    p = entry.points
    if entry.previous_loses:
        text = _("sweeps +%(n)s / -%(n)s") % {"n": p}
        if rules.double_sweep:
            text += _(", double sweeps +%(n)s / -%(n)s") % {"n": 2 * p}
        return text
    if prose and word != "sweep":
        return _("each %(word)s (sweep) %(n)s") % {"word": word, "n": p}
    if prose and rules.scoring == "kasino":
        return _("each sweep (mökki) %(n)s") % {"n": p}
    if word != "sweep":
        return _("each %(word)s %(n)s") % {"word": word, "n": p}
    return _("each sweep %(n)s") % {"n": p}


def _item_phrase(rules: Rules, entry: ScoringItem, prose: bool) -> str:
    """One scoring item but a card's in words: ``most cards 3``, ``each spade 1``."""
    if isinstance(entry, Majority):
        what = {"cards": _("most cards %(n)s"), "spades": _("most spades %(n)s")}
        return what.get(entry.what, "most " + entry.what + " %(n)s") % {"n": entry.points}
    if isinstance(entry, SpadesAbove):
        return _("1 per spade above %(n)s") % {"n": entry.count}
    if isinstance(entry, EachSpade):
        return ((_("each other spade %(n)s") if entry.besides else _("each spade %(n)s"))
                % {"n": entry.points})
    if isinstance(entry, Sweeps):
        return _sweeps_phrase(rules, entry, prose)
    if isinstance(entry, Mulles):
        return _("each mulle %(n)s") % {"n": entry.points}
    # LastCapture, the last kind of item
    return ((_("the last capture %(n)s") if prose else _("last capture %(n)s"))
            % {"n": entry.points})


def scoring_phrases(rules: Rules, *,
                    prose: bool = False) -> list[tuple[ScoringItem, str]]:
    """Each scoring item of ``rules`` in counting order with its words: ``most cards 3``,
    ``Td 2``, ``each Ace 1``, ``each sweep 1``; a run of cards that score by themselves
    is worded together and paired with its first item.

    Written from the scoring scheme (:func:`casino.engine.scheme.scheme`), so the rules
    summary (``prose=False``: card text, ``Td``) and the how-to-play guide
    (``prose=True``: card symbols in sentences, ``the 10♦ 2``, ``each tabla (sweep) 1``)
    say what the scorer counts and cannot drift from it. In the language in force."""
    sch = scheme(rules)
    items = list(sch.items)
    out: list[tuple[ScoringItem, str]] = []
    k = 0
    while k < len(items):
        entry = items[k]
        if isinstance(entry, CardPoints):
            run: list[CardPoints] = []
            while k < len(items) and isinstance(items[k], CardPoints):
                run.append(items[k])  # type: ignore[arg-type]
                k += 1
            text = ", ".join(_card_points_text(rules, run, rules.decks > 1, prose))
            out.append((entry, text))
            continue
        k += 1
        out.append((entry, _item_phrase(rules, entry, prose)))
    return out


def _single_card_text(name: str, points: int, each: bool, prose: bool,
                      more: bool) -> str:
    """One card that scores by itself: ``Td 2``, ``each Td 3``, ``the 10♦ 2 more``."""
    args = {"card": name, "n": points}
    if each:
        return (_("each %(card)s %(n)s more") if more else _("each %(card)s %(n)s")) % args
    if prose:
        return (_("the %(card)s %(n)s more") if more else _("the %(card)s %(n)s")) % args
    return _("%(card)s %(n)s") % args


def _rank_group_text(words: str, points: int, odd: bool) -> str:
    """Every suit of some ranks scores the same: ``each Ace 1``, ``each other A K 1``."""
    args = {"ranks": words, "n": points}
    return (_("each other %(ranks)s %(n)s") if odd else _("each %(ranks)s %(n)s")) % args


def _card_points_text(rules: Rules, run: list[CardPoints], each: bool,
                      prose: bool = False) -> list[str]:
    """A run of cards that score by themselves: a rank of which every suit scores is
    named once ("each Ace 1"; an odd one out first: "As 2, each other Ace 1"), other
    cards one by one. ``prose``: the cards by their symbols, a lone card with ``the``
    (``the 10♦ 2``), ranks listed as in a sentence (``A, K, Q, J and 10``), and a card
    that also scores as a spade counted one by one said to score ``more``."""
    name = card_symbol if prose else card_text
    sch = scheme(rules)

    def single(cp: CardPoints) -> str:
        more = prose and sch.points_of(cp.card) > cp.points
        return _single_card_text(name(cp.card), cp.points, each, prose, more)

    by_rank: dict[str, list[CardPoints]] = {}
    for cp in run:
        by_rank.setdefault(cp.name[:-1], []).append(cp)
    full = {r for r, cps in by_rank.items() if len(cps) == 4}
    out: list[str] = []
    done: set[str] = set()
    k = 0
    while k < len(run):
        rank = run[k].name[:-1]
        if rank not in full:
            out.append(single(run[k]))
            k += 1
            continue
        # Consecutive full ranks worth the same: "each A K Q J 10 1".
        group: list[str] = []
        odd: list[CardPoints] = []
        points = Counter(cp.points for cp in by_rank[rank]).most_common(1)[0][0]
        while k < len(run) and run[k].name[:-1] in full:
            r = run[k].name[:-1]
            cps = by_rank[r]
            if Counter(cp.points for cp in cps).most_common(1)[0][0] != points:
                break
            if r not in done:
                group.append(r)
                done.add(r)
                odd.extend(cp for cp in cps if cp.points != points)
            k += 1
        ranks = ["10" if r == "T" else r for r in group]
        words = (pgettext("scoring", "Ace") if group == ["A"] else
                 listing(ranks, last=pgettext("listing", "and")) if prose else " ".join(ranks))
        out.extend(single(cp) for cp in odd)
        text = _rank_group_text(words, points, bool(odd))
        if group == ["A"] and rules.win_rule == "counting-order":
            text += _(" (in the order %(cards)s)") % {
                "cards": " ".join(name(cp.card) for cp in by_rank["A"])}
        out.append(text)
    return out


def majority_ties_text(rules: Rules) -> str:
    """How the ruleset settles a tied majority, as the scorer does, when a tie is worth
    something (Finnish Kasino: carried, or shared); empty when a tie is simply lost."""
    sch = scheme(rules)
    if not any(isinstance(i, Majority) and i.ties != "lost" for i in sch.items):
        return ""
    spades_item = sch.majority("spades")
    if spades_item is None:
        return _("A tie for most cards carries its point to the next round, where it is "
                 "worth its own point as well.")
    if rules.partnerships or rules.players == 4:
        return _("A tie for most cards carries its point to the next round, where it is "
                 "worth its own point as well; a tie for most spades carries its points "
                 "to the next round in the same way.")
    return _("A tie for most cards carries its point to the next round, where it is worth "
             "its own point as well; a tie for most spades between two players gives "
             "each %(n)s; a tie of three carries the points to the next round.") % {
        "n": spades_item.points // 2}


def winning_text(rules: Rules) -> str:
    """How a game is won (``reach 21; ...``), for the summary and the guide."""
    if rules.win_rule == "lower-after-games":
        return (_("the lower total after %(n)s games wins; a tie plays %(n)s more.")
                % {"n": rules.games_per_match})
    if rules.win_rule == "counting-order":
        return (_("the first to reach %(n)s, counting each round's items in order, wins.")
                % {"n": rules.target})
    return (_("reach %(n)s; if several do in one round the higher total wins, and a tie "
              "plays another round.") % {"n": rules.target})
