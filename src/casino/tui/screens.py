"""The terminal game's pop-up screens: the rules, a round's scoring, the game's end, saving.

Each is a modal that returns what the player chose (``dismiss``), so the game
screen alone changes the session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

from casino.i18n import _, pgettext, pN_
from casino.tui.keys import translate_keys

if TYPE_CHECKING:
    from casino.engine.rules import Rules

#: How to play, shown under the rules on the F1 screen (each line translated there:
#: ``pgettext("keys", line)``).
HOW_TO_PLAY = (
    pN_("keys", "1-9 or ←/→ then Enter: pick a card of your hand (or click it)."),
    pN_("keys", "a, b, c, ... (or a click): choose table cards and builds; again to let go."),
    pN_("keys", "↑/↓: choose among the legal options for the picked card (a build's value "
                "too)."),
    pN_("keys", "Enter: play the highlighted option.  Escape: start the choice again."),
    pN_("keys", "Greyed cards cannot be played now; the top bar names any play the rules "
                "force."),
    pN_("keys", "Type a move in notation at any time (9d x 9c 5h+4c, 5d+3s =8, 7h; or Tab "
                "first):"),
    pN_("keys", "  it goes to the move box, → completes it, Escape leaves the box."),
    pN_("keys", "?: a hint, the best play by the review's judge and why, picked for you: "
                "Enter plays it."),
    pN_("keys", "u: undo your last move (this deal).  s: save the game to a file."),
    pN_("keys", "F1: this screen.  F2: the cards seen and unseen.  q: quit (it asks first)."),
)

#: The heading of the keys on the F1 screen of the game (the viewer gives its own).
HOW_TO_PLAY_TITLE = pN_("keys", "How to play")


class RulesScreen(ModalScreen[None]):
    """The rules of the ruleset being played, and the keys (the game's, or the replay
    viewer's)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,enter", "close", pN_("key", "Close")),
    ]

    def __init__(self, title: str, lines: Sequence[str], *, saving: bool = False,
                 guide: Rules | None = None, keys: Sequence[str] = HOW_TO_PLAY,
                 keys_title: str = HOW_TO_PLAY_TITLE) -> None:
        """``title`` and ``lines`` as shown; ``keys`` and ``keys_title`` in English,
        marked ``pN_("keys", ...)``, translated here."""
        super().__init__()
        translate_keys(self)
        self.title_text = title
        self.lines = list(lines)
        # The player's guide to the preset of ``guide`` (casino.words.guide), with its
        # example; what scores is said for the game's own rules (its options included).
        self.guide: list[str] = []
        if guide is not None:
            from casino.words.guide import GUIDES, text_lines

            if guide.name in GUIDES:
                self.guide = text_lines(guide.name, width=10_000, rules=guide)  # it wraps
        # The words of that preset, in its own names (casino.words.glossary).
        self.words: list[str] = []
        if guide is not None:
            from casino.words.glossary import ALL, preset_lines

            if guide.name in ALL:
                self.words = preset_lines(guide.name)
        self.keys = [pgettext("keys", line) for line in keys]
        self.keys_title = pgettext("keys", keys_title)
        if saving:
            self.keys.append(_("The game is saved after every move: quitting loses nothing."))

    def compose(self) -> ComposeResult:
        """The rules, then the keys, then the preset's guide and its words, all in one
        scrolling box: a small terminal shows a part at a time."""
        with Vertical(id="rules-box", classes="dialog"):
            yield Static(Content.styled(self.title_text, "bold"), classes="dialog-title")
            with VerticalScroll(id="rules-text"):
                yield Static(Content("\n").join(Content(s) for s in self.lines), id="rules-body")
                yield Static(Content.styled(self.keys_title, "bold"), classes="dialog-heading")
                yield Static(Content("\n").join(Content(s) for s in self.keys), id="rules-keys")
                if self.guide:
                    yield Static(Content.styled(self.guide[0], "bold"),
                                 classes="dialog-heading")
                    yield Static(Content("\n").join(Content(s) for s in self.guide[2:]),
                                 id="rules-guide")
                if self.words:
                    yield Static(Content.styled(_("Words (casino glossary WORD)"), "bold"),
                                 classes="dialog-heading")
                    yield Static(Content("\n").join(Content(s) for s in self.words),
                                 id="rules-glossary")
            yield Button(_("Close (Esc)"), id="close", variant="primary")

    def action_close(self) -> None:
        """Escape, F1, ``q`` or Enter closes the screen: whatever key opened it closes it."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The only button is Close."""
        self.dismiss(None)


class RoundOverScreen(ModalScreen[str]):
    """A round's scoring in counting order, who won and why; then the next round or the end.

    Dismisses with ``next`` (deal the next round), ``again`` (a new game) or ``quit``.
    At the game's end, ``review`` (when given) makes the screen of the game's review,
    shown over this one: back from it, the end screen is still there.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose_default", pN_("key", "Continue")),
        Binding("n", "choose('again')", pN_("key", "Play again"), show=False),
        Binding("r", "choose('review')", pN_("key", "Review"), show=False),
        Binding("q", "choose('quit')", pN_("key", "Quit")),
    ]

    def __init__(self, title: str, lines: Sequence[str], verdict: str, *, game_over: bool,
                 can_replay: bool, saved: str | None = None,
                 review: Callable[[], Screen[None]] | None = None) -> None:
        super().__init__()
        translate_keys(self)
        self.review = review
        self.title_text = title
        self.lines = list(lines)
        self.verdict = verdict
        self.game_over = game_over
        self.can_replay = can_replay
        self.saved = saved

    def compose(self) -> ComposeResult:
        """The items in counting order, the verdict, where the game is saved, and the
        buttons this moment allows (the next round, or at the end play again and the
        review), with Quit."""
        with Vertical(id="round-box", classes="dialog"):
            yield Static(Content.styled(self.title_text, "bold"), classes="dialog-title")
            # The scoring scrolls: on a small screen (80 x 24) the buttons stay in view.
            with VerticalScroll(id="round-scroll"):
                body = Content("\n").join(Content(s) for s in self.lines)
                yield Static(body or Content.styled(_("Nothing was scored."), "dim"),
                             id="round-items")
                yield Static(Content.styled(self.verdict, "bold"), id="round-verdict")
                if self.saved:
                    saved = _("The game is saved in %(path)s") % {"path": self.saved}
                    yield Static(Content.styled(saved, "dim"), id="round-saved")
            with Horizontal(classes="dialog-buttons"):
                if not self.game_over:
                    yield Button(_("Next round (Enter)"), id="next", variant="primary")
                elif self.can_replay:
                    yield Button(_("Play again (Enter)"), id="again", variant="primary")
                if self.game_over and self.review is not None:
                    yield Button(_("Review my play (r)"), id="review")
                yield Button(_("Quit (q)"), id="quit", variant="error")

    def action_choose_default(self) -> None:
        """Enter: the next round, or at the game's end a new game when one can be made, else
        quit."""
        if not self.game_over:
            self.dismiss("next")
        elif self.can_replay:
            self.dismiss("again")
        else:
            self.dismiss("quit")

    def action_choose(self, choice: str) -> None:
        """A key's or a button's choice. ``again`` only at the game's end and where a new
        game can be made; ``review`` opens the review over this screen instead of closing
        it."""
        if choice == "again" and not (self.game_over and self.can_replay):
            return
        if choice == "review":
            if self.game_over and self.review is not None:
                self.app.push_screen(self.review())
            return
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button chooses as its key does (its id is the choice)."""
        if event.button.id is not None:
            self.action_choose(event.button.id)


class SaveScreen(ModalScreen[str | None]):
    """Ask where to save the game; dismisses with the path typed, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", pN_("key", "Cancel"))]

    def __init__(self, default: str) -> None:
        super().__init__()
        translate_keys(self)
        self.default = default

    def compose(self) -> ComposeResult:
        """The file name to save to, offered for editing."""
        with Vertical(id="save-box", classes="dialog"):
            yield Static(Content.styled(_("Save the game as"), "bold"), classes="dialog-title")
            yield Input(self.default, placeholder=_("a file name, e.g. mygame.rec"),
                        id="save-path")
            yield Static(Content.styled(_("Enter saves (later moves are saved there too); "
                                          "Escape cancels."), "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: save to the name typed; an empty name saves nothing."""
        event.stop()
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        """Escape: nothing is saved."""
        self.dismiss(None)
