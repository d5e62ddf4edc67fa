"""One line console for the line-mode front ends: lines out, one line in at a time.

The plain terminal game (``casino play --plain``), the move helper's prompt
(``casino helper`` without a table) and the score pad (``casino score``) all
talk to a person the same way, and this module is that way, written once:

- :meth:`LineConsole.say` prints whole lines and flushes, so a pipe or a screen
  reader gets each line as soon as it is said;
- :meth:`LineConsole.ask` writes a prompt and reads one line, stripped. A line
  read from a pipe or a file is echoed after its prompt, so that the transcript
  reads like a session at a terminal (a terminal echoes what is typed itself);
- the end of the input, or a quit word (:data:`QUIT_WORDS`, in any case), raises
  :class:`Stopped`; at the end of the input the console first ends the prompt's
  line, so whatever is said next starts on a line of its own;
- when both streams are the process's own terminal, the line is read with
  ``input()`` and the ``readline`` module (where Python has it), so the person
  can edit the line and recall earlier ones, and :meth:`LineConsole.completion`
  can offer Tab completion. ``readline``'s bracketed-paste escape codes are
  turned off: screen readers and ``pexpect`` read the prompt plainly.

Standard library only (the play layer), so every front end above it can use it.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import TextIO

#: Words that stop a line-mode front end at any of its prompts.
QUIT_WORDS = ("quit", "q", "exit", "bye")


class Stopped(Exception):
    """The person stopped: a quit word, or the end of the input."""


class LineConsole:
    """A person at the other end of ``stdin`` and ``stdout``, one line at a time.

    ``quit_words`` are the answers (compared without case) that stop at any
    prompt; give ``()`` for a console whose caller decides what stops it.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, *,
                 quit_words: Iterable[str] = QUIT_WORDS) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.quit_words = frozenset(w.lower() for w in quit_words)
        #: Read with ``input()`` (and ``readline``): both streams are the process's
        #: own terminal, where line editing and completion work.
        self.terminal = (stdin is sys.stdin and stdout is sys.stdout and isatty(stdin)
                         and isatty(stdout))
        #: Echo each line read: the input is not a terminal, which would have shown it.
        self.echo = not isatty(stdin)

    def say(self, *lines: str) -> None:
        """Print ``lines``, each on a line of its own (none: nothing)."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """Write ``prompt`` and read one line, stripped.

        Raises :class:`Stopped` at the end of the input (having ended the prompt's
        line) and when the line is one of the quit words.
        """
        if self.terminal:
            _readline()  # line editing and history, once loaded, for input()
            try:
                line = input(prompt)
            except EOFError:
                self.say("")
                raise Stopped from None
        else:
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                raise Stopped
            line = line.rstrip("\r\n")
            if self.echo:
                self.say(line)
        text = line.strip()
        if self.is_quit(text):
            raise Stopped
        return text

    def is_quit(self, text: str) -> bool:
        """Whether ``text`` is one of this console's quit words."""
        return text.strip().lower() in self.quit_words

    @contextlib.contextmanager
    def completion(self, complete: Callable[[str], Sequence[str]]) -> Iterator[None]:
        """Tab completion while inside: ``complete(line so far)`` lists what the whole
        line can become (moves have spaces, so the whole line is completed, not a word).

        Only at a terminal with ``readline``; elsewhere it does nothing. The previous
        completer is put back afterwards.
        """
        readline = _readline() if self.terminal else None
        if readline is None:
            yield
            return
        matches: Sequence[str] = ()

        def completer(text: str, state: int) -> str | None:
            nonlocal matches
            if state == 0:
                matches = complete(readline.get_line_buffer())
            return matches[state] if state < len(matches) else None

        old_completer = readline.get_completer()
        old_delims = readline.get_completer_delims()
        readline.set_completer(completer)
        readline.set_completer_delims("")
        readline.parse_and_bind("tab: complete")
        try:
            yield
        finally:
            readline.set_completer(old_completer)
            readline.set_completer_delims(old_delims)


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal; False for streams that cannot say (closed, or
    stand-ins without ``isatty``)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@functools.cache
def _readline() -> ModuleType | None:
    """The ``readline`` module, set up for plain reading; None where Python lacks it
    (Windows, or a build without it). Set up once, on first use."""
    try:
        import readline
    except ImportError:
        return None
    # No escape codes around the prompt: screen readers and pexpect read it plainly.
    readline.parse_and_bind("set enable-bracketed-paste off")
    return readline
