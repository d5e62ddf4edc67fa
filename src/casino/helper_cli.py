"""``casino helper``: every legal play for a table and a hand from a real game.

``casino helper --rules casino --table "9c 4c 5h [5d+3s]=8:1" --hand "9d 2s"``
prints each legal play in notation and in words, marking the strongest
computer player's pick. Without ``--table`` and ``--hand`` it asks for them,
one set-up after another, until ``quit`` or the end of the input. All the
work is :mod:`casino.helper`.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, TextIO

import typer

from casino.bots.levels import LEVELS
from casino.builds import Build
from casino.cards import card_symbol
from casino.errors import CasinoError
from casino.helper import Analysis, HelperError, Setup, analyse, setup_from_text
from casino.rules import PRESET_NAMES, Rules, describe, preset

TABLE_HELP = ("cards and builds separated by spaces; a build is its cards in brackets, "
              "then =VALUE and :OWNER (0 is you, 1 the next player): "
              "9c 4c 5h [5d+3s]=8:1; a multiple build: [8h 5d+3s]=8:0")


def _build_text(b: Build) -> str:
    groups = " ".join("+".join(card_symbol(c) for c in g) for g in b.groups)
    owner = "your" if b.owner == 0 else f"seat {b.owner}'s"
    return f"[{groups}] ({owner} build of {b.value})"


def analysis_lines(a: Analysis) -> list[str]:
    """The plays, numbered, in notation and in words; the bot's pick marked."""
    pos = a.position
    shown = [card_symbol(i) if isinstance(i, int) else _build_text(i) for i in pos.table]
    others = ", ".join(f"seat {s} holds {pos.hand_size(s)}" for s in range(1, pos.rules.players))
    n = len(a.options)
    lines = [f"Table: {' '.join(shown) or '(empty)'}",
             f"Your hand: {' '.join(card_symbol(c) for c in pos.hand(0))}; {others}; "
             f"stock {pos.stock_size}",
             f"{n} legal play{'s' if n != 1 else ''}:"]
    width = max((len(o.text) for o in a.options), default=0)
    for k, o in enumerate(a.options, start=1):
        mark = "*" if o.best else " "
        lines.append(f"{mark}{k:>3}. {o.text:<{width}}  {o.words}")
    if a.pick is not None and a.level is not None:
        lines.append(f"* the {a.level} computer player's choice")
    return lines


def _opponents(text: str | None) -> list[int] | None:
    if text is None:
        return None
    parts = text.replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        raise HelperError("opponents: their hand sizes as numbers, as '4' or '3,4'")
    return [int(p) for p in parts]


def interactive(rules: Rules, stdin: TextIO, stdout: TextIO, level: str | None,
                seed: int) -> None:
    """Ask for a table and a hand, show the plays; again until quit or end of input."""
    def say(*lines: str) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    def ask(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("")
            return None
        text = line.strip()
        if not stdin.isatty():
            say(text)
        return None if text.lower() in ("quit", "q", "exit") else text

    say(describe(rules)[0], f"Table: {TABLE_HELP}.", "Type quit to stop.")
    while True:
        table = ask("Table: ")
        if table is None:
            return
        hand = ask("Your hand: ")
        if hand is None:
            return
        try:
            setup = setup_from_text(rules, table, hand)
            say(*analysis_lines(analyse(setup, level, seed)))
        except CasinoError as exc:
            say(f"  {exc}")


def helper_command(
    rules: Annotated[str, typer.Option("--rules", "-r",
                                       help=f"Ruleset: {', '.join(PRESET_NAMES)}.")] = "casino",
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players.")] = None,
    table: Annotated[str | None, typer.Option("--table", "-t", help=f"The table: "
                                              f"{TABLE_HELP}.")] = None,
    hand: Annotated[str | None, typer.Option("--hand", help="Your hand, as "
                                             "'9d 2s'.")] = None,
    opponents: Annotated[str | None, typer.Option(
        "--opponents", help="The other players' hand sizes in play order (default: as "
                            "many as yours).")] = None,
    stock: Annotated[int | None, typer.Option(
        "--stock", min=0, help="Cards left to deal (default: every unseen card not in a "
                               "hand; give --captured with it).")] = None,
    captured: Annotated[str | None, typer.Option(
        "--captured", help="Cards already captured, per seat, yours first, separated by "
                           "'|': 'As Td | 2s'.")] = None,
    level: Annotated[str, typer.Option("--level", "-l", help=f"The computer player whose "
                                       f"pick is marked: {', '.join(LEVELS)}.")] = "expert",
    no_bot: Annotated[bool, typer.Option("--no-bot", help="Do not ask the computer "
                                                          "player.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the computer "
                                                     "player.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: the position and "
                                                         "the plays.")] = False,
) -> None:
    """Every legal play for a table and a hand, explained, with the best marked."""
    if level not in LEVELS:
        typer.echo(f"casino: unknown level {level!r}; the levels are {', '.join(LEVELS)}",
                   err=True)
        raise typer.Exit(2)
    use_level = None if no_bot else level
    try:
        ruleset = preset(rules, **({"players": players} if players else {}))
        if table is None and hand is None:
            interactive(ruleset, sys.stdin, sys.stdout, use_level, seed)
            return
        setup: Setup = setup_from_text(ruleset, table or "", hand or "",
                                       opponents=_opponents(opponents), stock=stock,
                                       captured=captured)
        result = analyse(setup, use_level, seed)
    except CasinoError as exc:
        typer.echo(f"casino: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    for line in analysis_lines(result):
        typer.echo(line)
