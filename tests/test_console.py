"""The line console the line-mode front ends share (``casino.play.console``): the echo of
piped input, the end of the input, the quit words, reading a terminal with ``input()``,
and the Tab completion hook. The front ends' own transcripts are tested in
test_play_plain, test_helper and test_scorepad."""

from __future__ import annotations

import io
import sys
import types
from collections.abc import Callable, Iterator

import pytest

from casino.play import console as console_module
from casino.play.console import QUIT_WORDS, LineConsole, Stopped, isatty


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class NoIsatty:
    """A stand-in stream without ``isatty`` (some test doubles are like this)."""

    def readline(self) -> str:
        return "7h\n"


def test_say_prints_each_line_and_nothing_for_none() -> None:
    out = io.StringIO()
    con = LineConsole(io.StringIO(), out)
    con.say("one", "", "two")
    con.say()
    assert out.getvalue() == "one\n\ntwo\n"


def test_piped_input_is_echoed_after_its_prompt_and_returned_stripped() -> None:
    out = io.StringIO()
    con = LineConsole(io.StringIO("  9d x 9c  \r\n7h"), out)
    assert con.ask("Your move> ") == "9d x 9c"
    assert con.ask("Again> ") == "7h"  # the last line has no line end
    # The line as typed (without its line end), so the transcript reads like a session.
    assert out.getvalue() == "Your move>   9d x 9c  \nAgain> 7h\n"


def test_input_from_a_terminal_is_not_echoed() -> None:
    out = io.StringIO()
    con = LineConsole(Terminal("undo\n"), out)
    assert not con.echo and not con.terminal  # a terminal, but not the process's own
    assert con.ask("> ") == "undo"
    assert out.getvalue() == "> "


def test_the_end_of_the_input_ends_the_line_and_stops() -> None:
    out = io.StringIO()
    con = LineConsole(io.StringIO("hint\n"), out)
    assert con.ask("> ") == "hint"
    with pytest.raises(Stopped):
        con.ask("> ")
    assert out.getvalue() == "> hint\n> \n"  # what is said next starts on its own line
    with pytest.raises(Stopped):  # and stays ended
        con.ask("> ")


@pytest.mark.parametrize("word", [*QUIT_WORDS, "QUIT", " Bye ", "Q"])
def test_a_quit_word_stops_at_any_prompt(word: str) -> None:
    out = io.StringIO()
    con = LineConsole(io.StringIO(word + "\n"), out)
    with pytest.raises(Stopped):
        con.ask("Table: ")
    assert out.getvalue() == f"Table: {word}\n"  # echoed like any line
    assert con.is_quit(word)


def test_quit_words_are_the_consoles_own() -> None:
    con = LineConsole(io.StringIO("quit\nstop\n"), io.StringIO(), quit_words=("stop",))
    assert con.ask("> ") == "quit"
    with pytest.raises(Stopped):
        con.ask("> ")
    none = LineConsole(io.StringIO("quit\n"), io.StringIO(), quit_words=())
    assert none.ask("> ") == "quit" and not none.is_quit("q")
    # Not a quit word: words that merely start like one, or contain one.
    assert not LineConsole(io.StringIO(), io.StringIO()).is_quit("quite")
    assert not LineConsole(io.StringIO(), io.StringIO()).is_quit("q 7h")


def test_streams_that_cannot_say_are_not_terminals() -> None:
    closed = io.StringIO()
    closed.close()
    assert not isatty(closed)
    assert not isatty(NoIsatty())  # type: ignore[arg-type]
    assert isatty(Terminal())
    con = LineConsole(NoIsatty(), io.StringIO())  # type: ignore[arg-type]
    assert con.echo and con.ask("> ") == "7h"


@pytest.fixture(autouse=True)
def fresh_readline() -> Iterator[None]:
    """The console sets ``readline`` up once; each test starts and ends without it."""
    console_module._readline.cache_clear()
    yield
    console_module._readline.cache_clear()


def process_terminal(monkeypatch: pytest.MonkeyPatch,
                     readline: types.ModuleType | None = None) -> tuple[Terminal, Terminal]:
    """sys.stdin and sys.stdout replaced by streams that say they are terminals, and
    ``readline`` by ``readline`` (None: there is none), so that no test touches the
    real one. Called in the test itself: pytest puts its own sys.stdout back between
    a fixture's setup and the test."""
    stdin, stdout = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setitem(sys.modules, "readline", readline)  # None: ImportError
    return stdin, stdout


def test_the_process_terminal_is_read_with_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin, stdout = process_terminal(monkeypatch)
    answers = iter(["  9d x 9c ", "exit"])
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    con = LineConsole(stdin, stdout)
    assert con.terminal and not con.echo
    assert con.ask("Your move> ") == "9d x 9c"
    with pytest.raises(Stopped):
        con.ask("Your move> ")  # exit
    with pytest.raises(Stopped):
        con.ask("Your move> ")  # Ctrl-D
    assert prompts == ["Your move> "] * 3
    assert stdout.getvalue() == "\n"  # input() wrote the prompts; the end ended the line
    with con.completion(lambda text: ["never"]):  # no readline: completion does nothing
        pass


class FakeReadline(types.ModuleType):
    """Just what the console asks of ``readline``."""

    def __init__(self) -> None:
        super().__init__("readline")
        self.completer: Callable[[str, int], str | None] | None = None
        self.delims = " \t\n"
        self.bound: list[str] = []
        self.buffer = ""

    def get_completer(self) -> Callable[[str, int], str | None] | None:
        return self.completer

    def set_completer(self, f: Callable[[str, int], str | None] | None) -> None:
        self.completer = f

    def get_completer_delims(self) -> str:
        return self.delims

    def set_completer_delims(self, d: str) -> None:
        self.delims = d

    def parse_and_bind(self, line: str) -> None:
        self.bound.append(line)

    def get_line_buffer(self) -> str:
        return self.buffer


def test_completion_completes_the_whole_line_and_puts_the_old_completer_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeReadline()
    stdin, stdout = process_terminal(monkeypatch, fake)

    def old(text: str, state: int) -> str | None:
        return None

    fake.completer = old
    asked: list[str] = []

    def complete(line: str) -> list[str]:
        asked.append(line)
        return [w for w in ("9d x 9c", "9d x 9c 4c+5h", "hint") if w.startswith(line)]

    con = LineConsole(stdin, stdout)
    with con.completion(complete):
        assert fake.completer is not None and fake.completer is not old
        assert fake.delims == ""  # moves have spaces: the whole line is completed
        assert "tab: complete" in fake.bound
        assert "set enable-bracketed-paste off" in fake.bound  # no escape codes
        fake.buffer = "9d x"
        found = [fake.completer("x", k) for k in range(3)]
        assert found == ["9d x 9c", "9d x 9c 4c+5h", None]
        assert asked == ["9d x"]  # asked once per Tab, for the whole line so far
    assert fake.completer is old and fake.delims == " \t\n"


def test_completion_does_nothing_away_from_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeReadline()
    monkeypatch.setitem(sys.modules, "readline", fake)
    con = LineConsole(io.StringIO(), io.StringIO())
    with con.completion(lambda text: ["hint"]):
        assert fake.completer is None and fake.bound == []
