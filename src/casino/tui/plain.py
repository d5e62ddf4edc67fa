"""``casino play --plain``: the terminal game line by line, for screen readers and pipes.

The full-screen game redraws the screen, which a screen reader cannot follow
and a pipe cannot hold. This mode prints each thing once, in words, in the
order it happens, and reads one line at a time: a hand card by number (then
one of its legal options by number, or ``with`` and table letters to list those
using these items), or a move in notation, or a command. Lists of moves are
ranked and capped (:mod:`casino.words.shortlist`) and none is made by listing every
legal move: a crowded table has hundreds of thousands of them. It
offers what the full-screen game offers (hint, undo, move log, rules, save,
play again) and draws only :attr:`GameSession.view`, so hidden cards stay
hidden. No colours or box drawing: suit symbols are the only non-ASCII text,
and input also takes suit letters (``9d x 9c``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from casino.engine.builds import Build
from casino.engine.cards import card_symbol, card_text
from casino.engine.errors import IllegalMove
from casino.engine.explain import forced_play
from casino.engine.legality import MoveList, ranked
from casino.engine.match import shuffle_words
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.record import read_record
from casino.engine.rules import describe
from casino.engine.scheme import scheme
from casino.engine.wording import build_notation, listing, table_item_words, unit_word
from casino.i18n import _, ngettext, pgettext, pN_
from casino.play.console import LineConsole, Stopped
from casino.play.session import Entry, GameSession
from casino.play.standing import round_so_far, unseen
from casino.teach.hint import session_hint
from casino.teach.report import report_lines
from casino.teach.review import review as review_of
from casino.words.narrate import move_phrase, result_lines, tally, winner_words
from casino.words.shortlist import MAX_SHOWN, Shortlist, rest_words, shortlist

#: Words typed at the move prompt, besides card numbers and moves in notation.
COMMANDS = ("hint", "undo", "moves", "cards", "log", "log all", "table", "look", "save ",
            "rules", "help", "quit")

HELP = (
    pN_("help", "How to play:"),
    pN_("help", "  Type a card's number from your hand (1, 2, ...) to see what it can do,"),
    pN_("help", "  then the number of the option you want (or back); with and table letters"),
    pN_("help", "  (with a c) list its options that use those table items."),
    pN_("help", "  A card's number and table letters together (2 a c) play that card with"),
    pN_("help", "  those items, or list the ways it can when there are several."),
    pN_("help", "  Or type a move in notation: 9d x 9c 4c+5h takes, 5d+3s =8 builds, 7h trails."),
    pN_("help", "  Suits can be letters (s c h d) or symbols; 10 can be T."),
    pN_("help", "Commands:"),
    pN_("help", "  ? or hint   the best play by the judge, and why"),
    pN_("help", "  undo        take back your last move (within this deal)"),
    pN_("help", "  moves       your legal moves, numbered, the strongest first (at most %(n)s);"),
    pN_("help", "              then a number plays that move"),
    pN_("help", "  cards       the cards you have not seen this round (the"
                " others' hands, the stock)"),
    pN_("help", "  log         the moves of this round (log all: the whole game)"),
    pN_("help", "  table       the table, the hands and the scores again (also: look)"),
    pN_("help", "  save FILE   save the game to FILE; later moves are saved there too"),
    pN_("help", "  rules       the rules being played"),
    pN_("help", "  quit        stop; the game is saved after every move and can be resumed"),
)

#: A card's number and table letters: ``2 a``, ``2 a c``, ``2 with a c``.
_CARD_WITH = re.compile(r"(\d+)\s+(?:with\s+)?([a-z]{1,2}(?:[\s,]+[a-z]{1,2})*)")


def run_plain(session: GameSession, new_game: Callable[[], GameSession] | None, *,
              stdin: TextIO, stdout: TextIO, pause: float = 0.0, lesson: bool = False,
              review: dict[str, Any] | None = None) -> None:
    """Play ``session`` line by line until it ends, the person quits, or the input ends.

    ``new_game`` makes a fresh session for "Play again?" (None: not offered).
    ``pause`` is how long to wait after each computer move, so that a reader
    can follow them one at a time (0 for pipes and tests). ``lesson``: a lesson game
    (casino.teach.lesson), whose step is shown before each prompt. ``review`` is how
    the end's review judges (the review's defaults when None).
    """
    game = PlainGame(session, stdin=stdin, stdout=stdout, pause=pause, lesson=lesson)
    game.review_settings = dict(review or {})
    with game.console.completion(game.completions):
        try:
            while game.play():
                if new_game is None:
                    if game.ask_yes_no(_("Review your play? [y/n] "), yes=("review",)):
                        game.show_review()
                    break
                if not game.ask_yes_no(_("Play again? [y/n] "), review=True):
                    break
                game.session = new_game()
        except (KeyboardInterrupt, Stopped):  # Ctrl-C: stop as quit does
            game.say("", game.stopped())


class PlainGame:
    """One person's game at the terminal, as lines of text in and out."""

    def __init__(self, session: GameSession, *, stdin: TextIO, stdout: TextIO,
                 pause: float = 0.0, lesson: bool = False) -> None:
        self.session = session
        #: A lesson game: the lesson's step is shown before each prompt and at the end.
        self.lesson = lesson
        #: Lines out, lines in: a quit word or the end of the input raises
        #: :class:`~casino.play.console.Stopped` at any prompt.
        self.console = LineConsole(stdin, stdout)
        self._pause = pause
        self._fresh = True  # the state has changed since it was last shown
        #: How the end's review judges (the review's defaults unless a test asks for
        #: less work).
        self.review_settings: dict[str, Any] = {}

    # ------------------------------------------------------------------
    # Input and output

    def say(self, *lines: str) -> None:
        """Print lines to the person (through the console, which also echoes piped input)."""
        self.console.say(*lines)

    def read(self, prompt: str) -> str:
        """One line from the person, stripped; :class:`Stopped` at a quit word or the end
        of the input."""
        return self.console.ask(prompt)

    def ask_yes_no(self, prompt: str, *, review: bool = False,
                   yes: tuple[str, ...] = ()) -> bool:
        """Yes or no (or one of the ``yes`` words); a quit word or the end of the input
        is no. With ``review``, the answer ``review`` shows the finished game's review
        and asks again."""
        while True:
            try:
                answer = self.read(prompt).lower()
            except Stopped:
                return False
            if answer in ("y", "yes", *yes) or answer in _yes_words():
                return True
            if answer in ("n", "no") or answer in _no_words():
                return False
            if review and answer == "review":
                self.show_review()
                continue
            self.say(_("Please answer y or n, or review.") if review
                     else _("Please answer y or n."))

    def show_review(self) -> None:
        """The review of the person's decisions in the finished game, as ``casino review``
        prints it."""
        s = self.session
        record = read_record(s.record_text())
        self.say("", _("Judging each of your decisions from what you could see then…"))
        result = review_of(record, s.human, **self.review_settings)
        lines = report_lines(result, record)
        # No graph here: this mode is read by screen readers, and the margin after
        # each decision is a column of the table.
        self.say(*lines, "")

    # ------------------------------------------------------------------
    # The game

    @property
    def _unit(self) -> str:
        """What a scored deal-cycle is called: a game in Krypkasino, a round elsewhere."""
        return unit_word(self.session.rules.round_word)

    def play(self) -> bool:
        """Play until the game is over (True) or the person stops (False)."""
        self._intro()
        try:
            while True:
                s = self.session
                if s.round_over:
                    self._show_result()
                    if s.game_over:
                        return True
                    self._between_rounds()
                    s.next_round()
                    self._fresh = True
                elif s.computer_to_move:
                    self._computer_moves()
                else:
                    self._turn()
        except Stopped:
            self.say(self.stopped())
            return False

    def stopped(self) -> str:
        """The last words when the person stops: where the game is saved, so it can be
        resumed, or that it was not."""
        where = self.session.save_path
        if where is None:
            return _("Stopped. The game was not saved.")
        return _("Stopped. The game is saved in %(where)s.") % {"where": where}

    def _intro(self) -> None:
        s = self.session
        rules = s.rules
        players = s.describe_players()
        me = rules.team_of(s.human)
        partners = [p for seat, p in enumerate(players)
                    if seat != s.human and rules.partnerships and rules.team_of(seat) == me]
        others = [p for seat, p in enumerate(players)
                  if seat != s.human and p not in partners]
        you = _("You") if s.names[s.human] == "You" else _("You (%(name)s)") % {
            "name": players[s.human]}
        if partners:
            you = _("%(you)s and %(partners)s") % {"you": you, "partners": listing(partners)}
        self.say(describe(rules)[0] + ".", _("%(you)s play against %(others)s.") % {
            "you": you, "others": listing(others)})
        if s.match.seed is not None:  # a seeded game's deals are no secret: say so
            self.say(_("A practice game: %(shuffle)s deals the same cards every time.")
                     % {"shuffle": shuffle_words(s.match.seed)})
        self.say(_("Type help for how to play, rules for the rules."))
        if s.log:
            self.say(ngettext("Resuming: %(n)s move played so far.",
                              "Resuming: %(n)s moves played so far.", len(s.log))
                     % {"n": len(s.log)},
                     _("Last move: %(move)s.") % {"move": s.log[-1].words})
        self._fresh = True

    def _computer_moves(self) -> None:
        """The computers' moves, one line each; the last before your turn says so."""
        s = self.session
        while s.computer_to_move:
            entry = s.computer_move()
            last = not s.computer_to_move
            self.say(_("Last move: %(move)s.") % {"move": entry.words} if last
                     else entry.words + ".")
            self._fresh = True
            if self._pause > 0:
                time.sleep(self._pause)

    def _turn(self) -> None:
        if self._fresh:
            self.say("", *self.state_lines())
            if self.lesson:
                self._lesson_step()
            self._fresh = False
        line = self.read(_("Your move> "))
        self.handle(line)

    def handle(self, line: str) -> None:
        """What the person typed at the move prompt."""
        s = self.session
        word = line.lower()
        if not line:
            n = len(s.view.hand(s.human))
            self.say(_("Type a card number (1-%(n)s), a move such as 7h, or help.") % {"n": n})
        elif word.isdigit():
            self._pick(int(word))
        elif (found := _CARD_WITH.fullmatch(word)) is not None:
            self._pick(int(found[1]), found[2])
        elif self.console.is_quit(word):  # typed at the prompt, the console stops first
            raise Stopped
        elif word in ("?", "hint"):
            self._hint()
        elif word == "undo":
            self._undo()
        elif word == "moves":
            self._moves()
        elif word == "cards":
            self.say(self.cards_line())
        elif word in ("log", "log all"):
            self._log(whole=word == "log all")
        elif word in ("table", "look", "state"):
            self.say(*self.state_lines(with_last=True))
        elif word == "save" or word.startswith("save "):
            self._save(line[4:].strip())
        elif word == "rules":
            self.say(*describe(s.rules))
        elif word in ("help", "h"):
            self.say(*help_lines())
        else:
            self._play(line)

    def _play(self, move: Move | str) -> None:
        try:
            entry = self.session.play(move)
        except IllegalMove as exc:
            self.say(_("Not allowed: %(why)s") % {"why": _sentence(exc)})
            return
        self.say(entry.words + ".")
        self._fresh = True

    def _moves(self) -> None:
        """The person's moves, strongest first, capped and numbered; a number then plays
        one (as after a card's number); and how to see the rest."""
        short = shortlist(self.session.candidate_moves())
        total = short.total
        if short.everything:
            head = _("Your legal moves:")
        elif total is not None:
            head = _("Your %(n)s strongest moves of %(total)s:") % {"n": len(short.moves),
                                                                   "total": total}
        else:
            head = _("Some of your legal moves (the table is crowded: too many to list):")
        moves = list(short.moves)
        lines = [head, *(f"{i}. {self._option(m)}" for i, m in enumerate(moves, start=1))]
        if not short.everything:
            lines.append(_("... %(rest)s: type a card's number to see its options, or a "
                           "move in notation.") % {"rest": rest_words(short, "move")})
        self.say(*lines)
        if moves:
            self._choose(moves, None)

    def _pick(self, number: int, letters: str | None = None) -> None:
        """A hand card by its number: its legal options, and one of them by number;
        ``with`` and table letters narrow them to those using these items. With
        ``letters`` (``2 a c``), the card with those table items: played when one legal
        move uses exactly them, else the moves using them are listed to choose from."""
        s = self.session
        hand = s.view.hand(s.human)
        if not 1 <= number <= len(hand):
            self.say(_("There is no card %(n)s: your hand has cards 1 to %(last)s.")
                     % {"n": number, "last": len(hand)})
            return
        card = hand[number - 1]
        if letters is not None:
            found = self._using(card, letters)
            if found is None:
                return
            moves, exact, short, words = found
            if exact == 1:
                self._play(moves[0])
                return
            self._list_options(_with_using(card, words), moves, short)
            self._choose(moves, card)
            return
        short = shortlist(s.options_of(card))
        moves = list(short.moves)
        if not moves:
            reason = ""
            try:
                s.view.parse_move(card_text(card))
            except IllegalMove as exc:
                reason = f": {_sentence(exc)}"
            self.say(_("The %(card)s has no legal move now%(reason)s")
                     % {"card": card_symbol(card), "reason": reason or "."})
            return
        self._list_options(_("With the %(card)s you can:") % {"card": card_symbol(card)},
                           moves, short)
        self._choose(moves, card)

    def _choose(self, moves: list[Move], card: int | None) -> None:
        """Read which of the numbered ``moves`` to play; for a card's options, ``with`` and
        table letters list those using these items instead. Anything else is a move in
        notation or a command, as at the move prompt."""
        while True:
            line = self.read(_("Choose %(span)s, or back> ") % {
                "span": "1" if len(moves) == 1 else f"1-{len(moves)}"})
            word = line.lower()
            if word in ("", "b", "back"):
                self.say(_("Back to your hand."))
                return
            if word.isdigit():
                k = int(word)
                if 1 <= k <= len(moves):
                    self._play(moves[k - 1])
                    return
                self.say(_("There is no option %(k)s: choose 1 to %(last)s, or back.")
                         % {"k": k, "last": len(moves)})
                continue
            if card is not None and (word == "with" or word.startswith("with ")):
                found = self._using(card, word[4:])
                if found is not None:
                    narrowed, _exact, short, words = found
                    self._list_options(_with_using(card, words), narrowed, short)
                    moves = narrowed
                continue
            self.handle(line)  # a move in notation or a command
            return

    def _list_options(self, head: str, moves: Sequence[Move], short: Shortlist) -> None:
        lines = [head, *(f"{i}. {self._option(m)}" for i, m in enumerate(moves, start=1))]
        if not short.everything:
            lines.append(_("... %(rest)s: type with and the table letters of the cards to use "
                           "(with a c), or a move in notation.")
                         % {"rest": rest_words(short, "option")})
        self.say(*lines)

    def _using(self, card: int, letters: str) -> tuple[list[Move], int, Shortlist, str] | None:
        """The options of ``card`` using the table items named by ``letters`` (``a c``):
        those using exactly these items first (how many, second), what the list left
        out, and the items in words. None, having said why, when there are none."""
        s = self.session
        table = s.view.table
        labels = {_letter(i): i for i in range(len(table))}
        names = letters.replace(",", " ").split()
        if not names:
            self.say(_("Type with and the letters of table items, as with a c."))
            return None
        missing = [n for n in names if n not in labels]
        if missing:
            span = f"a-{_letter(len(table) - 1)}" if len(table) > 1 else "a"
            self.say(_("There is no table item %(item)s: the table has %(span)s.")
                     % {"item": missing[0], "span": span.replace("-", _(" to "))} if table
                     else _("There is no table item %(item)s: the table is empty.")
                     % {"item": missing[0]})
            return None
        if len(set(names)) != len(names):
            self.say(_("Name each table item once."))
            return None
        items = [table[labels[n]] for n in names]
        words = listing([table_item_words(x) for x in items])
        picked = s.moves_using(card, items)
        exact = ranked(picked.exact)[:MAX_SHOWN]
        short = shortlist(MoveList(picked.more, picked.complete),
                          limit=max(1, MAX_SHOWN - len(exact)))
        moves = [*exact, *short.moves][:MAX_SHOWN]
        if not moves:
            self.say(_("No legal move plays the %(card)s with %(items)s.")
                     % {"card": card_symbol(card), "items": words})
            return None
        return moves, len(exact), short, words

    def _option(self, move: Move) -> str:
        """``take 9♣ with the 9♦  (9d x 9c)``: a move in words, then in notation."""
        return f"{move_phrase(move, self.session.rules)}  ({move})"

    def _hint(self) -> None:
        s = self.session
        refusal = s.why_no_hint()
        if refusal is not None:  # a resumed game of a table with hints off
            self.say(_("No hint: %(why)s.") % {"why": refusal})
            return
        self.say(_("Thinking..."))
        move, advice = session_hint(s)
        s.hint_given()  # the record notes every hint shown
        hand = s.view.hand(s.human)
        number = hand.index(move.card) + 1
        self.say(_("Hint: %(move)s; it plays card %(n)s.") % {"move": self._option(move),
                                                               "n": number},
                 _("  Why: %(reason)s") % {"reason": advice.best.reason})

    def _undo(self) -> None:
        try:
            taken = self.session.undo()
        except IllegalMove as exc:
            self.say(_("Cannot undo: %(why)s") % {"why": _sentence(exc)})
            return
        self.say(_("Taken back:"), *(f"  {e.words}." for e in taken))
        self._fresh = True

    def _log(self, *, whole: bool) -> None:
        s = self.session
        rnd = s.view.round
        entries = [e for e in s.log if whole or e.round == rnd]
        if not entries:
            self.say(_("No moves yet this %(unit)s.") % {"unit": self._unit})
            return
        self.say(*_log_lines(entries, self._unit.capitalize()))

    def _save(self, name: str) -> None:
        s = self.session
        if not name:
            where = (_("It is saved in %(path)s after every move.") % {"path": s.save_path}
                     if s.save_path is not None else _("It is not being saved."))
            self.say(_("Type save and a file name, as: save mygame.rec. %(where)s")
                     % {"where": where})
            return
        path = Path(name).expanduser()
        try:
            s.save_as(path)
        except OSError as exc:
            self.say(_("Cannot save to %(path)s: %(why)s.") % {"path": path,
                                                              "why": exc.strerror or exc})
            return
        self.say(_("Saved to %(path)s. Later moves are saved there too.") % {"path": path})

    # ------------------------------------------------------------------
    # Showing the state

    def state_lines(self, *, with_last: bool = False) -> list[str]:
        """Where the game stands, from the person's view, in a few short lines."""
        s = self.session
        view = s.view
        rules = s.rules
        stock = (ngettext("Stock: %(n)s card.", "Stock: %(n)s cards.", view.stock_size)
                 % {"n": view.stock_size} if view.stock_size
                 else _("Stock: empty, this is the last deal."))
        lines = [_("%(unit)s %(round)s, deal %(deal)s of %(deals)s. %(dealer)s dealt. %(stock)s")
                 % {"unit": self._unit.capitalize(), "round": view.round, "deal": view.deal,
                    "deals": rules.deals_per_round, "dealer": s.shown_names[view.dealer],
                    "stock": stock}]
        if with_last and s.log:
            lines.append(_("Last move: %(move)s.") % {"move": s.log[-1].words})
        lines.append(table_line(view, s.shown_names, s.human))
        if view.set_aside:
            lines.append(_("Set aside: %(cards)s.") % {
                "cards": ", ".join(card_symbol(c) for c in view.set_aside)})
        for seat, name in enumerate(s.shown_names):
            captured = tally(view, seat).words()
            if seat == s.human:
                lines.append(_("%(name)s: captured %(tally)s.") % {"name": name,
                                                                   "tally": captured})
            else:
                n = view.hand_size(seat)
                lines.append(ngettext("%(name)s: %(n)s card in hand; captured %(tally)s.",
                                      "%(name)s: %(n)s cards in hand; captured %(tally)s.", n)
                             % {"name": name, "n": n, "tally": captured})
        lines.append(score_line(s, view.scores))
        lines.extend(self.standing_lines())
        if s.human_to_move and (forced := forced_play(view)):
            lines.append(f"{forced[:1].upper()}{forced[1:]}.")
        hand = view.hand(s.human)
        lines.append(_("Your hand: %(cards)s.") % {"cards": ", ".join(
            f"{i}: {card_symbol(c)}" for i, c in enumerate(hand, start=1))})
        if s.to_move != s.human and not s.round_over:
            lines.append(_("%(name)s to play.") % {"name": s.shown_names[s.to_move]})
        return lines

    def standing_lines(self) -> list[str]:
        """The points of this round so far and who captured last, from the person's view."""
        s = self.session
        view = s.view
        so_far = round_so_far(view)
        parts = ", ".join(f"{_team_name(s, t)} {so_far[t]}" for t in s.rules.teams)
        so_far_words = (_("This %(unit)s so far in penalty points: %(parts)s (the piles as "
                          "they stand).") if scheme(s.rules).penalty
                        else _("This %(unit)s so far: %(parts)s (the piles as they stand)."))
        lines = [so_far_words % {"unit": self._unit, "parts": parts}]
        taker = view.last_capture
        if taker is None:
            lines.append(_("Nobody has captured yet this %(unit)s.") % {"unit": self._unit})
        else:
            lines.append((_("Last capture: %(name)s; the cards left on the table at the end "
                            "go to you.") if taker == s.human
                          else _("Last capture: %(name)s; the cards left on the table at the "
                                 "end go to them.")) % {"name": s.shown_names[taker]})
        return lines

    def cards_line(self) -> str:
        """The cards the person has not seen this round, and where they can be."""
        s = self.session
        left = unseen(s.view, s.human)
        others = [seat for seat in s.rules.seats if seat != s.human]
        holders = (_("%(name)s holds %(n)s") % {"name": s.shown_names[others[0]],
                                                 "n": left.in_hands}
                   if len(others) == 1 else _("the others hold %(n)s") % {"n": left.in_hands})
        return _("Unseen cards (%(n)s: %(holders)s, the stock %(stock)s): %(cards)s.") % {
            "n": left.count, "holders": holders, "stock": left.in_stock,
            "cards": left.words()}

    def _lesson_step(self) -> None:
        """The lesson's step for the person's seat (casino.teach.lesson), from what they
        see."""
        from casino.teach.lesson import session_step

        self.say("", *session_step(self.session, self.session.human).lines("rules"))

    def _show_result(self) -> None:
        s = self.session
        result = s.result
        assert result is not None
        before = s.scores_before_round
        unit = self._unit
        self.say("", _("End of %(unit)s %(round)s. The scoring, in counting order:")
                 % {"unit": unit, "round": s.view.round},
                 *(f"  {line.rstrip()}" for line in result_lines(result, s.rules, s.shown_names,
                                                                 before, s.view)),
                 score_line(s, result.scores),
                 winner_words(result, s.rules, s.shown_names, before))
        if s.game_over:
            winner = result.winner
            assert winner is not None
            team = _team_name(s, winner)
            verdict = _("You win") if s.rules.team_of(s.human) == s.rules.team_of(winner) \
                else _("%(name)s wins") % {"name": team}
            self.say(_("Game over: %(verdict)s.") % {"verdict": verdict},
                     _("Answer review to the next question to have your decisions judged."))
        if self.lesson:
            self._lesson_step()

    def _between_rounds(self) -> None:
        unit = self._unit
        while True:
            line = self.read(_("Press Enter for the next %(unit)s> ") % {"unit": unit})
            word = line.lower()
            if word in ("log", "log all"):
                self._log(whole=word == "log all")
            elif word == "rules":
                self.say(*describe(self.session.rules))
            elif word == "save" or word.startswith("save "):
                self._save(line[4:].strip())
            elif word in ("help", "h"):
                self.say(_("Press Enter to deal the next %(unit)s; log, rules, save FILE "
                           "and quit work here too.") % {"unit": unit})
            else:
                return

    # ------------------------------------------------------------------
    # Completion

    def completions(self, text: str) -> list[str]:
        """What Tab can complete ``text`` to: legal moves in notation (on a crowded table,
        a bounded selection of them) and commands."""
        words = [str(m) for m in self.session.candidate_moves().moves] + list(COMMANDS)
        low = text.lower()
        return sorted({w for w in words if w.lower().startswith(low)})


# ----------------------------------------------------------------------
# Lines


def table_line(view: Position, names: Sequence[str], human: int) -> str:
    """``Table: a: 9♣, b: [5♦+3♠] build of 8 (Computer's).``: each item with a letter."""
    if not view.table:
        return _("Table: empty.")
    items = []
    for i, item in enumerate(view.table):
        text = card_symbol(item) if isinstance(item, int) else build_label(item, names, human)
        items.append(f"{_letter(i)}: {text}")
    return _("Table: %(items)s.") % {"items": ", ".join(items)}


def build_label(b: Build, names: Sequence[str], human: int) -> str:
    """``[5♦+3♠] build of 8 (yours)``; a multiple build shows its groups."""
    values = {"cards": build_notation(b.groups, symbols=True), "value": b.value,
              "name": names[b.owner]}
    if b.owner == human:
        text = (_("%(cards)s multiple build of %(value)s (yours)") if b.multiple
                else _("%(cards)s build of %(value)s (yours)"))
    else:
        text = (_("%(cards)s multiple build of %(value)s (%(name)s's)") if b.multiple
                else _("%(cards)s build of %(value)s (%(name)s's)"))
    return text % values


def score_line(s: GameSession, scores: Sequence[int]) -> str:
    """The totals of each side and what wins: the target, or for penalty points that lower
    is better."""
    rules = s.rules
    parts = ", ".join(f"{_team_name(s, t)} {scores[t]}" for t in rules.teams)
    if scheme(rules).penalty:
        return _("Penalty points: %(parts)s (lower is better).") % {"parts": parts}
    return _("Scores: %(parts)s; %(target)s to win.") % {"parts": parts,
                                                          "target": rules.target}


def help_lines() -> list[str]:
    """:data:`HELP` in the language in force."""
    return [pgettext("help", line) % {"n": MAX_SHOWN} if "%(n)s" in line
            else pgettext("help", line) for line in HELP]


def _with_using(card: int, words: str) -> str:
    """The head of the options of ``card`` that use the table items ``words``."""
    return _("With the %(card)s using %(items)s you can:") % {"card": card_symbol(card),
                                                             "items": words}


def _yes_words() -> tuple[str, ...]:
    """Yes in the language in force, besides English's ``y`` and ``yes``."""
    return (pgettext("answer", "y"), pgettext("answer", "yes"))


def _no_words() -> tuple[str, ...]:
    """No in the language in force, besides English's ``n`` and ``no``."""
    return (pgettext("answer", "n"), pgettext("answer", "no"))


def _team_name(s: GameSession, seat: int) -> str:
    rules = s.rules
    if not rules.partnerships:
        return s.shown_names[seat]
    return listing([n for i, n in enumerate(s.shown_names)
                    if rules.team_of(i) == rules.team_of(seat)])


def _log_lines(entries: Sequence[Entry], unit: str) -> list[str]:
    lines: list[str] = []
    where: tuple[int, int] | None = None
    for e in entries:
        if (e.round, e.deal) != where:
            where = (e.round, e.deal)
            lines.append(_("%(unit)s %(round)s, deal %(deal)s:")
                         % {"unit": unit, "round": e.round, "deal": e.deal})
        lines.append(f"  {e.words}.")
    return lines


def _letter(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < len(letters) else letters[i // 26 - 1] + letters[i % 26]


def _sentence(exc: Exception) -> str:
    """An error message as a sentence with one final stop."""
    text = str(exc).strip()
    return text if text.endswith((".", "!", "?")) else text + "."
