"""The terminal game's lesson panel: the guided first game's step, beside the table.

A lesson game (``casino learn``, or "Learn to play" on the start screen) is an
ordinary :class:`~casino.play.session.GameSession` whose screen shows this panel; its
text is :func:`casino.teach.lesson.session_step` of the person's seat, worked out
from what they see, and redrawn whenever the game screen redraws.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from casino.i18n import _, pgettext
from casino.play.session import GameSession
from casino.teach.lesson import Step, session_step


class LessonPanel(Static):
    """The current lesson step: its headline as the border title, then its text."""

    DEFAULT_CSS = """
    LessonPanel {
        height: auto;
        max-height: 16;
        overflow-y: auto;
        padding: 0 1;
        border: round #e3b341;
        border-title-color: #e3b341;
        border-title-style: bold;
    }
    """

    step: Step | None = None

    def show(self, session: GameSession) -> Step:
        """Work out the step for the person's seat and show it."""
        step = session_step(session, session.human)
        self.step = step
        self.border_title = _("Lesson: %(title)s") % {"title": pgettext("lesson", step.title)}
        lines = step.lines()[1:]
        self.update(Content("\n".join(lines)))
        return step


__all__ = ["LessonPanel"]
