"""A game's numbered public events, and words told in each reader's language.

The server tells one game to people reading different languages: two players at one
table may read Finnish and Swedish, a spectator English. So the words of what happened
at the table are not worded once, in whatever language the change was made in, and
shared: a :class:`Told` keeps how to word them, and words them in the language in force
when they are sent (each connection's own, :mod:`casino.web.routes.socket`), once per
language. What is stored stays as it was: an event's ``words`` are its English ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from casino import i18n

T = TypeVar("T")


class Told:
    """Words worded when first asked for in each language, and kept (at most one wording
    per language, :data:`casino.i18n.LANGUAGES`): ``say`` words them in the language in
    force."""

    __slots__ = ("_said", "say")

    def __init__(self, say: Callable[[], str]) -> None:
        self.say = say
        self._said: dict[str, str] = {}

    def __call__(self) -> str:
        """The words in the language in force."""
        lang = i18n.current()
        said = self._said.get(lang)
        if said is None:
            said = self._said[lang] = self.say()
        return said

    def english(self) -> str:
        """The words in English, the language of what is stored."""
        with i18n.using(i18n.DEFAULT):
            return self()

    def __repr__(self) -> str:
        return f"Told({self.english()!r})"


@dataclass(frozen=True)
class Event:
    """An event as sent to clients (``words_you`` goes only to the seat that acted).

    ``words`` and ``words_you`` are the English words, as stored; an event made by this
    process also has ``told`` and ``told_you``, which word it in the reader's language
    (:func:`told_event`). An event read from the database has only its stored words.
    """

    n: int
    kind: str
    seat: int | None
    text: str | None
    words: str
    words_you: str | None = None
    told: Told | None = field(default=None, compare=False, repr=False)
    told_you: Told | None = field(default=None, compare=False, repr=False)

    def to_json(self, viewer: int | None) -> dict[str, Any]:
        """The event as a page's log shows it to ``viewer``, in the language in force: the
        words addressed to the seat itself where it is that seat's ("You took")."""
        if self.words_you and viewer == self.seat:
            words = self.told_you() if self.told_you is not None else self.words_you
        else:
            words = self.told() if self.told is not None else self.words
        return {"n": self.n, "kind": self.kind, "seat": self.seat, "text": self.text,
                "words": words}


def in_language(lang: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` worded in ``lang``: a job sent to a worker (another thread or
    process, which does not share the asker's language) carries its asker's."""
    with i18n.using(lang):
        return fn(*args)


def told_event(n: int, kind: str, seat: int | None, text: str | None,
               say: Callable[[], str], say_you: Callable[[], str] | None = None) -> Event:
    """Event ``n``, worded by ``say`` (and, to the seat that acted, ``say_you``) in each
    reader's language; stored with its English words."""
    told = Told(say)
    told_you = Told(say_you) if say_you is not None else None
    return Event(n, kind, seat, text, told.english(),
                 told_you.english() if told_you is not None else None, told, told_you)


def retold(event: Event, kind: str, say: Callable[[], str]) -> Event:
    """``event`` as ``kind``, told to everyone (its actor too) by ``say``."""
    told = Told(say)
    return Event(event.n, kind, event.seat, event.text, told.english(), None, told, None)
