"""``casino helper``: the legal plays for a table and a hand from a real game.

``casino helper --rules casino --table "9c 4c 5h [5d+3s]=8:1" --hand "9d 2s"``
prints the legal plays in notation and in words, the strongest first, marking
the strongest computer player's pick. The list is capped
(:data:`~casino.words.shortlist.MAX_SHOWN` plays) and says how many more there are;
on a crowded table it is a selection, and ``--card Td`` lists one card's plays
(``--using "3c 4h"``: those that take or build with these loose cards). Without
``--table`` and ``--hand`` it asks for them, one set-up after another, until
``quit`` or the end of the input. All the work is :mod:`casino.tools.helper`.

The engine and the helper are imported inside the functions that use them, so
that registering the command (every ``casino`` run, ``--help`` included) stays
quick.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from casino.cli.language import LangOption
from casino.cli.names import HELPER_LIMIT, LEVELS, RULESETS, choices
from casino.engine.presets import DEFAULT
from casino.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from casino.engine.builds import Build
    from casino.engine.rules import Rules
    from casino.play.console import LineConsole
    from casino.tools.helper import Analysis, Rank, Setup

#: How many plays are shown at most by default (``casino.words.shortlist.MAX_SHOWN``).
MAX_SHOWN = HELPER_LIMIT

TABLE_HELP = N_("cards and builds separated by spaces; a build is its cards in brackets, "
                "then =VALUE and :OWNER (0 is you, 1 the next player): "
                "9c 4c 5h [5d+3s]=8:1; a multiple build: [8h 5d+3s]=8:0")


def _build_text(b: Build) -> str:
    from casino.engine.wording import build_notation

    words = {"build": build_notation(b.groups, symbols=True), "value": b.value,
             "seat": b.owner}
    if b.owner == 0:
        return _("%(build)s (your build of %(value)s)") % words
    return _("%(build)s (seat %(seat)s's build of %(value)s)") % words


def analysis_lines(a: Analysis, *, asking: bool = False) -> list[str]:
    """The plays, numbered, in notation and in words, the strongest first; the bot's
    pick marked; then how many more there are (the list is capped) and how to see
    them (``asking``: at the interactive prompt, else with the command's options)."""
    from casino.engine.cards import card_symbol

    pos = a.position
    shown = [card_symbol(i) if isinstance(i, int) else _build_text(i) for i in pos.table]
    others = ", ".join(_("seat %(seat)s holds %(n)s") % {"seat": s, "n": pos.hand_size(s)}
                       for s in range(1, pos.rules.players))
    lines = [_("Table: %(cards)s") % {"cards": " ".join(shown) or _("(empty)")},
             _("Your hand: %(cards)s; %(others)s; stock %(stock)s") % {
                 "cards": " ".join(card_symbol(c) for c in pos.hand(0)), "others": others,
                 "stock": pos.stock_size},
             _heading(a)]
    if a.judged:
        lines.append(_("  (best first by casino review's judge, each with its expected "
                       "round margin and why)"))
    width = max((len(o.text) for o in a.options), default=0)
    for k, o in enumerate(a.options, start=1):
        mark = "*" if o.best else " "
        lines.append(f"{mark}{k:>3}. {o.text:<{width}}  {o.words}")
        if o.reason is not None and o.value is not None:
            lines.append(f"      {o.value:+.1f}: {o.reason}")
    rest = _rest(a, asking)
    if rest:
        lines.append(rest)
    if a.pick is not None and a.level is not None:
        if any(o.best for o in a.options):
            lines.append(_("* the %(level)s computer player's choice") % {"level": a.level})
        else:
            lines.append(_("The %(level)s computer player would play %(move)s.")
                         % {"level": a.level, "move": a.pick})
    return lines


def _whose(a: Analysis) -> str:
    """``of the 9♦`` / ``of the 9♦ with 4♣ and 5♥``: the list's choice, if any."""
    from casino.engine.cards import card_symbol
    from casino.engine.wording import listing, table_item_words

    if a.card is None:
        return ""
    card = card_symbol(a.card)
    if a.using:
        items = [a.position.table[i] for i in a.using]
        return _(" of the %(card)s with %(items)s") % {
            "card": card, "items": listing([table_item_words(x) for x in items])}
    return _(" of the %(card)s") % {"card": card}


def _heading(a: Analysis) -> str:
    n = len(a.options)
    words = {"n": n, "total": a.total, "whose": _whose(a)}
    if a.total is not None and a.more == 0:
        return ngettext("%(n)s legal play%(whose)s:", "%(n)s legal plays%(whose)s:",
                        n) % words
    if a.total is not None:
        return _("The %(n)s strongest of %(total)s legal plays%(whose)s:") % words
    return ngettext("%(n)s legal play%(whose)s, a selection (the table is crowded: there "
                    "are too many to list):",
                    "%(n)s legal plays%(whose)s, a selection (the table is crowded: there "
                    "are too many to list):", n) % words


def _rest(a: Analysis, asking: bool = False) -> str:
    """``... and 12 more (pick a card with --card to see its plays)``, or nothing."""
    if a.complete and a.more == 0:
        return ""
    if asking:
        how = _("type a card of your hand to see its plays, and table cards after it "
                "for those using them: 9d 4c 5h")
    elif a.card is None:
        how = _("pick a card with --card to see its plays")
    elif not a.using:
        how = _("name table cards it should use with --using")
    else:
        how = _("name other table cards with --using")
    words = {"n": a.more, "how": how}
    if a.complete:
        return _("... and %(n)s more (%(how)s)") % words
    if a.more:
        return _("... and %(n)s more found, and others (%(how)s)") % words
    return _("... and others (%(how)s)") % words


def _opponents(text: str | None) -> list[int] | None:
    from casino.tools.helper import HelperError

    if text is None:
        return None
    parts = text.replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        raise HelperError(_("opponents: their hand sizes as numbers, as '4' or '3,4'"))
    return [int(p) for p in parts]


def ranker(judge: bool = True) -> Rank | None:
    """The helper's judge (the hints' ranking, ``casino.teach.hint.rank_plays``), or None.
    It is not seeded by ``--seed`` (the computer player's): its deals come from the
    position, as a hint's do, so that the helper ranks first the play a hint would give."""
    if not judge:
        return None
    from casino.teach.hint import rank_plays

    return rank_plays


def interactive(rules: Rules, stdin: TextIO, stdout: TextIO, level: str | None,
                seed: int, limit: int = MAX_SHOWN, judge: bool = True) -> None:
    """Ask for a table and a hand, show the plays; again until quit or end of input."""
    from casino.play.console import LineConsole, Stopped

    console = LineConsole(stdin, stdout)
    with contextlib.suppress(Stopped):  # a quit word or the end of the input, at any prompt
        _ask_and_show(console, rules, level, seed, limit, ranker(judge))


def _ask_and_show(console: LineConsole, rules: Rules, level: str | None, seed: int,
                  limit: int, rank: Rank | None = None) -> None:
    """The helper's questions and answers at ``console``, until it stops."""
    from casino.engine.cards import card_text
    from casino.engine.errors import CasinoError
    from casino.engine.rules import describe
    from casino.tools.helper import analyse, parse_hand, parse_using, setup_from_text

    say, ask = console.say, console.ask
    say(describe(rules)[0], _("Table: %(help)s.") % {"help": _(TABLE_HELP)},
        _("Type quit to stop."))
    while True:
        table = ask(_("Table: "))
        hand = ask(_("Your hand: "))
        try:
            setup = setup_from_text(rules, table, hand)
            result = analyse(setup, level, seed, limit=limit, rank=rank)
            say(*analysis_lines(result, asking=True))
        except CasinoError as exc:
            say(f"  {exc}")
            continue
        while not (result.complete and result.more == 0):
            # A capped list: one card's plays (with table cards) on request.
            choice = ask(_("A card (and table cards), or Enter for a new table: "))
            if not choice:
                break
            try:
                card, *items = parse_hand(choice)
                using = parse_using(setup.table, " ".join(map(card_text, items)))
                one = analyse(setup, level, seed, card=card, using=using, limit=limit,
                              rank=rank)
                say(*analysis_lines(one, asking=True)[2:])
            except CasinoError as exc:
                say(f"  {exc}")


def _complete_rules(incomplete: str) -> list[str]:
    return [n for n in RULESETS if n.startswith(incomplete)]


def _complete_level(incomplete: str) -> list[str]:
    return [n for n in LEVELS if n.startswith(incomplete)]


#: ``casino helper``'s help (translated where it is shown).
HELP = N_(
    "The legal plays for a table and a hand, strongest first, explained.\n"
    "\n"
    "The best play is marked; a crowded table's list is capped, and --card shows one\n"
    "card's plays.")


def helper_command(
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=choices(RULESETS),
                                       autocompletion=_complete_rules,
                                       help=N_("The ruleset."))] = DEFAULT.name,
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help=N_("Number of players."))] = None,
    table: Annotated[str | None, typer.Option("--table", "-t", help=TABLE_HELP)] = None,
    hand: Annotated[str | None, typer.Option("--hand", help=N_("Your hand, as "
                                             "'9d 2s'."))] = None,
    opponents: Annotated[str | None, typer.Option(
        "--opponents", help=N_("The other players' hand sizes in play order (default: as "
                               "many as yours)."))] = None,
    stock: Annotated[int | None, typer.Option(
        "--stock", min=0, help=N_("Cards left to deal (default: every unseen card not in a "
                                  "hand; give --captured with it)."))] = None,
    captured: Annotated[str | None, typer.Option(
        "--captured", help=N_("Cards already captured, per seat, yours first, separated by "
                              "'|': 'As Td | 2s'."))] = None,
    level: Annotated[str, typer.Option("--level", "-l", metavar=choices(LEVELS),
                                       autocompletion=_complete_level,
                                       help=N_("The computer player whose pick is "
                                               "marked."))] = "expert",
    no_bot: Annotated[bool, typer.Option("--no-bot", help=N_("Do not ask the computer "
                                                             "player."))] = False,
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed of the computer "
                                                        "player."))] = 0,
    card: Annotated[str | None, typer.Option(
        "--card", "-c", help=N_("Only the plays of this card of your hand, as 'Td'."))] = None,
    using: Annotated[str | None, typer.Option(
        "--using", "-u", help=N_("With --card: only its plays that use these table cards "
                                 "(a card of a build names the build), as '3c 4h'."))] = None,
    limit: Annotated[int, typer.Option(
        "--limit", min=1, max=1000, help=N_("Show at most this many plays, the strongest "
                                            "first."))] = MAX_SHOWN,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print JSON: the position and "
                                                            "the plays."))] = False,
    judge: Annotated[bool, typer.Option("--judge/--no-judge", help=N_("Rank the plays by the "
                                        "judge, best first, each with why (about a "
                                        "second)."))] = True,
    lang: LangOption = None,
) -> None:
    """``casino helper`` (what it does for a person is its help, :data:`HELP`)."""
    from casino.cli import use_language

    use_language(lang)
    from casino.engine.errors import CasinoError
    from casino.engine.rules import preset
    from casino.tools.helper import HelperError, analyse, parse_hand, parse_using, setup_from_text

    if level not in LEVELS:
        typer.echo("casino: " + _("unknown level %(level)r; the levels are %(levels)s")
                   % {"level": level, "levels": ", ".join(LEVELS)}, err=True)
        raise typer.Exit(2)
    use_level = None if no_bot else level
    try:
        ruleset = preset(rules, **({"players": players} if players else {}))
        if table is None and hand is None:
            interactive(ruleset, sys.stdin, sys.stdout, use_level, seed, limit, judge)
            return
        setup: Setup = setup_from_text(ruleset, table or "", hand or "",
                                       opponents=_opponents(opponents), stock=stock,
                                       captured=captured)
        picked = None
        if card is not None:
            cards = parse_hand(card)
            if len(cards) != 1:
                raise HelperError(_("card: give one card of your hand, as 'Td'"))
            picked = cards[0]
        elif using is not None:
            raise HelperError(_("using: give --card too: the card that plays with them"))
        result = analyse(setup, use_level, seed, card=picked,
                         using=parse_using(setup.table, using) if using else (),
                         limit=limit, rank=ranker(judge))
    except CasinoError as exc:
        typer.echo(f"casino: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        import json

        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    for line in analysis_lines(result):
        typer.echo(line)
