"""The guided first game ("learn to play"): an arranged deal and a step for every turn.

A lesson is a real game of a preset for two players: the learner in seat 0, the
beginner level (the greedy bot) in seat 1, which deals, so the learner leads. Its
first round is dealt from an *arranged* deck: the deck of ``Match(rules,
seed=LESSON_SEEDS[name], first_dealer=1)``, a seed picked by :func:`find_seed` so
that a learner who follows the steps is offered, and plays, each kind of move the
preset has (:func:`lesson_kinds`: a pair, a sum, a build where the preset builds, a
sweep and a trail) within the round's first :data:`LESSON_DEALS` deals against that
opponent. The rest of the game is the seeded game's own, so the round ends and is
scored as any other. tests/test_lesson.py checks every preset's seed.

The deck is no secret (anyone who reads this module can replay it), which is why a
lesson is marked as one wherever games are counted (the web game keeps it out of
the lobby's lists); what a front end *shows* during the lesson is still worked out
from the learner's observation only: :func:`step` reads :meth:`Position.observe`
and the learner's own past moves, never the opponent's hand or the stock.

Each learner turn gets a :class:`Step`: the kind of move it teaches, a sentence
built from the learner's own cards naming the move in the project's notation, the
glossary's definition of the word, and where to read more (the glossary entry and
the preset's guide). The lesson adapts: a kind counts as learned once the learner
has *played* such a move, whichever step was showing, and each turn teaches the
next kind not yet learned that the learner's cards allow (so it never waits for a
card that is not coming). When every kind is learned the steps say so and let the
learner play on; at the round's end the scoring step says who got which points,
item by item in the preset's counting order.

Front ends: ``casino learn`` and the terminal game's start screen ("Learn to
play"); the web lobby's "Learn to play". docs/learn.md is the user's page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.engine.cards import card_symbol
from casino.engine.match import Match
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position, sweep_counts, table_after
from casino.engine.presets import DEFAULT, PRESETS
from casino.engine.rules import Rules, preset
from casino.engine.scheme import scheme
from casino.i18n import _, pgettext, pN_
from casino.play.session import HUMAN, GameSession, default_names
from casino.words.glossary import BY_WORD, shown_definition, shown_own_name, shown_word
from casino.words.guide import points_paragraph
from casino.words.narrate import YOU, item_words, move_explanation, tie_words

#: The learner's seat and the opponent's (who deals, so the learner leads).
LEARNER, OPPONENT = 0, 1
#: The opponent: the weakest level, which grabs what it can and plans nothing.
OPPONENT_LEVEL = "beginner"

#: The kinds of step. The first five are the kinds of move taught.
PAIR, SUM, BUILDING, SWEEP, TRAILING = "pair", "sum", "build", "sweep", "trail"
#: Taking a build the learner owns (the second half of building).
TAKE_BUILD = "take build"
#: Every kind learned: play as you like.
FREE = "free play"
#: The other player is to move.
WAIT = "wait"
#: The round is over: who scored what.
SCORING = "scoring"

#: The order in which kinds are taught when several are possible: a sweep first, as
#: the chance is rare, then pairing, summing and building, and trailing last (it is
#: almost always possible, and rarely the best play).
ORDER = (SWEEP, PAIR, SUM, BUILDING, TRAILING)

#: The lesson promises every kind within this many deals of its first round: the first.
LESSON_DEALS = 1

#: Each preset's arranged deck, as the seed of ``Match(rules, seed=..., first_dealer=1)``;
#: found by :func:`find_seed` (``python -m casino.teach.lesson`` prints them again) and
#: kept in the presets' table (:attr:`casino.engine.presets.Preset.lesson_seed`).
LESSON_SEEDS: dict[str, int] = {p.name: p.lesson_seed for p in PRESETS.values()}

#: The most kinds one move of the lesson's first deal may teach at once, where the hand
#: allows it: a sweep is always a pair or a sum too, but a move that is a sweep, a pair
#: and a sum at once is three ideas in one turn (see :func:`most_at_once`).
MOST_AT_ONCE = 2

#: Each kind's headline and the glossary word that defines it.
_TITLES = {
    PAIR: (pN_("lesson", "Pairing"), "pair"),
    SUM: (pN_("lesson", "Summing"), "sum"),
    BUILDING: (pN_("lesson", "Building"), "build"),
    TAKE_BUILD: (pN_("lesson", "Taking your build"), "build"),
    SWEEP: (pN_("lesson", "Sweeping"), "sweep"),
    TRAILING: (pN_("lesson", "Trailing"), "trail"),
    FREE: (pN_("lesson", "Playing on"), "capture"),
    WAIT: (pN_("lesson", "Watching"), "capture"),
    SCORING: (pN_("lesson", "The round's scoring"), "item"),
}

#: The kinds' names as the lesson lists them (what has been learned), translated where
#: shown.
_KIND_NAMES = {PAIR: pN_("lesson kind", "pair"), SUM: pN_("lesson kind", "sum"),
               BUILDING: pN_("lesson kind", "build"), SWEEP: pN_("lesson kind", "sweep"),
               TRAILING: pN_("lesson kind", "trail"),
               TAKE_BUILD: pN_("lesson kind", "take build")}


def _kind_name(kind: str) -> str:
    """``kind``'s name in the language in force."""
    return pgettext("lesson kind", _KIND_NAMES.get(kind, kind))


def lesson_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds of move the lesson of ``rules`` teaches, in :data:`ORDER`."""
    return tuple(k for k in ORDER if k != BUILDING or rules.building)


def lesson_rules(name: str) -> Rules:
    """The two-player rules of the preset ``name`` (any alias); a lesson is for two."""
    return preset(name, players=2)


def lesson_match(name: str, seed: int | None = None) -> Match:
    """The lesson's game: the arranged first deck (the preset's seed unless ``seed``),
    seat 1 dealing. KeyError for a preset without a lesson seed."""
    rules = lesson_rules(name)
    return Match(rules, seed=LESSON_SEEDS[rules.name] if seed is None else seed,
                 first_dealer=OPPONENT)


def lesson_session(name: str, seed: int | None = None, you: str = YOU) -> GameSession:
    """A lesson at the table: the learner (named ``you``) against the beginner, saved
    nowhere (a lesson is no game to resume or count)."""
    match = lesson_match(name, seed)
    players = [HUMAN, OPPONENT_LEVEL]
    return GameSession(match, players, default_names(players, match.rules, you),
                       save_path=None)


# ----------------------------------------------------------------------
# What a move shows


def ends_round(pos: Position) -> bool:
    """Whether the next move of ``pos`` is the round's last (an observation will do)."""
    return pos.stock_size == 0 and sum(pos.hand_size(s) for s in pos.rules.seats) == 1


def move_kinds(pos: Position, move: Move) -> frozenset[str]:
    """The kinds of move that ``move`` of the player to move in ``pos`` shows: a capture
    may pair, sum, take a build and sweep at once. Needs only the table, so ``pos``
    may be an observation."""
    if move.kind == TRAIL:
        return frozenset({TRAILING})
    if move.kind in (BUILD, ADD, RAISE):
        return frozenset({BUILDING})
    kinds = set()
    if any(len(g) == 1 for g in move.groups):
        kinds.add(PAIR)
    if any(len(g) > 1 for g in move.groups):
        kinds.add(SUM)
    if move.builds:
        kinds.add(TAKE_BUILD)
    loose, builds = table_after(pos, move)
    if not loose and not builds and sweep_counts(pos, ends_round=ends_round(pos)):
        kinds.add(SWEEP)
    return frozenset(kinds)


def learned(history: Iterable[tuple[Position, Move]]) -> frozenset[str]:
    """The kinds the learner has played, from their own moves (each with the position,
    or the learner's observation of it, before the move)."""
    out: set[str] = set()
    for before, move in history:
        out |= move_kinds(before, move)
    return frozenset(out)


# ----------------------------------------------------------------------
# Steps


@dataclass(frozen=True)
class Step:
    """What the lesson says now: a headline, the text, the move it suggests."""

    kind: str
    title: str
    #: What to do now, from the learner's own cards and what they see.
    text: str
    #: The same for every deal: the glossary's definition of the step's word, or what
    #: scores under the rules; it names no card of this deal (its examples are general).
    general: str = ""
    #: The suggested move in the project's notation (``5h x 5s``), or ``""``.
    move: str = ""
    #: The glossary word this step is about (its entry explains it, with the rules).
    term: str = "capture"
    #: The preset whose guide the step links to.
    preset: str = DEFAULT.name
    #: The kinds learned so far, and the kinds the lesson teaches.
    learned: tuple[str, ...] = ()
    kinds: tuple[str, ...] = field(default=())

    @property
    def anchor(self) -> str:
        """The glossary entry's anchor (the web page and docs/glossary.md alike)."""
        return BY_WORD[self.term].anchor

    @property
    def glossary_url(self) -> str:
        """Where the web game's glossary explains the step's word."""
        return f"/glossary#{self.anchor}"

    @property
    def guide_url(self) -> str:
        """Where the web game shows the preset's how-to-play guide."""
        return f"/guide/{self.preset}"

    def lines(self, rules_key: str = "F1") -> list[str]:
        """The step as the terminal shows it: headline, text, where to read more (the
        rules and the guide are behind ``rules_key``: F1 in the full-screen game, the
        ``rules`` command in the plain one)."""
        done = (", ".join(_kind_name(k) for k in self.kinds if k in self.learned)
                or _("nothing yet"))
        return [_("Lesson — %(title)s") % {"title": pgettext("lesson", self.title)},
                f"{self.text} {self.general}".strip(),
                _("Learned: %(done)s (of %(kinds)s).") % {
                    "done": done, "kinds": ", ".join(_kind_name(k) for k in self.kinds)},
                _("More: %(key)s (the rules and the guide); casino glossary %(term)s")
                % {"key": rules_key, "term": self.term}]

    def to_json(self) -> dict[str, Any]:
        """The step as the web game's lesson panel reads it, its title in the language
        in force (the text was written in it), ``names`` the kinds' names in it."""
        return {"kind": self.kind, "title": pgettext("lesson", self.title), "text": self.text,
                "general": self.general,
                "move": self.move, "term": self.term, "glossary": self.glossary_url,
                "guide": self.guide_url, "learned": list(self.learned),
                "kinds": list(self.kinds),
                "names": {k: _kind_name(k) for k in (*self.kinds, TAKE_BUILD)}}


def _definition(term: str, rules: Rules) -> str:
    """The glossary's words for ``term``, in the preset's own name for it, in the
    language in force."""
    t = BY_WORD[term]
    own, word = shown_own_name(t, rules.name), shown_word(t)
    name = own if own == word else f"{own} ({word})"
    return f"{name[:1].upper()}{name[1:]}: {shown_definition(t)}"


def _low(rules: Rules, card: int) -> int:
    """The card's lowest played value (a value-less face card: its rank), to order by."""
    return min(rules.table.played[card], default=(card >> 2) + 1)


def _examples(view: Position, moves: Sequence[Move], kind: str) -> list[Move]:
    """The moves showing ``kind``, the plainest first (showing the fewest other kinds,
    a new build before an addition or a raise, then the lowest card)."""
    shows = [(m, move_kinds(view, m)) for m in moves]
    fit = [(m, k) for m, k in shows if kind in k]
    return [m for m, _ in sorted(fit, key=lambda mk: (
        len(mk[1]), mk[0].kind != BUILD and mk[0].kind != CAPTURE and kind == BUILDING,
        len(mk[0].loose), _low(view.rules, mk[0].card), mk[0].card))]


def _trail_example(view: Position, moves: Sequence[Move]) -> Move | None:
    """The card to trail: one that captures nothing if there is one, the lowest."""
    trails = [m for m in moves if m.kind == TRAIL]
    if not trails:
        return None
    capturing = {m.card for m in moves if m.kind == CAPTURE}
    return min(trails, key=lambda m: (m.card in capturing, _low(view.rules, m.card), m.card))


def _kept(view: Position, move: Move) -> list[int]:
    """The learner's cards, other than the one played, that capture ``move``'s build."""
    hand = view.hands[view.to_move]
    assert not isinstance(hand, int)
    return [c for c in hand if c != move.card and move.value in view.rules.table.played[c]]


def _teach(view: Position, kind: str, move: Move) -> str:
    """The sentence for playing ``move`` to learn ``kind``, from the learner's cards."""
    rules = view.rules
    how = move_explanation(move, rules, whose=lambda b: "your" if b.owner == view.to_move
                           else "the")
    text = (_("Play %(move)s: lay your %(card)s on the table, taking nothing.")
            % {"move": move, "card": card_symbol(move.card)}
            if move.kind == TRAIL else _("Play %(move)s: your %(how)s.")
            % {"move": move, "how": how})
    if kind == BUILDING:
        kept = _kept(view, move)
        if kept:
            text += " " + _("Keep your %(card)s to capture the build on a later turn; "
                            "until then it is yours, and you may not trail.") % {
                                "card": card_symbol(kept[0])}
    elif kind == TAKE_BUILD:
        text = _("Your build is waiting for you. %(text)s The build's cards go to your "
                 "pile.") % {"text": text}
    elif kind == SWEEP:
        text += " " + _("That takes every card on the table.")
    return text


def _owned_builds(view: Position) -> bool:
    return any(b.owner == view.to_move for b in view.builds)


def step(view: Position, history: Iterable[tuple[Position, Move]],
         names: Sequence[str] = ("You", "Computer")) -> Step:
    """The step for the learner's observation ``view`` (``view.to_move`` may be anyone)
    after the learner's own moves ``history`` (position or observation before each).

    Everything it says comes from ``view`` and ``history``: the learner's hand, the
    table, the piles and the scores, which the learner sees."""
    rules = view.rules
    kinds = lesson_kinds(rules)
    done = learned(history)
    base: dict[str, Any] = {"preset": rules.name, "kinds": kinds,
                            "learned": tuple(k for k in (*kinds, TAKE_BUILD) if k in done)}
    if view.result is not None:
        return _scoring(view, names, base)
    if not isinstance(view.hands[view.to_move], tuple):
        title, term = _TITLES[WAIT]
        return Step(WAIT, title, _("%(name)s is playing: watch what it takes.")
                    % {"name": names[view.to_move]},
                    term=term, **base)
    moves = view.candidate_moves().moves
    wanted: list[str] = []
    if _owned_builds(view):
        wanted.append(TAKE_BUILD)
    wanted += [k for k in kinds if k not in done]
    for kind in wanted:
        example = (_trail_example(view, moves) if kind == TRAILING
                   else next(iter(_examples(view, moves, kind)), None))
        if example is None:
            continue
        title, term = _TITLES[kind]
        text = _teach(view, kind, example)
        also = [k for k in ORDER if k != kind and k in wanted
                and k in move_kinds(view, example)]
        if also:
            text += " " + _("This one move is also a %(kinds)s.") % {
                "kinds": pgettext("lesson kinds", " and a ").join(_kind_name(k)
                                                                  for k in also)}
        return Step(kind, title, text, _definition(term, rules), str(example), term=term,
                    **base)
    return _free(view, moves, done, kinds, base)


def _free(view: Position, moves: Sequence[Move], done: frozenset[str],
          kinds: Sequence[str], base: dict[str, Any]) -> Step:
    """No kind left to learn with these cards: say what the cards can do, and play on."""
    title, term = _TITLES[FREE]
    missing = [k for k in kinds if k not in done]
    can = sorted({k for m in moves for k in move_kinds(view, m)},
                 key=lambda k: (*ORDER, TAKE_BUILD).index(k))
    if missing:
        lead = _("Your cards allow no %(kinds)s this turn: watch for the chance.") % {
            "kinds": _(" or ").join(_kind_name(k) for k in missing)} + " "
    else:
        lead = _("You have played every kind of move.") + " "
    text = lead + _("This turn you can: %(kinds)s. Choose your own move (the hint key "
                    "suggests one).") % {"kinds": ", ".join(_kind_name(k) for k in can)}
    if _owned_builds(view):
        text += " " + _("You own a build: keep a card that captures it.")
    return Step(FREE, title, text, term=term, **base)


def _scoring(end: Position, names: Sequence[str], base: dict[str, Any]) -> Step:
    """Who got which points, item by item in the preset's counting order."""
    rules = end.rules
    result = end.result
    assert result is not None
    title, term = _TITLES[SCORING]
    got = [_("%(name)s %(points)s for %(item)s") % {
        "name": names[it.seat], "points": f"{it.points:+d}", "item": item_words(it)}
        for it in result.items]
    totals = ", ".join(f"{names[s]} {p}" for s, p in zip(rules.seats,
                                                          result.points_by_seat(rules.players),
                                                          strict=True))
    so_far = "; ".join(got) if got else _("nobody scored")
    if scheme(rules).penalty:
        text = _("The round is over and the captured cards are counted, item by item in the "
                 "rules' order. This round: %(items)s. In all, penalty points this round: "
                 "%(totals)s.") % {"items": so_far, "totals": totals}
    else:
        text = _("The round is over and the captured cards are counted, item by item in the "
                 "rules' order. This round: %(items)s. In all, points this round: "
                 "%(totals)s.") % {"items": so_far, "totals": totals}
    ties = tie_words(rules, end, names)
    if ties:
        text += " " + " ".join(t + "." for t in ties)
    return Step(SCORING, title, text, points_paragraph(rules), term=term, **base)


# ----------------------------------------------------------------------
# A lesson at the table


def history_of(session: GameSession, seat: int = LEARNER) -> list[tuple[Position, Move]]:
    """The moves ``seat`` played in the session's game, each with ``seat``'s observation
    of the position before it."""
    return [(before.observe(seat), move)
            for s, before, move, _ in session.match.played() if s == seat]


def session_step(session: GameSession, seat: int = LEARNER) -> Step:
    """The step for the person at ``seat`` of a lesson game, from what they see."""
    from casino.words.narrate import spoken_names

    names = [n[:1].upper() + n[1:] for n in spoken_names(session.names, seat)]
    return step(session.match.position.observe(seat), history_of(session, seat), names)


def play_lesson(session: GameSession, choose: Any = None,
                deals: int | None = None) -> list[Step]:
    """Play the session's current round to its end (or past its first ``deals`` deals),
    the learner following each step's move, or choosing with ``choose(view, step) ->
    Move`` when given (and where a step suggests none, the first candidate move); the
    steps shown at the learner's turns, then the step after. For tests and
    :func:`find_seed`."""
    steps: list[Step] = []
    while not session.round_over and (deals is None
                                      or session.match.position.deal <= deals):
        if session.human_to_move:
            s = session_step(session)
            steps.append(s)
            if choose is None and s.move:
                session.play(s.move)
            else:
                session.play(choose(session.view, s) if choose is not None
                             else session.view.candidate_moves().moves[0])
        else:
            session.computer_move()
    steps.append(session_step(session))
    return steps


def deals_learned(session: GameSession, deals: int = LESSON_DEALS) -> frozenset[str]:
    """The kinds the learner played within the first ``deals`` deals of round 1."""
    return learned((before.observe(LEARNER), move)
                   for s, before, move, _ in session.match.played()
                   if s == LEARNER and before.round == 1 and before.deal <= deals)


def most_at_once(rules: Rules) -> int:
    """The most new kinds one move of the first deal may teach in ``rules``' lesson.

    :data:`MOST_AT_ONCE`, unless the hand is too small: a build and its capture take
    two moves and a trail one, and the captures' three kinds (sweep, pair, sum) need
    two moves more (a sweep is a pair or a sum too); a four-card hand with builds has
    one move left, so that move teaches all three."""
    moves = rules.first_hand - 1 - (2 if BUILDING in lesson_kinds(rules) else 0)
    return MOST_AT_ONCE if moves >= 2 else 3


def find_seed(name: str, start: int = 0, tries: int = 20_000) -> int:
    """The first seed from ``start`` whose lesson teaches every kind of the preset within
    :data:`LESSON_DEALS` deals to a learner who follows the steps, a build the learner
    makes there taken by the learner too (not first by the computer), and no move
    teaching more than :func:`most_at_once` kinds it had not taught yet. Bounded:
    ValueError after ``tries`` seeds."""
    rules = lesson_rules(name)
    want = set(lesson_kinds(rules))
    most = most_at_once(rules)
    for seed in range(start, start + tries):
        session = lesson_session(rules.name, seed)
        kinds = [s.kind for s in play_lesson(session, deals=LESSON_DEALS)]
        if (want <= deals_learned(session) and max(new_kinds(session)) <= most
                and (BUILDING not in want or TAKE_BUILD in kinds)):
            return seed
    raise ValueError(f"no lesson seed for {name} in {start}..{start + tries - 1}")


def new_kinds(session: GameSession, deals: int = LESSON_DEALS) -> list[int]:
    """How many kinds each of the learner's moves of the first ``deals`` deals of round
    1 taught that no earlier move had."""
    done: frozenset[str] = frozenset()
    counts: list[int] = []
    for s, before, move, _after in session.match.played():
        if s == LEARNER and before.round == 1 and before.deal <= deals:
            new = learned([(before.observe(LEARNER), move)]) - done
            done |= new
            counts.append(len(new))
    return counts


if __name__ == "__main__":  # print the seeds again
    from casino.engine.rules import PRESET_NAMES

    for preset_name in PRESET_NAMES:
        print(f"    {preset_name}: lesson_seed {find_seed(preset_name)}")
