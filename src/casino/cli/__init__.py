"""The ``casino`` command: rules summaries, legal moves, replays, reviews and a demo game.

A thin layer over the engine's public API (rules, Position, Match, records):
every input error is printed as one line on stderr with exit code 2, never as
a traceback, because the engine's errors already say what was wrong and why.

The engine, the bots, the terminal app and the web server are imported inside
the commands that use them, never at the top of this module: ``casino --help``,
``casino CMD --help`` and shell completion (which runs this module on every Tab)
then cost little more than typer itself (docs/benchmarks.md, "The command line";
tests/test_cli.py checks what ``--help`` imports).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from casino import __version__
from casino.cli import helper, review, scorepad
from casino.cli.helper import helper_command
from casino.cli.language import (
    HELP_OPTION,
    LangOption,
    help_words,
    language_of,
    speaking,
    translated_help,
    usage_words,
)
from casino.cli.names import LEVELS, RULESETS, choices
from casino.cli.review import review_command
from casino.cli.scorepad import score_command
from casino.engine.files import Action, file_error
from casino.engine.presets import DEFAULT
from casino.i18n import N_, _, ngettext, pgettext, pN_
from casino.web import cli as web_cli
from casino.web.cli import serve_command

if TYPE_CHECKING:
    from rich.console import Console

    from casino.bots.base import Limit
    from casino.engine.match import Match
    from casino.engine.moves import Move
    from casino.engine.position import Position
    from casino.engine.rules import Rules
    from casino.measure.arena import ArenaResult
    from casino.measure.stats import Estimate
    from casino.play.session import GameSession
    from casino.tui.start import StartChoice


def _plain_labels(params: list[Any]) -> list[Any]:
    """Help labels that say what to type: none for a flag (it takes no value, so no
    ``<bool>``), and an argument's choices (``RULESET``: ``casino | kasino | ...``)
    instead of ``<str>``."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        label = ARGUMENT_CHOICES.get(param.metavar or "")
        if param.param_type_name == "argument" and label is not None:
            param.display_type_rich = lambda ctx, label=label: label
    return params


class _Speaking:
    """Help drawn in the language in force (:mod:`casino.cli.language`): the help texts
    translated as they are shown, the usage line's words too, and the help option's
    words set again on each use (click makes the option once and keeps it)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with translated_help(self, ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_usage(self, ctx: Any) -> str:
        return usage_words(super().get_usage(ctx))  # type: ignore[misc]

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = help_words(HELP_OPTION)
        return option


class _Command(_Speaking, TyperCommand):
    """A command whose flags (``-h/--help`` too) show no ``<bool>`` label in help."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))


class _Group(_Speaking, TyperGroup):
    """The ``casino`` group, whose flags (completion's too) show no ``<bool>`` label,
    and which runs in the language of the words typed (``--lang``) or the terminal's,
    found before ``--help`` is answered."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        with speaking(language_of(argv)):
            return super().main(argv, *rest, **extra)


#: ``-h`` as well as ``--help``, for every command (click passes it down the contexts).
CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    help=N_("Casino and its family of fishing card games: rules, moves, records, demo."),
    no_args_is_help=True,
    # --install-completion / --show-completion: completion runs this module on each Tab,
    # which the lazy imports above keep quick.
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings=CONTEXT,
    cls=_Group,
)


def command(name: str, help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``app.command(name)`` with the help option above, and its help (in English,
    marked with ``N_``: translated where it is shown)."""
    return app.command(name, cls=_Command, help=help_text)


#: Shown for options that take a ruleset or a level, with shell completion of the names.
RULES_CHOICES = choices(RULESETS)
LEVEL_CHOICES = choices(LEVELS)
#: An argument's metavar (its name in help), and the choices shown as its type.
ARGUMENT_CHOICES = {"RULESET": RULES_CHOICES}

#: The terminal game's line mode and its pause after a computer's move: one declaration
#: for ``casino play`` and ``casino learn``, which start the same game.
PlainOption = Annotated[bool, typer.Option(
    "--plain", help=N_("Line by line, without full-screen drawing (screen readers, pipes)."))]
PauseOption = Annotated[float | None, typer.Option(
    "--pause", min=0.0, help=N_("Seconds to show each computer move (default 0.8 on a "
                                "terminal, else 0)."))]


def use_language(lang: str | None) -> None:
    """Speak ``lang`` from now on (:mod:`casino.i18n`); None keeps the language the
    environment chose; an unknown one is refused, naming those there are."""
    from casino import i18n

    if lang is None:
        return
    if i18n.known(lang) is None:
        fail(_("--lang: %(lang)r is not one of the languages: %(languages)s")
             % {"lang": lang, "languages": ", ".join(i18n.LANGUAGES)})
    i18n.set_language(lang)


def complete_rules(incomplete: str) -> list[str]:
    """The rulesets that start with what was typed (shell completion)."""
    return [n for n in RULESETS if n.startswith(incomplete)]


def complete_level(incomplete: str) -> list[str]:
    """The levels that start with what was typed (shell completion)."""
    return [n for n in LEVELS if n.startswith(incomplete)]


#: A computer player: the move to play in a position.
Chooser = Callable[["Position"], "Move"]

#: Exit code for bad input (the same code typer uses for a bad command line).
EXIT_BAD_INPUT = 2


def _unknown_level(level: str) -> str:
    """The refusal of a level that is none of :data:`LEVELS`."""
    return _("unknown level %(level)r; the levels are %(levels)s") % {
        "level": level, "levels": ", ".join(LEVELS)}


def fail(message: str) -> NoReturn:
    """Print ``message`` on stderr and stop with exit code 2."""
    typer.echo(f"casino: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def fail_file(exc: OSError | UnicodeDecodeError, path: str | Path,
              action: Action = "read") -> NoReturn:
    """Stop with the words of :func:`casino.engine.files.file_error` for ``path``."""
    fail(file_error(exc, path, action))


def _version(value: bool) -> None:
    """The version, and which engine answers (``compiled core (C)`` or ``pure Python
    (...)`` saying why)."""
    if value:
        from casino.engine.core import engine_name

        typer.echo(f"casino {__version__}")
        typer.echo(_("engine: %(name)s") % {"name": engine_name()})
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help=N_("Print the version and the engine, and exit."))] = False,
    lang: LangOption = None,
) -> None:
    """Casino and its family of fishing card games. The language is already in force
    (:meth:`_Group.main` read the last ``--lang`` typed, which may be a command's, after
    this one): ``--lang`` is only checked here."""
    from casino import i18n

    if lang is not None and i18n.known(lang) is None:
        use_language(lang)  # refused, naming the languages


def _rules(name: str, players: int | None) -> Rules:
    from casino.engine.errors import CasinoError
    from casino.engine.rules import preset

    try:
        return preset(name) if players is None else preset(name, players=players)
    except CasinoError as exc:
        fail(str(exc))


# ----------------------------------------------------------------------
# casino rules


@command("rules", N_(
    "Print a readable summary of a ruleset (--guide: how to play it)."))
def rules_command(
    name: Annotated[str, typer.Argument(metavar="RULESET", help=N_("The ruleset."),
                                        autocompletion=complete_rules)],
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help=N_("Number of players."))] = None,
    show_guide: Annotated[bool, typer.Option(
        "--guide", "-g", help=N_("Print how to play it, with a worked example, instead "
                                 "of the summary."))] = False,
    lang: LangOption = None,
) -> None:
    """``casino rules`` (what it does for a person is its help, above)."""
    from casino.engine.rules import describe
    from casino.words.guide import text_lines

    use_language(lang)
    ruleset = _rules(name, players)
    if show_guide:
        for line in text_lines(name):
            typer.echo(line)
        return
    for line in describe(ruleset):
        typer.echo(line)
    typer.echo("")
    typer.echo(_("How to play, with a worked example: casino rules %(name)s --guide "
                 "(or docs/how-to-play.md).") % {"name": name})
    typer.echo(_("The words explained: casino glossary [WORD] (or docs/glossary.md)."))


def complete_word(incomplete: str) -> list[str]:
    """The glossary's words that start with what was typed (shell completion)."""
    from casino.words.glossary import all_words

    return [w for w in all_words() if w.startswith(incomplete.lower())]


@command("glossary", N_(
    "Explain the games' words: what each means, which rulesets use it, where the rule\n"
    "is (docs/glossary.md)."))
def glossary_command(
    word: Annotated[str | None, typer.Argument(
        help=N_("A word to explain (build, sweep, mökki, ...); all of them if left out."),
        autocompletion=complete_word)] = None,
    lang: LangOption = None,
) -> None:
    """``casino glossary`` (what it does for a person is its help, above)."""
    use_language(lang)
    from casino.words.glossary import text_lines

    try:
        lines = text_lines(word)
    except KeyError as exc:
        fail(str(exc.args[0]))
    for line in lines:
        typer.echo(line)


# ----------------------------------------------------------------------
# casino moves


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, path)


@command("moves", N_(
    "List the legal moves of a position, one per line in canonical notation.\n"
    "\n"
    "On a crowded table (hundreds of thousands of moves) the list is a selection, the\n"
    "strongest moves of each card, and says so. The count line goes to standard error,\n"
    "so that standard output is the moves alone, ready for a pipe."))
def moves_command(
    position: Annotated[str, typer.Argument(help=N_("A casino-position/1 JSON file, or - "
                                                    "for standard input."))],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print a JSON list "
                                                                     "of move texts."))] = False,
    lang: LangOption = None,
) -> None:
    """``casino moves`` (what it does for a person is its help, above)."""
    use_language(lang)
    from casino.engine.errors import CasinoError
    from casino.engine.position import Position

    text = _read_input(position)
    try:
        pos = Position.from_json(text)
        found = pos.candidate_moves()
    except CasinoError as exc:
        fail(str(exc))
    texts = [str(m) for m in found.moves]
    if as_json:
        import json

        if not found.complete:
            typer.echo("casino: " + _("the table is crowded: this is a selection of the "
                                      "legal moves (the strongest of each card), not all "
                                      "of them"), err=True)
        typer.echo(json.dumps(texts, ensure_ascii=False))
        return
    if pos.result is not None:
        typer.echo(_("0 legal moves: the round is over"), err=True)
        return
    words = {"n": len(texts), "seat": pos.to_move}
    if found.complete:
        typer.echo(ngettext("%(n)s legal move for seat %(seat)s:",
                            "%(n)s legal moves for seat %(seat)s:", len(texts)) % words,
                   err=True)
    else:
        typer.echo(ngettext("%(n)s legal move for seat %(seat)s, a selection (the table is "
                            "crowded: too many to list):",
                            "%(n)s legal moves for seat %(seat)s, a selection (the table is "
                            "crowded: too many to list):", len(texts)) % words, err=True)
    for t in texts:
        typer.echo(t)


# ----------------------------------------------------------------------
# casino replay


def _viewer_terminal(plain: bool) -> bool:
    """True when a game is shown in the full-screen viewer: on a terminal, without --plain."""
    return not plain and sys.stdout.isatty() and sys.stdin.isatty()


@command("replay", N_(
    "Replay a game record, every move checked by the engine: step through it in a\n"
    "viewer on a terminal, or print it move by move."))
def replay_command(
    file: Annotated[Path, typer.Argument(help=N_("A casino-record/1 file."))],
    plain: Annotated[bool, typer.Option(
        "--plain", help=N_("Print the whole game move by move instead of opening the viewer "
                           "(the default when the output is not a terminal)."))] = False,
    lang: LangOption = None,
) -> None:
    """``casino replay`` (what it does for a person is its help, above)."""
    use_language(lang)
    from casino.engine.errors import InvalidRecord
    from casino.engine.record import load_record

    try:
        record = load_record(file)
    except InvalidRecord as exc:
        fail(f"{file}: {exc}")
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, file)
    if _viewer_terminal(plain):
        from casino.tui.viewer import run_replay

        run_replay(record, source=str(file))
    else:
        from casino.tui.replay import dump_record

        dump_record(record, sys.stdout)


# ----------------------------------------------------------------------
# casino demo


def level_player(level: str, seed: int, players: int) -> Chooser:
    """Computer players at ``level``, one per seat, each given only its observation."""
    from casino.bots.levels import make_level

    bots = [make_level(level, seed=seed * 10 + seat) for seat in range(players)]

    def choose(pos: Position) -> Move:
        bot, limit = bots[pos.to_move]
        return bot.choose(pos.observation(pos.to_move), limit)

    return choose


@command("demo", N_(
    "Watch a whole game between computer players: in the replay viewer on a terminal\n"
    "(step back while it plays), or printed move by move."))
def demo_command(
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=RULES_CHOICES,
                                       autocompletion=complete_rules,
                                       help=N_("The ruleset."))] = DEFAULT.name,
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help=N_("Number of players."))] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help=N_("Seed for repeatable shuffles and players; without it the "
                                "system's random source shuffles."))] = None,
    delay: Annotated[float | None, typer.Option(
        "--delay", help=N_("Seconds to pause after each move (default 0.8 in the viewer, 0.3 "
                           "printed on a terminal, else 0)."), min=0.0)] = None,
    save: Annotated[Path | None, typer.Option("--save", help=N_("Write the game record to "
                                                                "this file."))] = None,
    level: Annotated[str, typer.Option("--level", "-l", metavar=LEVEL_CHOICES,
                                       autocompletion=complete_level,
                                       help=N_("The computer players' level."))] = "easy",
    plain: Annotated[bool, typer.Option(
        "--plain", help=N_("Print the game move by move instead of showing it in the viewer "
                           "(the default when the output is not a terminal)."))] = False,
    lang: LangOption = None,
) -> None:
    """``casino demo`` (what it does for a person is its help, above)."""
    use_language(lang)
    import time

    from casino.engine.match import Match
    from casino.play.session import bot_seed

    ruleset = _rules(rules, players)
    if level not in LEVELS:
        fail(_unknown_level(level))
    match = Match(ruleset, seed=seed)
    choose = level_player(level, bot_seed(match), ruleset.players)
    if save is not None:  # a place that cannot be written is said before the game, not after
        _save(match, save, quiet=True)
    if _viewer_terminal(plain):
        from casino.tui.viewer import run_demo

        finished = run_demo(match, choose, delay=0.8 if delay is None else delay,
                            level=level)
        if save is not None:
            _save(match, save)
        if not finished:
            typer.echo(_("the demo was stopped before the end of the game"), err=True)
        return
    from casino.tui.replay import Dump, demo_steps

    if delay is None:
        delay = 0.3 if sys.stdout.isatty() else 0.0
    wait = delay
    out = Dump(ruleset, None, sys.stdout, pause=(lambda: time.sleep(wait)) if wait > 0 else None)
    out.header(match.seed)
    with _interrupt_flag() as interrupted:
        finished = demo_steps(match, choose, out.names, out.step, stop=interrupted)
    if finished:
        out.ending(match.winner, True)
    if save is not None:
        _save(match, save)
    if not finished:
        typer.echo("\n" + _("interrupted"), err=True)
        raise typer.Exit(130)


@contextmanager
def _interrupt_flag() -> Iterator[Callable[[], bool]]:
    """Turn Ctrl-C into a flag checked between moves, so no move is ever half-played
    (the unfinished game can then be saved as a valid record)."""
    hit: list[bool] = []

    def handler(_signum: int, _frame: object) -> None:
        hit.append(True)

    import signal

    try:
        old = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave Ctrl-C alone
        yield lambda: False
        return
    try:
        yield lambda: bool(hit)
    finally:
        signal.signal(signal.SIGINT, old)


def _save(match: Match, path: Path, *, quiet: bool = False) -> None:
    """Write the demo's record (missing folders are created, as the game's Save-as does)."""
    from casino.engine.record import save_record

    try:
        save_record(match, path)
    except OSError as exc:  # a SaveError: the file and the reason, in words
        fail(str(exc))
    if not quiet:
        typer.echo(_("record saved to %(path)s") % {"path": path}, err=True)


# ----------------------------------------------------------------------
# casino play


def _resume_session(resume: Path, level: str | None, no_save: bool,
                    given: dict[str, object]) -> GameSession:
    """The saved game at ``resume``, refusing options that a saved game cannot take.

    A saved game goes on as it was saved: its rules, players, seed, names and
    computer levels come from the record, so ``--rules``, ``--players``,
    ``--seed`` and ``--name`` are refused with ``--resume`` (and
    ``--continue``), and so is ``--level`` unless the record does not say who
    plays (a ``casino demo`` record: the person takes seat 0 and the
    computers play at ``--level``).
    """
    from casino.engine.errors import CasinoError
    from casino.engine.record import load_record
    from casino.engine.rules import describe
    from casino.play.session import HUMAN, GameSession

    try:
        record = load_record(resume)
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, resume)
    except CasinoError as exc:
        fail(_("cannot resume %(path)s: %(reason)s") % {"path": resume, "reason": exc})
    conflicts = [flag for flag, value in given.items() if value is not None]
    if level is not None and record.players is not None:
        conflicts.append("--level")
    if conflicts:
        from casino.tui.replay import seat_names

        names = seat_names(record.rules, record.names)
        who = ", ".join(n if record.players is None or record.players[s] == HUMAN
                        else f"{n} ({record.players[s]})" for s, n in enumerate(names))
        fail(_("%(flags)s cannot change a saved game: it goes on as it was saved "
               "(%(rules)s, %(n)s players: %(who)s). Leave out %(flags)s, or start a new "
               "game without --resume/--continue") % {
                   "flags": pgettext("list", " and ").join(conflicts),
                   "rules": describe(record.rules)[0],
                   "n": record.rules.players, "who": who})
    try:
        return GameSession.resume(resume, level=level or "medium", autosave=not no_save)
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, resume)
    except (CasinoError, ValueError) as exc:
        fail(_("cannot resume %(path)s: %(reason)s") % {"path": resume, "reason": exc})


def _new_session(rules: str, players: int | None, level: str, seed: int | None, name: str,
                 save: Path | None, no_save: bool) -> GameSession:
    """A new game for ``casino play``."""
    from casino.play.session import GameSession

    if level not in LEVELS:
        fail(_unknown_level(level))
    ruleset = _rules(rules, players)
    try:
        return GameSession.new(ruleset, level=level, seed=seed, you=name, save_path=save,
                               autosave=not no_save)
    except OSError as exc:  # a SaveError: the file and the reason, in words
        fail(str(exc))
    except ValueError as exc:
        fail(str(exc))


@command("play", N_(
    "Play against the computer in the terminal (full screen, or --plain).\n"
    "\n"
    "On a terminal without --rules, --players, --level, --seed, --name, --resume or\n"
    "--continue, a start screen asks for them and lists the saved games to continue."))
def play_command(
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar=RULES_CHOICES, autocompletion=complete_rules,
        help=N_("The ruleset (default casino)."))] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help=N_("Number of players where the rules allow more than two; "
                                   "the computer fills the other seats."))] = None,
    level: Annotated[str | None, typer.Option(
        "--level", "-l", metavar=LEVEL_CHOICES, autocompletion=complete_level,
        help=N_("The computer's level (default medium)."))] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help=N_("Seed for repeatable shuffles (practice); without it the "
                                "system's random source shuffles and no seed is kept."))] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help=N_("Your name in the record (default: You)."))] = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", help=N_("Go on with the game saved in this record, as it was saved "
                            "(its rules, players and levels)."))] = None,
    continue_: Annotated[bool, typer.Option(
        "--continue", help=N_("Go on with the unfinished game saved most recently in the "
                              "games folder."))] = False,
    save: Annotated[Path | None, typer.Option(
        "--save", help=N_("Save the game record here (after every move) instead of the "
                          "default folder."))] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help=N_("Do not save a "
                                          "record of the game."))] = False,
    plain: PlainOption = False,
    pause: PauseOption = None,
    lang: LangOption = None,
) -> None:
    """``casino play`` (what it does for a person is its help, above)."""
    use_language(lang)
    name, resume = _play_options(save, no_save, resume, continue_, name)
    if pause is None:
        pause = 0.8 if sys.stdout.isatty() else 0.0
    full_screen = not plain and sys.stdout.isatty()
    played = _Played(save, no_save)
    given: dict[str, object] = {"--rules": rules, "--players": players, "--seed": seed,
                                "--name": name}
    chosen = resume is not None or level is not None or any(
        v is not None for v in given.values())
    if full_screen and not chosen:
        from casino.play.session import games_folder, saved_games
        from casino.tui.start import run_start

        run_start(saved_games(unfinished=True, limit=12), played.open_game, pause=pause,
                  folder=games_folder())
    else:
        if resume is not None:
            session = _resume_session(resume, level, no_save, given)
            if save is not None:
                try:
                    session.save_as(save)
                except OSError as exc:
                    fail(str(exc))
        else:
            session = _new_session(rules or DEFAULT.name, players, level or "medium", seed,
                                   name or "You", save, no_save)
        new_game = played.begin(session)
        if full_screen:
            from casino.tui.app import run_app

            run_app(session, new_game, pause=pause)
        else:
            from casino.tui.plain import run_plain

            if continue_:
                typer.echo(_("Continuing the game saved in %(path)s.") % {"path": resume})
            run_plain(session, new_game, stdin=sys.stdin, stdout=sys.stdout, pause=pause)
    played.say_saved()


def _play_options(save: Path | None, no_save: bool, resume: Path | None, continue_: bool,
                  name: str | None) -> tuple[str | None, Path | None]:
    """``casino play``'s options checked before anything starts: the name as the game
    takes it, and the record to resume (``--continue``: the one saved last). Options
    that contradict each other are refused, as is ``--continue`` with nothing to
    continue."""
    from casino.play.session import games_folder, last_saved_game, player_name

    if save is not None and no_save:
        fail(_("--save and --no-save contradict each other"))
    if resume is not None and continue_:
        fail(_("--resume and --continue contradict each other: --continue goes on with "
               "the game saved last, --resume with the one named"))
    if name is not None:
        try:
            name = player_name(name)
        except ValueError as exc:
            fail(f"--name: {exc}")
    if continue_:
        last = last_saved_game()
        if last is None:
            fail(_("no unfinished game is saved in %(folder)s: start one with casino "
                   "play, or name a record with --resume FILE") % {"folder": games_folder()})
        resume = last.path
    return name, resume


class _Played:
    """The games one ``casino play`` starts (the first and each "play again"), so that
    at the end it can say where each record is saved and how to resume it."""

    def __init__(self, save: Path | None, no_save: bool) -> None:
        self.save = save
        self.no_save = no_save
        self.sessions: list[GameSession] = []

    def begin(self, session: GameSession) -> Callable[[], GameSession]:
        """Note ``session`` as played; how to start another game like it ("play again")."""
        from casino.play.session import HUMAN, GameSession

        self.sessions.append(session)
        ruleset = session.rules
        level_used = next((p for p in session.players if p != HUMAN), "medium")
        you = session.names[session.human]

        def new_game() -> GameSession:
            self.sessions.append(GameSession.new(ruleset, level=level_used, you=you,
                                                 autosave=not self.no_save))
            return self.sessions[-1]

        return new_game

    def open_game(self, choice: StartChoice) -> tuple[GameSession, Callable[[], GameSession]]:
        """The game the start screen's ``choice`` asks for (a lesson, a saved game, or a
        new one), and how to start another like it."""
        from casino.engine.rules import preset
        from casino.play.session import GameSession

        if choice.lesson:
            return _lesson_game(choice.rules, choice.name)
        if choice.resume is not None:
            session = GameSession.resume(choice.resume, autosave=not self.no_save)
            if self.save is not None:
                session.save_as(self.save)
        else:
            session = GameSession.new(
                preset(choice.rules, players=choice.players), level=choice.level,
                you=choice.name, save_path=self.save, autosave=not self.no_save)
        return session, self.begin(session)

    def say_saved(self) -> None:
        """Say on stderr where each game played was saved, and how to resume it."""
        for played in self.sessions:
            if played.save_path is not None:
                typer.echo(_("game record saved to %(path)s (resume with: casino play "
                             "--resume %(path)s)") % {"path": played.save_path}, err=True)


def _lesson_game(rules: str, you: str = "You"
                 ) -> tuple[GameSession, Callable[[], GameSession]]:
    """A lesson of ``rules`` (casino.teach.lesson), and how to start it again."""
    from casino.teach.lesson import lesson_session

    def again() -> GameSession:
        return lesson_session(rules, you=you)

    return again(), again


@command("learn", N_(
    "Learn to play: a guided first game against the beginner (docs/learn.md).\n"
    "\n"
    "The first deal is arranged so that you meet each kind of move of the ruleset\n"
    "(pair, sum, build where it has builds, sweep, trail); a lesson step beside the\n"
    "table (before each prompt with --plain) says which move to try with your own\n"
    "cards, and the round's scoring is explained at its end. A lesson is not saved."))
def learn_command(
    rules: Annotated[str, typer.Option(
        "--rules", "-r", metavar=RULES_CHOICES, autocompletion=complete_rules,
        help=N_("The ruleset to learn (default casino)."))] = DEFAULT.name,
    name: Annotated[str | None, typer.Option(
        "--name", help=N_("Your name (default: You)."))] = None,
    plain: PlainOption = False,
    pause: PauseOption = None,
    lang: LangOption = None,
) -> None:
    """``casino learn`` (what it does for a person is its help, above)."""
    from casino.play.session import player_name

    use_language(lang)
    _rules(rules, 2)  # a clear error for an unknown ruleset
    try:
        you = player_name(name)
    except ValueError as exc:
        fail(f"--name: {exc}")
    session, again = _lesson_game(rules, you)
    if pause is None:
        pause = 0.8 if sys.stdout.isatty() else 0.0
    if not plain and sys.stdout.isatty():
        from casino.tui.app import run_app

        run_app(session, again, pause=pause, lesson=True)
    else:
        from casino.tui.plain import run_plain

        run_plain(session, again, stdin=sys.stdin, stdout=sys.stdout, pause=pause,
                  lesson=True)


# ----------------------------------------------------------------------
# casino arena


def _pct(e: Estimate) -> str:
    return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _num(e: Estimate | None) -> str:
    if e is None:
        return "-"
    import math

    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return f"{e.value:+.2f}"
    return f"{e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}]"


def print_arena(result: ArenaResult, console: Console) -> None:
    """The arena's report: pairings, ratings (more than two bots), think times."""
    from rich.table import Table

    table = Table(title=_("Pairings (mirrored pairs; %(level)s intervals)")
                  % {"level": "95%"})
    for col in ("A", "B", pN_("arena", "games"), pN_("arena", "A wins"),
                pN_("arena", "B wins"), pN_("arena", "undecided"), pN_("arena", "A score"),
                pN_("arena", "A margin per round")):
        table.add_column(pgettext("arena", col),
                         justify="left" if col in ("A", "B") else "right")
    for pr in result.pairings:
        table.add_row(pr.a, pr.b, str(len(pr.games)), str(pr.wins_a), str(pr.wins_b),
                      str(pr.undecided), _pct(pr.score_a()), _num(pr.margin()))
    console.print(table)
    ratings = result.ratings
    if ratings is not None and len(result.pairings) > 1:
        anchor = result.players[ratings.anchor]
        rt = Table(title=_("Bradley–Terry ratings, %(anchor)s = 1000") % {"anchor": anchor},
                   caption=ngettext("%(level)s percentile bootstrap over mirrored pairs, "
                                    "%(n)s sample",
                                    "%(level)s percentile bootstrap over mirrored pairs, "
                                    "%(n)s samples", ratings.samples)
                   % {"level": "95%", "n": ratings.samples})
        rt.add_column("#", justify="right")
        rt.add_column(pgettext("arena", "bot"))
        rt.add_column("Elo", justify="right")
        rt.add_column(pgettext("arena", "interval"), justify="right")
        order = sorted(range(len(result.players)), key=lambda i: -ratings.elo[i])
        for rank, i in enumerate(order, start=1):
            rt.add_row(str(rank), result.players[i], f"{ratings.elo[i]:.0f}",
                       f"[{ratings.low[i]:.0f}, {ratings.high[i]:.0f}]")
        console.print(rt)
    tt = Table(title=_("Think time per decision (forced moves not timed)"))
    tt.add_column(pgettext("arena", "bot"))
    for col in (pN_("arena", "decisions"), pN_("arena", "median"), "p95",
                pN_("arena", "max")):
        tt.add_column(pgettext("arena", col), justify="right")
    for name, st in result.think().items():
        tt.add_row(name, str(st.decisions), _secs(st.median), _secs(st.p95), _secs(st.max))
    console.print(tt)


def _secs(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def _pairing(text: str) -> tuple[str, str]:
    """``A,B`` (``--also``): the names on each side of the comma (level names hold a colon)."""
    a, sep, b = text.partition(",")
    if not sep or not a.strip() or not b.strip():
        fail(_("--also takes two bots separated by a comma (A,B), not %(text)r")
             % {"text": text})
    return a.strip(), b.strip()


def _arena_merge(ctx: typer.Context, files: list[str], out: Path | None, plot: Path | None,
                 bootstrap: int, seed: int | None) -> None:
    """``casino arena merge FILE...``: several result files reported (and written) as one."""
    from rich.console import Console

    from casino.engine.errors import CasinoError
    from casino.measure.arena import merge_results

    allowed = {"bots", "out", "plot", "bootstrap", "seed", "progress", "lang"}
    # An option given on the command line (its source is not the default), by the
    # enum's name: typer may carry its own copy of click's ParameterSource.
    sources = {name: ctx.get_parameter_source(name) for name in ctx.params}
    given = [name for name, source in sources.items() if name not in allowed
             and source is not None and source.name != "DEFAULT"]
    if given:
        fail(_("merge adds up result files; it takes --out, --plot, --bootstrap and "
               "--seed (the bootstrap's), not %(option)s")
             % {"option": "--" + given[0].replace("_", "-")})
    if not files:
        fail(_("give the result files to merge (casino arena merge A.json B.json)"))
    try:
        result = merge_results(files, bootstrap=bootstrap,
                               bootstrap_seed=0 if seed is None else seed)
    except OSError as exc:
        fail_file(exc, getattr(exc, "filename", None) or files[0])
    except (ValueError, KeyError, TypeError, CasinoError) as exc:
        fail(str(exc) if not isinstance(exc, KeyError) else
             _("not an arena result file: it has no %(key)s") % {"key": exc})
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(ngettext("%(n)s result file merged: %(files)s",
                           "%(n)s result files merged: %(files)s", len(files))
                  % {"n": len(files), "files": ", ".join(files)})
    print_arena(result, console)
    _write_arena(result, ["casino", "arena", "merge", *files, "--bootstrap", str(bootstrap),
                          *(["--seed", str(seed)] if seed is not None else []),
                          *(["--out", str(out)] if out is not None else []),
                          *(["--plot", str(plot)] if plot is not None else [])], out, plot)


def _write_arena(result: ArenaResult, command: list[str], out: Path | None,
                 plot: Path | None) -> None:
    """Write the result file and the ratings plot where asked."""
    if out is not None:
        try:
            result.write_json(out, command=command)
        except OSError as exc:
            fail_file(exc, out, "write")
        typer.echo(_("results written to %(path)s") % {"path": out}, err=True)
    if plot is not None and result.ratings is not None:
        try:
            result.plot(plot)
        except OSError as exc:
            fail_file(exc, plot, "write")
        typer.echo(_("ratings plot written to %(path)s") % {"path": plot}, err=True)


@command("arena", N_(
    "Play bots against each other on mirrored deals and measure them."))
def arena_command(
    ctx: typer.Context,
    bots: Annotated[list[str] | None, typer.Argument(
        help=N_("Two bots for a pairing, three or more for a round robin; level:NAME is a "
                "player level, with its own limit. 'merge FILE...' adds up result files "
                "(--out) of runs on other deals instead."), show_default=False)] = None,
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=RULES_CHOICES,
                                       autocompletion=complete_rules,
                                       help=N_("The ruleset."))] = DEFAULT.name,
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help=N_("Number of players (two bots sit "
                                                        "alternately)."))] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help=N_("Mirrored pairs of games per pairing."))] = 100,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help=N_("Seed of the deals and "
                                                                     "the bots; random if "
                                                                     "not given."))] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1,
                                      help=N_("Worker processes."))] = 1,
    seconds: Annotated[float | None, typer.Option("--seconds", min=0.0,
                                                  help=N_("Think time limit per move (not for "
                                                          "levels)."))] = None,
    iterations: Annotated[int | None, typer.Option("--iterations", min=1,
                                                   help=N_("Iteration limit per move (not for "
                                                           "levels)."))] = None,
    neighbours: Annotated[bool, typer.Option(
        "--neighbours", help=N_("Round robin: pair each bot only with the next one "
                                "listed."))] = False,
    also: Annotated[list[str] | None, typer.Option(
        "--also", metavar="A,B", help=N_("Round robin: also play bot A against bot B "
                                         "(repeatable)."), show_default=False)] = None,
    levels: Annotated[bool, typer.Option(
        "--levels", help=N_("Play each player level against the one below it, the higher "
                            "as A (give no bots)."))] = False,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE", help=N_("Keep each finished mirrored pair in FILE and "
                                            "play only the pairs not yet there: the same "
                                            "command again resumes a cut run, or grows it "
                                            "with more --games."))] = None,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1,
                                            help=N_("Stop a game undecided after this many "
                                                    "rounds."))] = 50,
    bootstrap: Annotated[int, typer.Option("--bootstrap", min=0,
                                           help=N_("Bootstrap samples for the rating "
                                                   "intervals."))] = 1000,
    out: Annotated[Path | None, typer.Option("--out", "-o", help=N_("Write the JSON result "
                                                                    "file here."))] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help=N_("Draw the ratings as a PNG "
                                                                "here."))] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress",
        help=N_("Show a progress bar (default: when standard error is a terminal)."))] = None,
    lang: LangOption = None,
) -> None:
    """``casino arena`` (what it does for a person is its help, above)."""
    import random

    from rich.console import Console

    from casino.bots.base import Limit
    from casino.engine.rules import describe
    from casino.measure.arena import game_seeds

    use_language(lang)
    bots = list(bots or [])
    if bots[:1] == ["merge"]:
        _arena_merge(ctx, bots[1:], out, plot, bootstrap, seed)
        return
    bots, extra = _arena_bots(bots, also, levels, neighbours)
    ruleset = _rules(rules, players)
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    seeds = game_seeds(seed, games)
    limits = _arena_limits(bots, ruleset, Limit(seconds=seconds, iterations=iterations))
    if progress is None:
        progress = sys.stderr.isatty()
    result = _run_arena(bots, extra, ruleset, seeds, limits, jobs, levels=levels,
                        neighbours=neighbours, max_rounds=max_rounds, progress=progress,
                        bootstrap=bootstrap, seed=seed, resume=resume)
    result.settings["seed"] = seed
    # Off a terminal rich would wrap the tables at 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(ngettext("%(rules)s; seed %(seed)s; %(games)s mirrored pair per pairing",
                           "%(rules)s; seed %(seed)s; %(games)s mirrored pairs per pairing",
                           games) % {"rules": describe(ruleset)[0], "seed": seed,
                                     "games": games})
    print_arena(result, console)
    command = _arena_command_line(
        [] if levels else bots, rules=rules, games=games, seed=seed, jobs=jobs,
        max_rounds=max_rounds, bootstrap=bootstrap,
        optional=(("--players", players), ("--seconds", seconds),
                  ("--iterations", iterations), ("--resume", resume), ("--out", out),
                  ("--plot", plot)),
        also=also or [], neighbours=neighbours, levels=levels)
    _write_arena(result, command, out, plot)


def _arena_bots(bots: list[str], also: list[str] | None, levels: bool, neighbours: bool
                ) -> tuple[list[str], list[tuple[str, str]]]:
    """The bots ``casino arena`` plays and the pairings added to its schedule (``--also``;
    with ``--levels`` each level against the one below it, the higher first), refusing
    a line-up that cannot be played: too few bots, an unknown one, a round robin of
    the same bot twice, an added pairing of bots not listed or of one bot with itself."""
    import itertools

    from casino.bots import LEVEL_PREFIX, check_name
    from casino.bots.levels import LEVELS as PLAYER_LEVELS

    extra = [_pairing(text) for text in also or []]
    if levels:
        if bots:
            fail(_("--levels plays the player levels; give no bots with it"))
        if neighbours:
            fail(_("--levels already pairs each level with the one below it"))
        bots = [LEVEL_PREFIX + name for name in PLAYER_LEVELS]
        extra = [(high, low) for low, high in itertools.pairwise(bots)] + extra
    if len(bots) < 2:
        fail(_("give at least two bots"))
    for b in bots:
        try:
            check_name(b)
        except ValueError as exc:
            fail(str(exc))
    if len(bots) > 2 and len(set(bots)) != len(bots):
        fail(_("a round robin needs distinct bots"))
    if extra and len(bots) == 2 and not levels:
        fail(_("--also adds pairings to a round robin of three bots or more"))
    for pair in extra:
        for name in pair:
            if name not in bots:
                fail(_("--also %(pair)s: %(name)r is not one of the bots listed")
                     % {"pair": ",".join(pair), "name": name})
        if pair[0] == pair[1]:
            fail(_("--also %(pair)s: a pairing needs two different bots")
                 % {"pair": ",".join(pair)})
    return bots, extra


def _arena_limits(bots: list[str], ruleset: Rules, given: Limit) -> dict[str, Limit]:
    """Each bot's think limit: the options' (``given``) for a bot, its own for a level."""
    from casino.bots import level_of

    # A level plays with its own limit on these rules, as players meet it (with two
    # decks some levels weigh more samples); the options set the bots'.
    return {b: level.on(ruleset)[1] if (level := level_of(b)) is not None else given
            for b in bots}


def _run_arena(bots: list[str], extra: list[tuple[str, str]], ruleset: Rules,
               seeds: list[int], limits: dict[str, Limit], jobs: int, *, levels: bool,
               neighbours: bool, max_rounds: int, progress: bool, bootstrap: int,
               seed: int, resume: Path | None) -> ArenaResult:
    """Play the arena: one pairing of two bots, else a round robin on the schedule the
    options ask for. A ``--resume`` file that cannot be written, or that holds a run
    played otherwise, stops the command with the reason (any other ValueError is a bug
    and is raised)."""
    from casino.measure.arena import Schedule, run_pairing, run_round_robin

    try:
        if len(bots) == 2 and not levels:
            return run_pairing(bots[0], bots[1], ruleset, seeds, limits[bots[0]],
                               limits[bots[1]], jobs,
                               max_rounds=max_rounds, progress=progress,
                               bootstrap=bootstrap, bootstrap_seed=seed, journal=resume)
        schedule: Schedule = ("given" if levels else "neighbours" if neighbours
                              else "all")
        return run_round_robin(bots, ruleset, seeds, limits, jobs, schedule=schedule,
                               pairs=extra, max_rounds=max_rounds, progress=progress,
                               bootstrap=bootstrap, bootstrap_seed=seed,
                               journal=resume)
    except OSError as exc:
        assert resume is not None  # the only file a run reads or appends to
        fail_file(exc, resume, "write")
    except ValueError as exc:
        if resume is None:
            raise
        fail(str(exc))  # a resume file played otherwise


def _arena_command_line(bots: list[str], *, rules: str, games: int, seed: int, jobs: int,
                        max_rounds: int, bootstrap: int,
                        optional: tuple[tuple[str, object], ...], also: list[str],
                        neighbours: bool, levels: bool) -> list[str]:
    """The command line that reproduces an arena run, its seed made explicit, kept in
    the result file: the options given (``optional``: those left out are None) and
    those with a default."""
    command = ["casino", "arena", *bots, "--rules", rules,
               "--games", str(games),
               "--seed", str(seed), "--jobs", str(jobs), "--max-rounds", str(max_rounds),
               "--bootstrap", str(bootstrap)]
    for flag, value in optional:
        if value is not None:
            command += [flag, str(value)]
    for text in also:
        command += ["--also", text]
    if neighbours:
        command.append("--neighbours")
    if levels:
        command.append("--levels")
    return command


command("score", scorepad.HELP)(score_command)
command("helper", helper.HELP)(helper_command)
command("review", review.HELP)(review_command)
command("serve", web_cli.HELP)(serve_command)


def main() -> None:
    """The console entry point (``casino``)."""
    app()


if __name__ == "__main__":
    main()
