"""The command line in the language chosen: its help, and typer's own words.

``--help`` is answered while the command line is parsed, before any command (or its
``--lang``) runs, so the language is found first, from the words typed: the last
``--lang xx`` or ``--lang=xx`` (:func:`language_of`), else the terminal's
(:func:`casino.i18n.from_environment`). :func:`speaking` puts it in force for one run of
the command line, and with it the translations of the words typer writes itself: the
help's headings and notes (``Options``, ``[default: ...]``), kept in constants of
:mod:`typer.rich_utils` that are set to this project's catalog while the command line
runs and given back after; its usage line (``Usage:``, :func:`usage_words`); and its
error messages, which the click typer carries writes in English without gettext, so
each is matched whole and said again in the language (:func:`error_words`).

The help texts are written in English where each option is declared, marked with
:func:`casino.i18n.N_` (so that extraction finds them) and translated by
:func:`translated_help` at the moment the help is drawn, never when the options are
declared (that happens at import, before any language is known).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Annotated, Any

import typer

from casino import i18n
from casino.i18n import N_, _, pgettext, pN_

#: The context of typer's own words in the catalogs (``Options`` here is a
#: heading of the help, not the options of a move).
CONTEXT = "command line"

#: The words of typer's own (the help's headings and notes, its completion options) a
#: person meets in a help page, marked here so that extraction finds them (typer ships
#: no Finnish or Swedish): the constants of :mod:`typer.rich_utils`, set to them while
#: the command line runs (:data:`TYPER_WORDS`), and typer's completion options' help.
TYPER_TEXTS = (
    pN_("command line", "Usage: "),
    pN_("command line", "Options"),
    pN_("command line", "Arguments"),
    pN_("command line", "Commands"),
    pN_("command line", "Error"),
    pN_("command line", "Aborted."),
    pN_("command line", "Show this message and exit."),
    pN_("command line", "Try [blue]'{command_path} {help_option}'[/] for help."),
    pN_("command line", "[default: {}]"),
    pN_("command line", "[required]"),
    pN_("command line", "(deprecated) "),
    pN_("command line", "[env var: {}]"),
    pN_("command line", "[OPTIONS]"),
    pN_("command line", "COMMAND [ARGS]..."),
    pN_("command line", "Install completion for the current shell."),
    pN_("command line", "Show completion for the current shell, to copy it or customize the "
                 "installation."),
)

#: typer's error messages (written in English by the click it carries, which has no
#: gettext) and each one's words in the catalog: the whole message is matched, and its
#: parts (an option's name, a value) are kept as they were typed.
ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), message) for pattern, message in (
        (r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)",
         pN_("command line",
             "No such option: %(name)s (the options that come close: %(options)s)")),
        (r"No such option: (?P<name>\S+)",
         pN_("command line", "No such option: %(name)s")),
        (r"No such command (?P<name>.+)\.",
         pN_("command line", "No such command: %(name)s.")),
        (r"Missing command\.",
         pN_("command line", "A command is missing.")),
        (r"Missing argument (?P<name>.+?)\.",
         pN_("command line", "The argument %(name)s is missing.")),
        (r"Missing option (?P<name>.+?)\.",
         pN_("command line", "The option %(name)s is missing.")),
        (r"Option (?P<name>\S+) requires an argument\.",
         pN_("command line", "The option %(name)s needs a value.")),
        (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)",
         pN_("command line", "Unexpected words: %(args)s")),
        (r"Invalid value for (?P<name>.+?): Input should be a valid integer.*",
         pN_("command line", "Invalid value for %(name)s: a whole number is wanted.")),
        (r"Invalid value for (?P<name>.+?): Input should be a valid number.*",
         pN_("command line", "Invalid value for %(name)s: a number is wanted.")),
        (r"Invalid value for (?P<name>.+?): Input should be greater than or equal to "
         r"(?P<low>\S+)",
         pN_("command line", "Invalid value for %(name)s: it is at least %(low)s.")),
        (r"Invalid value for (?P<name>.+?): Input should be less than or equal to "
         r"(?P<high>\S+)",
         pN_("command line", "Invalid value for %(name)s: it is at most %(high)s.")),
        (r"Invalid value for (?P<name>.+?): (?P<message>.*)",
         pN_("command line", "Invalid value for %(name)s: %(message)s")),
    ))


def error_words(message: str) -> str:
    """typer's error ``message`` in the language in force (as it is when it is none of
    :data:`ERRORS`)."""
    for pattern, words in ERRORS:
        match = pattern.fullmatch(message)
        if match:
            return pgettext(CONTEXT, words) % match.groupdict()
    return message


#: typer's constants of words (:mod:`typer.rich_utils`), each read when typer writes it.
TYPER_WORDS = ("DEPRECATED_STRING", "DEFAULT_STRING", "ENVVAR_STRING",
               "REQUIRED_LONG_STRING", "ARGUMENTS_PANEL_TITLE", "OPTIONS_PANEL_TITLE",
               "COMMANDS_PANEL_TITLE", "ERRORS_PANEL_TITLE", "ABORTED_TEXT", "RICH_HELP")

#: ``--lang``, on every command that speaks (read before the command line is parsed, by
#: :func:`language_of`; the command checks it).
LangOption = Annotated[str | None, typer.Option(
    "--lang", metavar="en|fi|sv", help=N_("The language to read it in (default: from "
                                          "LANGUAGE, LC_ALL, LC_MESSAGES or LANG)."))]

#: The help option's words (the option is made once and kept: its help is set again,
#: in the language in force, each time it is asked for).
HELP_OPTION = pN_("command line", "Show this message and exit.")


def language_of(argv: Sequence[str], environ: dict[str, str] | None = None) -> str:
    """The language of a run of the command line ``argv``: the last ``--lang xx`` or
    ``--lang=xx`` naming a known language (before a ``--``), else the terminal's. An
    unknown one is left to the option itself, which refuses it."""
    chosen = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            chosen = i18n.known(argv[index + 1]) or chosen
        elif arg.startswith("--lang="):
            chosen = i18n.known(arg.partition("=")[2]) or chosen
    return chosen or i18n.from_environment(environ)


@contextmanager
def _patched(target: Any, values: dict[str, Any]) -> Iterator[None]:
    """``target``'s attributes set to ``values`` inside the block, then given back."""
    saved = {name: getattr(target, name) for name in values if hasattr(target, name)}
    for name in saved:
        setattr(target, name, values[name])
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(target, name, value)


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """``lang`` in force inside the block, for this project's words and for typer's:
    its headings and notes (:data:`TYPER_WORDS`) and its error messages
    (:func:`error_words`). English needs no change: its words are typer's own."""
    with ExitStack() as stack:
        code = stack.enter_context(i18n.using(lang))
        if code != i18n.DEFAULT:
            try:
                from typer import rich_utils
            except ImportError:  # typer without rich: its plain words stay English
                yield code
                return
            show_error = rich_utils.rich_format_error

            def rich_format_error(error: Any) -> None:
                english = error.format_message()
                error.format_message = lambda: error_words(english)
                show_error(error)

            words = {name: pgettext(CONTEXT, getattr(rich_utils, name))
                     for name in TYPER_WORDS}
            stack.enter_context(_patched(rich_utils, {
                **words, "rich_format_error": rich_format_error}))
        yield code


def usage_words(usage: str) -> str:
    """A usage line (``Usage: casino play [OPTIONS]``) in the language in force: its
    words, not the command's name."""
    for words in ("Usage: ", "[OPTIONS]", "COMMAND [ARGS]..."):
        usage = usage.replace(words, pgettext(CONTEXT, words), 1)
    return usage


def help_words(text: str) -> str:
    """A help text in the language in force: one of this project's (marked with
    :func:`casino.i18n.N_`), else one of typer's words."""
    translated = _(text)
    return translated if translated != text else pgettext(CONTEXT, text)


#: The attributes of a command or a parameter that hold words shown in its help.
HELP_ATTRIBUTES = ("help", "short_help")


@contextmanager
def translated_help(command: Any, ctx: Any) -> Iterator[None]:
    """The help texts of ``command``, of its parameters and (a group) of its commands
    in the language in force inside the block, then the English back (the same objects
    answer every run of the command line in a process, in any language)."""
    objects = [command, *command.get_params(ctx),
               *getattr(command, "commands", {}).values()]
    saved = [(obj, name, getattr(obj, name)) for obj in objects for name in HELP_ATTRIBUTES
             if isinstance(getattr(obj, name, None), str) and getattr(obj, name)]
    for obj, name, text in saved:
        setattr(obj, name, help_words(text))
    try:
        yield
    finally:
        for obj, name, text in saved:
            setattr(obj, name, text)
