"""The terminal game's start screen: a new game (ruleset, players, level, name) or a saved one.

``casino play`` on a terminal with no choices on its command line opens
here. The person picks the rules (and may start the guided first game of them,
"Learn to play"), how many play (where the rules allow more
than two), the computer's level and their name, or continues one of the
games saved in the games folder (:func:`casino.play.session.saved_games`, the most
recent first). The game then starts in the same full-screen app.

The screen only gathers choices (:class:`StartChoice`): the command opens the
session, so a game started here is the same as one started with options
(saved the same way, resumed the same way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from casino.bots.levels import LEVELS
from casino.engine.presets import DEFAULT
from casino.engine.rules import PRESET_NAMES, describe, player_counts, preset
from casino.i18n import _, ngettext, pN_
from casino.play.names import shown_name
from casino.play.session import NAME_LENGTH, GameSession, SavedGame, player_name
from casino.tui.app import DEFAULT_PAUSE, GameScreen, NewGame
from casino.tui.keys import translate_keys

#: The level a new game is offered at first.
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True)
class StartChoice:
    """What the person chose: a new game, or (``resume``) a saved game to continue."""

    rules: str = DEFAULT.name
    players: int | None = None
    level: str = DEFAULT_LEVEL
    name: str = "You"
    resume: Path | None = None
    #: A lesson (casino.teach.lesson): the guided first game of ``rules``, two players,
    #: against the beginner, with the lesson panel.
    lesson: bool = False


#: Opens the session of a choice, and how to start another like it ("play again");
#: OSError or ValueError say why it cannot (shown on the start screen).
OpenGame = Callable[[StartChoice], tuple[GameSession, NewGame | None]]


def players_label(name: str, n: int) -> str:
    """``2 players``, ``4 players, two against two``."""
    rules = preset(name, players=n)
    if rules.partnerships:
        return _("%(n)s players, two partnerships (you and a computer partner)") % {"n": n}
    if n > 2:
        return _("%(n)s players, each for themselves") % {"n": n}
    return ngettext("%(n)s player", "%(n)s players", n) % {"n": n}


class StartScreen(Screen[None]):
    """Choose a new game or a saved game to continue."""

    AUTO_FOCUS = "#start-rules"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", pN_("key", "Start a new game")),
        Binding("ctrl+l", "learn", pN_("key", "Learn to play")),
        Binding("escape", "quit", pN_("key", "Quit")),
    ]

    def __init__(self, saved: Sequence[SavedGame], open_game: OpenGame, *,
                 pause: float = DEFAULT_PAUSE, folder: Path | None = None) -> None:
        super().__init__()
        translate_keys(self)
        self.saved = list(saved)
        self.open_game = open_game
        self.pause = pause
        self.folder = folder

    def compose(self) -> ComposeResult:
        """A new game's form (rules, players, level, name) with its buttons, then the saved
        games to continue, most recent first."""
        rules = [(describe(preset(n))[0], n) for n in PRESET_NAMES]
        levels = [(f"{lv.shown_name()}: {lv.shown_blurb()}", name)
                  for name, lv in LEVELS.items()]
        with VerticalScroll(id="start-box"):
            yield Static(Content.styled(" ♠ ♥ CASINO ♣ ♦ ", "bold"), id="start-title")
            yield Static(Content.styled(_("A new game"), "bold"), classes="start-heading")
            with Horizontal(classes="start-row"):
                yield Label(_("Rules"), classes="start-label")
                yield Select(rules, value=DEFAULT.name, allow_blank=False, id="start-rules")
            with Horizontal(classes="start-row"):
                yield Label(_("Players"), classes="start-label")
                yield Select(self._players_options(DEFAULT.name), value=2, allow_blank=False,
                             id="start-players")
            with Horizontal(classes="start-row"):
                yield Label(_("Computer"), classes="start-label")
                yield Select(levels, value=DEFAULT_LEVEL, allow_blank=False, id="start-level")
            with Horizontal(classes="start-row"):
                yield Label(_("Your name"), classes="start-label")
                yield Input(placeholder=shown_name("You"), max_length=NAME_LENGTH,
                            id="start-name")
            with Horizontal(classes="start-buttons"):
                yield Button(_("Start the game (Ctrl+S)"), id="start-new", variant="primary")
                yield Button(_("Learn to play (Ctrl+L)"), id="start-learn", variant="success")
                yield Button(_("Quit (Esc)"), id="start-quit", variant="error")
            yield Static(id="start-error")
            yield Static(Content.styled(_("Continue a saved game"), "bold"),
                         classes="start-heading")
            yield OptionList(*self._saved_options(), id="start-saved")
        yield Footer()

    def _players_options(self, name: str) -> list[tuple[str, int]]:
        return [(players_label(name, n), n) for n in player_counts(name)]

    def _saved_options(self) -> list[Option]:
        if not self.saved:
            words = (_("No unfinished game is saved in %(folder)s.") % {"folder": self.folder}
                     if self.folder is not None else _("No unfinished game is saved."))
            return [Option(Content.styled(words, "dim"),
                           disabled=True)]
        return [Option(g.words(), id=str(i)) for i, g in enumerate(self.saved)]

    def on_select_changed(self, event: Select.Changed) -> None:
        """Other rules chosen: offer their player counts, keeping the count chosen where the
        rules allow it; a single count leaves nothing to choose."""
        if event.select.id != "start-rules" or not isinstance(event.value, str):
            return
        players = self.query_one("#start-players", Select)
        current = players.value
        options = self._players_options(event.value)
        players.set_options(options)
        counts = [n for _, n in options]
        players.value = current if current in counts else counts[0]
        self.query_one("#start-players").disabled = len(counts) == 1

    def on_mount(self) -> None:
        """The house rules are played by two only: nothing to choose in Players until other
        rules are."""
        self.query_one("#start-players").disabled = len(player_counts(DEFAULT.name)) == 1

    def choice(self) -> StartChoice:
        """The new game chosen on the form; ValueError says what is wrong with it."""
        rules = self.query_one("#start-rules", Select).value
        players = self.query_one("#start-players", Select).value
        level = self.query_one("#start-level", Select).value
        name = player_name(self.query_one("#start-name", Input).value)
        assert isinstance(rules, str) and isinstance(players, int) and isinstance(level, str)
        return StartChoice(rules, players, level, name)

    def lesson_choice(self) -> StartChoice:
        """The guided first game of the rules chosen on the form (two players, against
        the beginner); ValueError says what is wrong with the name."""
        chosen = self.choice()
        return StartChoice(chosen.rules, 2, "beginner", chosen.name, lesson=True)

    def say(self, text: str) -> None:
        """Say on the form why the chosen game cannot start (a bad name, a saved game that
        cannot be read)."""
        self.query_one("#start-error", Static).update(Content.styled(text, "bold #ff7b72"))

    async def begin(self, choice: Callable[[], StartChoice]) -> None:
        """Open the chosen game and play it; what went wrong is said here instead."""
        try:
            chosen = choice()
            session, new_game = self.open_game(chosen)
        except (OSError, ValueError) as exc:
            self.say(str(exc))
            return
        app = self.app
        assert isinstance(app, StartApp)
        app.game = GameScreen(session, new_game, pause=self.pause, lesson=chosen.lesson)
        await app.push_screen(app.game)  # the game quits the app: it never comes back here

    async def action_start(self) -> None:
        """Ctrl+S: start the new game chosen on the form."""
        await self.begin(self.choice)

    async def action_learn(self) -> None:
        """Ctrl+L: start the guided first game of the rules chosen."""
        await self.begin(self.lesson_choice)

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the name box starts the new game, as a form's Enter does."""
        event.stop()
        await self.begin(self.choice)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start, Learn to play or Quit, as the keys do."""
        if event.button.id == "start-new":
            await self.begin(self.choice)
        elif event.button.id == "start-learn":
            await self.begin(self.lesson_choice)
        elif event.button.id == "start-quit":
            self.app.exit()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A saved game chosen: continue it (its record says its rules, players and levels)."""
        event.stop()
        if event.option.id is None:
            return
        game = self.saved[int(event.option.id)]
        await self.begin(lambda: StartChoice(resume=game.path))

    def action_quit(self) -> None:
        """Escape: quit without playing."""
        self.app.exit()


class StartApp(App[None]):
    """The start screen, then the game chosen there, in one full-screen app."""

    CSS_PATH = ["app.tcss", "start.tcss"]  # noqa: RUF012
    TITLE = "Casino"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, saved: Sequence[SavedGame], open_game: OpenGame, *,
                 pause: float = DEFAULT_PAUSE, folder: Path | None = None) -> None:
        super().__init__()
        self.start = StartScreen(saved, open_game, pause=pause, folder=folder)
        #: The game screen, once a game was chosen.
        self.game: GameScreen | None = None

    def get_default_screen(self) -> Screen[Any]:
        """The start screen, made in ``__init__`` so that tests reach it as ``app.start``."""
        return self.start

    @property
    def session(self) -> GameSession | None:
        """The session played last (None when the person quit at the start screen)."""
        return self.game.session if self.game is not None else None


def run_start(saved: Sequence[SavedGame], open_game: OpenGame, *,
              pause: float = DEFAULT_PAUSE, folder: Path | None = None) -> GameSession | None:
    """Show the start screen, then play the game chosen there until the person quits."""
    app = StartApp(saved, open_game, pause=pause, folder=folder)
    app.run()
    return app.session


__all__ = ["DEFAULT_LEVEL", "OpenGame", "StartApp", "StartChoice", "StartScreen",
           "players_label", "run_start"]
