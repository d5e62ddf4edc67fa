"""``casino score``: the command's options; the pad itself is :mod:`casino.cli.scorepad_term`.

The options live apart from the session so that registering the command (every
``casino`` run, ``--help`` and shell completion included) imports neither the
engine nor the pad: :func:`score_command` imports them when it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from casino.cli.language import LangOption
from casino.cli.names import RULESETS, choices
from casino.engine.files import file_error
from casino.i18n import N_, _


def _fail(message: str) -> NoReturn:
    typer.echo(f"casino: {message}", err=True)
    raise typer.Exit(2)


def _complete_rules(incomplete: str) -> list[str]:
    return [n for n in RULESETS if n.startswith(incomplete)]


#: ``casino score``'s help (translated where it is shown).
HELP = N_(
    "Keep the score of a game played with a real deck (a score pad).")


def score_command(
    file: Annotated[Path | None, typer.Option(
        "--file", "-f", help=N_("Open this pad (JSON) if it exists, and save it after every "
                                "change."))] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar=choices(RULESETS), autocompletion=_complete_rules,
        help=N_("The ruleset (asked if not given)."))] = None,
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help=N_("Number of players."))] = None,
    names: Annotated[str | None, typer.Option(
        "--names", "-n", help=N_("The players' names in seat order, separated by commas "
                                 "(asked if not given)."))] = None,
    print_sheet: Annotated[bool, typer.Option(
        "--print", help=N_("Print the pad of --file as a sheet and stop."))] = False,
    lang: LangOption = None,
) -> None:
    """``casino score`` (what it does for a person is its help, :data:`HELP`)."""
    from casino.cli import use_language

    use_language(lang)
    from casino.cli.scorepad_term import pad_sheet, read_pad, run_score
    from casino.engine.errors import RulesError
    from casino.engine.rules import preset
    from casino.tools.scorepad import ScorePadError

    name_list = [n.strip() for n in names.split(",")] if names else None
    try:
        if print_sheet:
            if file is None:
                _fail(_("--print needs --file, the pad to print"))
            for line in pad_sheet(read_pad(file)):
                typer.echo(line)
            return
        if rules is not None:
            players_for = players or (len(name_list) if name_list else None)
            preset(rules, **({"players": players_for} if players_for else {}))
        if file is not None and file.exists() and (rules or names or players):
            _fail(_("%(file)s exists: it is opened as it is (leave out --rules, --players "
                    "and --names)") % {"file": file})
        run_score(sys.stdin, sys.stdout, file=file, rules=rules, players=players,
                  names=name_list)
    except (ScorePadError, RulesError) as exc:
        _fail(str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        # Reading the pad at the start (writes during the session are told in it).
        _fail(file_error(exc, file or ""))
