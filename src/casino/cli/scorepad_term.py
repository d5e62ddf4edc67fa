"""The score pad in the terminal (``casino score``), one plain line at a time.

Like a paper pad beside a real deck: set up the names and the ruleset, then
after each round type what the table counted. The pad shows the round's items
in counting order with the running totals, and the winner by the preset's
rule. Past rounds can be corrected (everything after is rescored), changes
undone, and the pad saved to and loaded from a JSON file (``--file`` saves
after every change). ``print`` shows the whole sheet for printing.

All the scoring is :mod:`casino.tools.scorepad` (and through it the engine's own
:mod:`casino.engine.scoring`); this module only asks and shows. The command's options
are in :mod:`casino.cli.scorepad`, which imports this module only when the
command runs (``casino --help`` stays quick).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from casino.engine.cards import card_symbol, parse_card
from casino.engine.errors import CardError, RulesError
from casino.engine.files import file_error
from casino.engine.presets import DEFAULT
from casino.engine.rules import PRESET_NAMES, describe, player_counts, preset
from casino.i18n import _, pgettext, pN_
from casino.play.console import LineConsole, Stopped
from casino.tools.scorepad import (
    Field,
    RoundEntry,
    ScorePad,
    ScorePadError,
    scoring_cards,
)
from casino.words.narrate import item_words, winner_words

#: The pad's commands, as ``help`` lists them: the command words stay English (they are
#: typed), their descriptions are translated where the list is shown.
HELP = (
    pN_("score help", "Commands:"),
    pN_("score help", "  round (or r)   enter the next round"),
    pN_("score help", "  fix N          correct round N (Enter keeps each answer); later "
                      "rounds are rescored"),
    pN_("score help", "  remove N       remove round N"),
    pN_("score help", "  undo           take back the last change"),
    pN_("score help", "  show [N]       the totals, or round N item by item"),
    pN_("score help", "  print          the whole sheet, for printing"),
    pN_("score help", "  save FILE      save the pad to FILE (and after every change from "
                      "then on)"),
    pN_("score help", "  load FILE      open a pad saved earlier"),
    pN_("score help", "  rules          the rules being scored"),
    pN_("score help", "  help           this list"),
    pN_("score help", "  quit           stop (the pad is saved if it has a file)"),
)

#: The labels of the questions of a round (:func:`casino.tools.scorepad.fields`), shown
#: translated (``pgettext("score field", label)``); a label not here is shown as it is.
FIELD_LABELS = (
    pN_("score field", "Cards captured"), pN_("score field", "Spades captured"),
    pN_("score field", "Other spades"), pN_("score field", "Scoring cards"),
    pN_("score field", "Sweeps"), pN_("score field", "Tablas"),
    pN_("score field", "Mulles"), pN_("score field", "Last capture"),
)


def _label(fld: Field) -> str:
    """The question's label in the language in force."""
    return pgettext("score field", fld.label)


def _cards_text(cards: Sequence[int], empty: str) -> str:
    """Cards as symbols, or ``empty`` (already translated) for none."""
    return " ".join(card_symbol(c) for c in cards) or empty

class _Back(Exception):
    """The person abandoned the round being entered."""


class ScoreSession:
    """The score pad at the terminal: lines in, lines out.

    A quit word or the end of the input stops it at any prompt
    (:class:`~casino.play.console.Stopped`, from :meth:`ask`).
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, pad: ScorePad | None = None,
                 file: Path | None = None) -> None:
        self.console = LineConsole(stdin, stdout)
        self.pad = pad
        self.file = file

    # --- input and output ------------------------------------------------
    def say(self, *lines: str) -> None:
        """Print lines (through the console, which also echoes piped input)."""
        self.console.say(*lines)

    def ask(self, prompt: str) -> str:
        """One line, stripped; :class:`Stopped` at a quit word or the end of the input."""
        return self.console.ask(prompt)

    # --- setting up --------------------------------------------------------
    def setup(self, rules_name: str | None, players: int | None,
              names: Sequence[str] | None) -> ScorePad:
        """A new pad: the ruleset, the number of players and their names, each asked until
        it is one the rules allow (those given on the command line are not asked)."""
        while True:
            name = rules_name or self.ask(_("Ruleset (%(names)s) [casino]: ") % {
                "names": ", ".join(PRESET_NAMES)}) or DEFAULT.name
            try:
                counts = player_counts(name)
                break
            except RulesError as exc:
                self.say(f"  {exc}")
                rules_name = None
        if not counts:
            raise ScorePadError(_("%(name)s has no player count the pad knows")
                                % {"name": name})
        if names:
            players = players or len(names)
        while players is None:
            if len(counts) == 1:
                players = counts[0]
                break
            answer = self.ask(_("Players (%(counts)s) [%(first)s]: ") % {
                "counts": ", ".join(map(str, counts)), "first": counts[0]})
            if not answer:
                players = counts[0]
            elif answer.isdigit() and int(answer) in counts:
                players = int(answer)
            else:
                self.say(_("  %(name)s is played by %(counts)s players") % {
                    "name": name,
                    "counts": pgettext("score pad", " or ").join(map(str, counts))})
        rules = preset(name, players=players)
        if rules.partnerships:
            self.say(_("Partners sit opposite: the 1st and 3rd names against the 2nd and "
                       "4th."))
        while True:
            if not names:
                answer = self.ask(_("Names of the %(n)s players in seat order, separated "
                                    "by commas: ") % {"n": players})
                names = [n.strip() for n in answer.split(",")]
            try:
                return ScorePad(rules, tuple(names))
            except ScorePadError as exc:
                self.say(f"  {exc}")
                names = None

    # --- the loop ---------------------------------------------------------
    def run(self) -> None:
        """Read commands until ``quit`` or the end of the input, after saying the game and
        the totals so far."""
        assert self.pad is not None
        self.say(describe(self.pad.rules)[0] + ": " + self.versus())
        self.say(_("Type 'round' after each round to enter what the table counted "
                   "('help' lists the commands)."))
        if self.pad.rounds:
            self.show_totals()
        while True:
            try:
                line = self.ask("score> ")
            except Stopped:
                return
            try:
                self.command(line)
            except Stopped:
                return
            except _Back:
                self.say(_("  (round not entered)"))

    def versus(self) -> str:
        """``Ann vs Bob``: the sides, partners named together."""
        assert self.pad is not None
        return pgettext("score pad", " vs ").join(self.pad.side_name(s)
                                                  for s in self.pad.sides)

    def command(self, line: str) -> None:
        """Carry out one command line (``round``, ``fix N``, ``undo``, ``show N``, ``save``,
        ``load``, ``help``...); an unknown word is refused, pointing to ``help``."""
        assert self.pad is not None
        word, _sep, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        if not word:
            return
        if word in ("round", "r", "add", "new"):
            if self.pad.is_over:
                self.say(_("  The game is over: %(name)s won. Use 'fix N' to correct a "
                           "round, or start a new pad.") % {"name": self.winner_name()})
                return
            self.enter_round(None)
        elif word in ("fix", "edit", "correct"):
            index = self.round_number(arg)
            if index is not None:
                self.enter_round(index)
        elif word in ("remove", "delete"):
            gone = self.round_number(arg)
            if gone is not None:
                self.change(lambda p: p.remove_round(gone),
                            _("Round %(n)s removed.") % {"n": gone + 1})
        elif word == "undo":
            self.change(lambda p: p.undo(), _("Undone."))
        elif word in ("show", "totals", "table"):
            if arg:
                index = self.round_number(arg)
                if index is not None:
                    self.show_round(index)
            else:
                self.show_totals()
        elif word == "print":
            self.say(*pad_sheet(self.pad))
        elif word == "save":
            if not arg:
                self.say(_("  save FILE: name the file"))
                return
            self.file = Path(arg).expanduser()
            self.save()
        elif word in ("load", "open"):
            self.load(arg)
        elif word == "rules":
            self.say(*describe(self.pad.rules))
        elif word in ("help", "?", "h"):
            self.say(*(pgettext("score help", line) for line in HELP))
        else:
            self.say(_("  unknown command %(word)r; type 'help' for the list")
                     % {"word": word})

    def round_number(self, arg: str) -> int | None:
        """The index of the round numbered ``arg`` (from 1), or None after saying which
        rounds there are."""
        assert self.pad is not None
        n = len(self.pad.rounds)
        if not arg.isdigit() or not 1 <= int(arg) <= n:
            self.say(_("  give a round number: the pad has no rounds yet") if not n
                     else _("  give a round number: the pad has rounds 1 to %(n)s")
                     % {"n": n})
            return None
        return int(arg) - 1

    def change(self, step: Callable[[ScorePad], ScorePad], done: str) -> bool:
        """Apply ``step`` to the pad: refused in words and nothing changed, or say ``done``,
        save, and show the totals. True when it changed."""
        assert self.pad is not None
        try:
            new = step(self.pad)
        except ScorePadError as exc:
            self.say(_("  Refused: %(reason)s") % {"reason": exc})
            return False
        self.pad = new
        self.say(done)
        self.autosave()
        self.show_totals()
        return True

    def winner_name(self) -> str:
        """The winning side's name (the game must be over)."""
        assert self.pad is not None and self.pad.winner is not None
        return self.pad.side_name(self.pad.winner)

    # --- files -------------------------------------------------------------
    def autosave(self) -> None:
        """Save after every change once the pad has a file, so that a closed terminal loses
        nothing."""
        if self.file is not None:
            self.save(quiet=True)

    def save(self, quiet: bool = False) -> None:
        """Write the pad to its file atomically; a file that cannot be written is named with
        the reason, and the pad goes on."""
        assert self.pad is not None and self.file is not None
        try:
            write_pad(self.pad, self.file)
        except OSError as exc:
            self.say(f"  {file_error(exc, self.file, 'write')}")
            return
        if not quiet:
            self.say(_("Saved to %(path)s (and after every change from now on).")
                     % {"path": self.file})

    def load(self, arg: str) -> None:
        """Go on with the pad saved in the file ``arg``; one that cannot be read is refused
        with the reason, the current pad kept."""
        if not arg:
            self.say(_("  load FILE: name the file"))
            return
        path = Path(arg).expanduser()
        try:
            pad = read_pad(path)
        except (OSError, UnicodeDecodeError) as exc:
            self.say(f"  {file_error(exc, path)}")
            return
        except ScorePadError as exc:
            self.say(_("  cannot load %(path)s: %(reason)s") % {"path": path, "reason": exc})
            return
        self.pad, self.file = pad, path
        self.say(_("Loaded %(path)s: %(rules)s: %(players)s") % {
            "path": path, "rules": describe(pad.rules)[0], "players": self.versus()})
        self.show_totals()

    # --- showing -------------------------------------------------------------
    def show_totals(self) -> None:
        """The totals table and the state of the game (the winner, or the goal and any
        carry)."""
        assert self.pad is not None
        pad = self.pad
        if not pad.rounds:
            self.say(_("  No rounds yet."))
            return
        self.say(*totals_table(pad))
        self.say(status_words(pad))

    def show_round(self, index: int) -> None:
        """Round ``index`` item by item in counting order."""
        assert self.pad is not None
        self.say(*round_lines(self.pad, index))

    # --- entering a round -----------------------------------------------------
    def enter_round(self, index: int | None) -> None:
        """Ask what the table counted in a round, field by field, and add it (``index``
        None) or replace round ``index``; ``back`` stops without a change."""
        assert self.pad is not None
        pad = self.pad
        old = pad.rounds[index] if index is not None else None
        number = (index if index is not None else len(pad.rounds)) + 1
        self.say((_("Round %(n)s (Enter keeps each answer): type 'back' to stop.") if old
                  else _("Round %(n)s: type 'back' to stop.")) % {"n": number})
        if pad.carry:
            self.say(_("  Carried in: %(carry)s") % {"carry": carry_words(pad)})
        answers: dict[str, dict[str, Any]] = {}
        fields = pad.fields()
        todo = list(fields)
        while True:
            for fld in todo:
                answers[fld.key] = self.ask_field(fld, old, answers, index)
            values: dict[str, Any] = {}
            for part in answers.values():
                values.update(part)
            entry = RoundEntry(**values)
            try:
                new = (pad.add_round(entry) if index is None
                       else pad.replace_round(index, entry))
            except ScorePadError as exc:
                self.say(_("  Refused: %(reason)s") % {"reason": exc})
                at_fault = [f for f in fields if f.key == exc.field
                            and exc.round in (None, number)]
                if not at_fault:
                    self.say(_("  Nothing was changed."))
                    return
                todo = at_fault
                continue
            break
        self.pad = new
        self.autosave()
        self.say(*round_lines(new, number - 1))
        if index is not None and len(new.rounds) > number:
            self.say(_("Later rounds rescored:"))
            self.say(*totals_table(new))
        self.say(status_words(new))

    def ask_field(self, fld: Field, old: RoundEntry | None,
                  answers: dict[str, dict[str, Any]] | None = None,
                  index: int | None = None) -> dict[str, object]:
        """One field of the round, asked until its answer is possible with the answers
        already given (``answers``, by field key): an impossible one is refused at once
        with the reason, not when the whole round is in."""
        assert self.pad is not None
        pad = self.pad
        earlier = {k: v for k, v in (answers or {}).items() if k != fld.key}
        if fld.kind == "takers":
            return self.ask_takers(old, earlier, index)
        parser = _PARSERS[fld.kind]
        default = _default_text(pad, fld, old) if old is not None else None
        prompt = _prompt(pad, fld)
        while True:
            answer = self.ask_answer(prompt, default)
            try:
                part = parser(pad, fld, answer)
            except ValueError as exc:
                self.say(f"  {exc}")
                continue
            reason = self.impossible({**earlier, fld.key: part}, index)
            if reason is None:
                return part
            self.say(_("  Refused: %(reason)s") % {"reason": reason})

    def impossible(self, answers: dict[str, dict[str, Any]], index: int | None,
                   takers_done: bool = True) -> str | None:
        """Why the answers typed so far for a round cannot be right (None: they can),
        whatever the questions still to come are answered."""
        assert self.pad is not None
        values: dict[str, Any] = {}
        for part in answers.values():
            values.update(part)
        answered = set(answers) if takers_done else set(answers) - {"takers"}
        try:
            self.pad.check_answers(RoundEntry(**values), answered, index)
        except ScorePadError as exc:
            if exc.field is not None and exc.field not in answers:
                return None  # about a question still to come: it is asked then
            later = len(answers) > 1
            return (_("%(reason)s (or type 'back' to start the round again)")
                    % {"reason": exc} if later else str(exc))
        return None

    def ask_answer(self, prompt: str, default: str | None) -> str:
        """One answer to a field of a round: an empty line keeps ``default`` (the
        round's old value when fixing it); "back" returns to the round's menu (and
        "quit" leaves, from any field: the console stops)."""
        shown = f" [{default}]" if default is not None else ""
        answer = self.ask(f"{prompt}{shown}: ")
        if answer.lower() in ("back", "cancel"):
            raise _Back
        if not answer and default is not None:
            return default
        return answer

    def ask_takers(self, old: RoundEntry | None,
                   earlier: dict[str, dict[str, Any]] | None = None,
                   index: int | None = None) -> dict[str, object]:
        """One line per side: the scoring cards it took; the last side takes the rest.

        Each side's answer is checked as it is typed, with ``earlier`` (the round's
        answers so far): a card that is not left, or that cannot be that side's with
        the counts given, is refused at once and the same side asked again."""
        assert self.pad is not None
        pad = self.pad
        named = scoring_cards(pad.rules)
        copies = pad.rules.decks
        sides = pad.sides
        earlier = earlier or {}
        while True:
            taken: list[tuple[int, int]] = []
            for k, side in enumerate(sides):
                left = _remaining(named, copies, taken)
                if k == len(sides) - 1:
                    taken.extend((c, side) for c in left)
                    self.say(_("  %(name)s took the rest: %(cards)s") % {
                        "name": pad.side_name(side),
                        "cards": _cards_text(left, pgettext("score pad", "none"))})
                    break
                default = None
                if old is not None:
                    mine = [card_symbol(c) for c, s in old.takers if s == side]
                    default = " ".join(mine) or "none"
                offer = _cards_text(left, pgettext("score pad", "none left"))
                while True:
                    answer = self.ask_answer(
                        _("Scoring cards %(name)s took (%(cards)s)") % {
                            "name": pad.side_name(side), "cards": offer}, default)
                    try:
                        cards = _read_cards(answer)
                    except ValueError as exc:
                        self.say(f"  {exc}")
                        continue
                    mine_now = [*taken, *((c, side) for c in cards)]
                    reason = self.impossible(
                        {**earlier, "takers": {"takers": tuple(sorted(mine_now))}}, index,
                        takers_done=False)
                    if reason is None:
                        break
                    self.say(_("  Refused: %(reason)s") % {"reason": reason})
                taken = mine_now
            whole: dict[str, Any] = {"takers": tuple(sorted(taken))}
            reason = self.impossible({**earlier, "takers": whole}, index)
            if reason is None:
                return whole
            # What the last side was given (the rest) does not fit: ask the sides again.
            self.say(_("  Refused: %(reason)s") % {"reason": reason})


def _remaining(named: Sequence[int], copies: int,
               taken: Sequence[tuple[int, int]]) -> list[int]:
    out = []
    for c in named:
        out.extend([c] * max(0, copies - sum(1 for x, _ in taken if x == c)))
    return out


def _read_cards(text: str) -> list[int]:
    if text.lower() in ("", "none", "-", "nothing", pgettext("score pad", "none")):
        return []
    try:
        return [parse_card(t) for t in text.replace(",", " ").split()]
    except CardError as exc:
        raise ValueError(str(exc)) from None


# ----------------------------------------------------------------------
# Reading one answer


def _match_name(pad: ScorePad, token: str, sides: bool) -> int:
    """The side (``sides``) or seat a typed name (or unique prefix, or seat number) means."""
    rules = pad.rules
    t = token.strip().casefold()
    if not sides and t.isdigit() and 1 <= int(t) <= rules.players:
        return int(t) - 1
    names = [n.casefold() for n in pad.names]
    exact = [s for s, n in enumerate(names) if n == t]
    hits = exact or ([s for s, n in enumerate(names) if n.startswith(t)] if t else [])
    if len(hits) != 1:
        known = ", ".join(pad.names)
        what = (_("%(name)r matches several players (%(known)s)") if hits
                else _("%(name)r is not a player (%(known)s)"))
        raise ValueError(what % {"name": token, "known": known})
    seat = hits[0]
    return rules.team_of(seat) if sides else seat


def _counts(pad: ScorePad, answer: str) -> tuple[int, ...] | None:
    parts = answer.replace(",", " ").split()
    if parts and all(p.isdigit() for p in parts):
        return tuple(int(p) for p in parts)
    return None


def _parse_counts_or_most(pad: ScorePad, fld: Field, answer: str) -> dict[str, object]:
    if not answer:
        raise ValueError(_("type the numbers, or who had the most"))
    counts = _counts(pad, answer)
    if counts is not None:
        if len(counts) != len(pad.sides):
            raise ValueError(_numbers_wanted(pad))
        return {fld.key: counts, "most_" + fld.key: None}
    words = answer.replace(",", " ").replace("&", " ").split()
    if [w.lower() for w in words] == ["tie"]:
        if len(pad.sides) != 2:
            raise ValueError(_("name the players who tied, as 'Ann Bob'"))
        leaders: tuple[int, ...] = tuple(pad.sides)
    else:
        words = [w for w in words if w.lower() not in ("and", "tie")]
        leaders = tuple(dict.fromkeys(_match_name(pad, w, sides=True) for w in words))
    return {fld.key: None, "most_" + fld.key: leaders}


def _numbers_wanted(pad: ScorePad) -> str:
    """Why a line of numbers was refused: one number for each side, named."""
    return _("give %(n)s numbers, one for each of %(names)s") % {
        "n": len(pad.sides), "names": ", ".join(pad.side_name(s) for s in pad.sides)}


def _parse_counts(pad: ScorePad, fld: Field, answer: str) -> dict[str, object]:
    counts = _counts(pad, answer)
    if counts is None or len(counts) != len(pad.sides):
        raise ValueError(_numbers_wanted(pad))
    return {fld.key: counts}


def _parse_seats(pad: ScorePad, fld: Field, answer: str) -> dict[str, object]:
    if answer.lower() in ("", "none", "-", "0", "no", pgettext("score pad", "none")):
        return {fld.key: ()}
    seats: list[int] = []
    double = False
    for word in answer.replace(",", " ").split():
        if word.lower() == "double" and pad.rules.double_sweep and fld.key == "sweeps":
            double = True
            continue
        seat = _match_name(pad, word, sides=False)
        seats.extend([seat, seat] if double else [seat])
        double = False
    if double:
        raise ValueError(_("'double' must come before the name of who made it"))
    return {fld.key: tuple(seats)}


def _parse_seat(pad: ScorePad, fld: Field, answer: str) -> dict[str, object]:
    if not answer:
        raise ValueError(_("name who made it"))
    return {fld.key: _match_name(pad, answer, sides=False)}


def _parse_takers(pad: ScorePad, fld: Field, answer: str) -> dict[str, object]:
    raise ValueError("takers are asked one side at a time")  # pragma: no cover


_PARSERS: dict[str, Callable[[ScorePad, Field, str], dict[str, object]]] = {
    "counts-or-most": _parse_counts_or_most,
    "counts": _parse_counts,
    "seats-in-order": _parse_seats,
    "seat": _parse_seat,
    "takers": _parse_takers,
}


def _prompt(pad: ScorePad, fld: Field) -> str:
    sides = ", ".join(pad.side_name(s) for s in pad.sides)
    words = {"label": _label(fld), "sides": sides, "total": fld.total}
    if fld.kind == "counts-or-most":
        return _("%(label)s: numbers for %(sides)s (they add up to %(total)s), or who had "
                 "the most") % words
    if fld.kind == "counts":
        return _("%(label)s: numbers for %(sides)s (they add up to %(total)s)") % words
    if fld.kind == "seats-in-order":
        if pad.rules.double_sweep and fld.key == "sweeps":
            return _("%(label)s: who made each, in order (blank for none; 'double Ann' "
                     "for a double sweep)") % words
        return _("%(label)s: who made each, in order (blank for none)") % words
    return _("%(label)s: who") % words


def _default_text(pad: ScorePad, fld: Field, old: RoundEntry) -> str | None:
    if fld.kind in ("counts-or-most", "counts"):
        counts = getattr(old, fld.key)
        if counts is not None:
            return " ".join(str(v) for v in counts)
        most = getattr(old, "most_" + fld.key, None)
        if most:
            return " ".join(pad.side_name(s).split(" & ")[0] for s in most)
        return None
    if fld.kind == "seats-in-order":
        seats = getattr(old, fld.key)
        return " ".join(pad.names[s] for s in seats) or "none"
    if fld.kind == "seat":
        seat = getattr(old, fld.key)
        return None if seat is None else pad.names[seat]
    return None


# ----------------------------------------------------------------------
# Showing the pad (also the printable sheet)


def carry_words(pad: ScorePad) -> str:
    """Finnish Kasino's carried majorities in words: what is carried and that it counts
    twice."""
    c = pad.carry
    parts = []
    if c.cards:
        parts.append(_("%(n)s for most cards") % {"n": c.cards})
    if c.spades:
        parts.append(_("%(n)s for most spades") % {"n": c.spades})
    return _("%(carried)s (worth as much again this round)") % {
        "carried": pgettext("score pad", " and ").join(parts)}


def round_lines(pad: ScorePad, index: int) -> list[str]:
    """Round ``index`` item by item in counting order, with the running totals."""
    r = pad.results[index]
    names = pad.side_names
    lines = [_("Round %(n)s, in counting order:") % {"n": r.number}]
    if r.carry_in:
        parts = []
        if r.carry_in.cards:
            parts.append(_("most cards +%(n)s") % {"n": r.carry_in.cards})
        if r.carry_in.spades:
            parts.append(_("most spades +%(n)s") % {"n": r.carry_in.spades})
        lines.append(_("  (carried in: %(items)s)") % {"items": ", ".join(parts)})
    width = max([len(names[s]) for s in pad.sides] + [4])
    for ln in r.lines:
        running = ", ".join(f"{names[s]} {ln.totals[s]}" for s in pad.sides)
        lines.append(f"  {item_words(ln.item):<12} {ln.item.points:+3d}  "
                     f"{names[ln.item.seat]:<{width}}  [{running}]")
    if not r.lines:
        lines.append(_("  (no points)"))
    lines.append("  " + winner_words(r.result, pad.rules, names, r.scores_before))
    return lines


def totals_table(pad: ScorePad) -> list[str]:
    """Rounds as rows: each side's points in the round and the running total."""
    names = [pad.side_name(s) for s in pad.sides]
    width = max([len(n) for n in names] + [9])
    head = pgettext("score pad", "Round")
    first = max(len(head), 5)
    lines = [head.ljust(first) + "  " + "  ".join(f"{n:>{width}}" for n in names)]
    for r in pad.results:
        cells = []
        for s in pad.sides:
            pts = sum(i.points for i in r.items if i.seat == s)
            cells.append(f"{pts:+d} = {r.scores[s]}".rjust(width))
        lines.append(f"{r.number:>{first}}  " + "  ".join(cells))
    return lines


def status_words(pad: ScorePad) -> str:
    """One line on the game: the winner, or the totals and what wins (with any carry)."""
    if pad.winner is not None:
        return _("Winner: %(name)s.") % {"name": pad.side_name(pad.winner)}
    totals = ", ".join(f"{pad.side_name(s)} {pad.totals[s]}" for s in pad.sides)
    rules = pad.rules
    if rules.win_rule == "lower-after-games":
        goal = (_("the lower total after %(n)s games wins (a tie plays %(n)s more)")
                % {"n": rules.games_per_match})
    else:
        goal = _("playing to %(n)s") % {"n": rules.target}
    text = _("Totals: %(totals)s; %(goal)s.") % {"totals": totals, "goal": goal}
    if pad.carry:
        text += " " + _("Carried to the next round: %(carry)s.") % {
            "carry": carry_words(pad)}
    return text


def pad_sheet(pad: ScorePad) -> list[str]:
    """The printable view: title, players, the totals table, every round's items."""
    rules = pad.rules
    lines = [describe(rules)[0], _("Players: %(players)s") % {
        "players": pgettext("score pad", " vs ").join(pad.side_name(s)
                                                      for s in pad.sides)}]
    words = {"name": rules.name, "n": rules.players}
    lines.append(_("Ruleset: %(name)s, %(n)s players, partners opposite") % words
                 if rules.partnerships else _("Ruleset: %(name)s, %(n)s players") % words)
    lines.append("")
    if not pad.rounds:
        lines.append(_("No rounds yet."))
        return lines
    lines.extend(totals_table(pad))
    lines.append("")
    for k in range(len(pad.rounds)):
        lines.extend(round_lines(pad, k))
        lines.append("")
    lines.append(status_words(pad))
    return lines


# ----------------------------------------------------------------------
# Files


def read_pad(path: Path) -> ScorePad:
    """The pad saved in ``path`` (ScorePadError says what is wrong with its contents)."""
    return ScorePad.from_json(path.read_text(encoding="utf-8"))


def write_pad(pad: ScorePad, path: Path) -> None:
    """Write atomically: a half-written file never replaces a good one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(pad.dumps() + "\n", encoding="utf-8")
    os.replace(tmp, path)


def run_score(stdin: TextIO, stdout: TextIO, *, file: Path | None = None,
              rules: str | None = None, players: int | None = None,
              names: Sequence[str] | None = None) -> ScorePad | None:
    """Run the pad at the terminal until ``quit`` or the end of the input; return it."""
    session = ScoreSession(stdin, stdout, file=file)
    with contextlib.suppress(Stopped, KeyboardInterrupt):
        if file is not None and file.exists():
            session.pad = read_pad(file)
            session.say(_("Loaded %(path)s.") % {"path": file})
        else:
            session.pad = session.setup(rules, players, names)
            session.autosave()
        session.run()
    if session.file is not None and session.pad is not None:
        session.say(_("The pad is saved in %(path)s.") % {"path": session.file})
    return session.pad
