"""The messages a client sends over the game WebSocket, as pydantic models.

Each message is read once, by :func:`parse`, into one of the models of
:data:`Inbound` (a union told apart by ``type``): a message with an unknown type,
a missing, extra or mistyped field, or a value out of range is refused there with
:class:`MessageError`, whose text names the field and says what it should be, so the
socket's handlers only ever see well-formed messages. docs/server.md lists the
messages; docs/protocol.schema.json is the JSON Schema of :data:`Inbound`, and
docs/protocol.outbound.schema.json that of :data:`Outbound`, the messages the server
sends (``python -m casino.web.messages docs`` writes them, and docs/api.schema.json,
the HTTP API's bodies of :mod:`casino.web.bodies`; a test keeps them equal to the
models).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from casino import i18n
from casino.i18n import _, ngettext, pgettext, pN_
from casino.web.phrases import PHRASES
from casino.web.value_words import value_words

#: The most table items an ``options`` request may name (a table has fewer: Kasino's
#: whole deck less the hands is 48 cards; the table's size caps it too).
MAX_USES = 64
#: The longest move text a ``play`` may carry.
MAX_MOVE = 200
#: The largest id of a stored row a message may name (chat lines, mutes): the largest a
#: 32-bit INTEGER column holds (PostgreSQL's ``integer``), so that no id a client makes
#: up reaches the database as a number it cannot take (which would fail the message as a
#: server error, and drop the game for everyone at the table).
MAX_ID = 2**31 - 1
#: An example of a message, for the errors that cannot name a field.
EXAMPLE = '{"type": "hello", "since": 0}'

#: What each field is, in words: the fields' descriptions in the schema, and the second
#: half of an error about the field.
SINCE = pN_("message", "\"since\" is the last version you have: a whole number, 0 at first")
VERSION = pN_("message", "\"version\" is the version of the game you saw: a whole number (or "
              "leave it out)")
MOVE = pN_("message", "a play needs a \"move\": the move's text, such as \"9d x 9c\"")
CARD = pN_("message", "\"card\" is the card from your hand, as \"Td\"")
USES = pN_("message", "\"uses\" is a list of table item ids, as [\"t0\", \"t3\"]")
SEAT = pN_("message", "a claim names the \"seat\" of the player who is away: a seat number "
           "from 0 to the number of players less one")
CHAT_TEXT = pN_("message", "\"text\" is what you say, as text (or send a \"phrase\" instead)")
PHRASE_WORDS = pN_("message", "\"phrase\" is a quick phrase's code: %(codes)s (or send a "
                   "\"text\" instead)")
PHRASE = PHRASE_WORDS % {"codes": ", ".join(PHRASES)}
LINE = pN_("message", "\"message\" is the id of a chat message you were sent: a whole number")
MUTE = pN_("message", "\"mute\" is the id of one of your mutes, as the chat's status lists "
           "them")
OFF = pN_("message", "\"off\": true turns all chat off for you, false on again")

Version = Annotated[int | None, Field(default=None, ge=0, description=VERSION)]


class Message(BaseModel):
    """What every inbound message shares: its fields are checked strictly (a number is
    not a string, true is not 1), and a field the message does not have is refused,
    so a typo is an error in words rather than a field silently ignored."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(Message):
    """Ask for the state: the events after ``since`` and the view (sent on connecting)."""

    type: Literal["hello"]
    since: int = Field(default=0, ge=0, description=SINCE)


class Play(Message):
    """Play a move, given as any text the engine reads (the canonical text from ``legal``)."""

    type: Literal["play"]
    move: str = Field(min_length=1, max_length=MAX_MOVE, description=MOVE)
    version: Version

    @field_validator("move")
    @classmethod
    def _not_blank(cls, move: str) -> str:
        if not move.strip():
            raise ValueError(_("the move is blank"))
        return move


class Options(Message):
    """Ask what ``card`` can do with the table items ``uses`` (it changes nothing)."""

    type: Literal["options"]
    card: str = Field(max_length=8, description=CARD)
    uses: list[str] = Field(max_length=MAX_USES, description=USES)
    version: Version


class Hint(Message):
    """Ask for a hint for the player's turn."""

    type: Literal["hint"]


class Undo(Message):
    """Take back the player's last move, where the table allows it."""

    type: Literal["undo"]
    version: Version


class NextRound(Message):
    """Deal the next round once a round is over."""

    type: Literal["next_round"]
    version: Version


class Rematch(Message):
    """Ask for a rematch once the game is over."""

    type: Literal["rematch"]


class Resign(Message):
    """Give up the game."""

    type: Literal["resign"]


class Claim(Message):
    """Let the computer play for ``seat``, a player away on their turn.

    The seat must be one of the game's: :func:`parse` is given the number of players
    as its context, ``{"players": n}``.
    """

    type: Literal["claim"]
    seat: int = Field(ge=0, description=SEAT)
    version: Version

    @field_validator("seat")
    @classmethod
    def _a_seat_of_the_game(cls, seat: int, info: ValidationInfo) -> int:
        players = info.context.get("players") if isinstance(info.context, dict) else None
        if isinstance(players, int) and seat >= players:
            raise ValueError(_("this game's seats are 0 to %(last)s") % {"last": players - 1})
        return seat


class Pong(Message):
    """The answer to a ``ping``: the connection is alive."""

    type: Literal["pong"]


class Say(Message):
    """Say something in the chat of the sender's room (docs/server.md, "Chat"): a
    ``text``, or a quick ``phrase`` by its code, exactly one of them."""

    type: Literal["chat"]
    text: str | None = Field(default=None, description=CHAT_TEXT)
    phrase: str | None = Field(default=None, description=PHRASE,
                               json_schema_extra={"enum": list(PHRASES)})

    @field_validator("phrase")
    @classmethod
    def _a_phrase(cls, phrase: str | None) -> str | None:
        if phrase is not None and phrase not in PHRASES:
            raise ValueError(_("there is no quick phrase %(code)s") % {"code": repr(phrase[:20])})
        return phrase

    @field_validator("text")
    @classmethod
    def _said(cls, text: str | None) -> str | None:
        if text is not None and not text.strip():
            raise ValueError(_("the message is blank"))
        return text


class Report(Message):
    """Report a chat message to the server's operators, with the messages before it."""

    type: Literal["report"]
    message: int = Field(ge=0, le=MAX_ID, description=LINE)


class Mute(Message):
    """Hide, from now on and for the sender only, the chat of whoever sent ``message``."""

    type: Literal["mute"]
    message: int = Field(ge=0, le=MAX_ID, description=LINE)


class Unmute(Message):
    """Lift one of the sender's mutes (its id, from the chat's status)."""

    type: Literal["unmute"]
    mute: int = Field(ge=0, le=MAX_ID, description=MUTE)


class ChatOff(Message):
    """Turn all chat off (``off`` true) or on again for the sender, in every game."""

    type: Literal["chat_off"]
    off: bool = Field(description=OFF)


#: Every message a client may send, told apart by ``type``.
Inbound = Annotated[Hello | Play | Options | Hint | Undo | NextRound | Rematch | Resign
                    | Claim | Pong | Say | Report | Mute | Unmute | ChatOff,
                    Field(discriminator="type")]
#: The models of :data:`Inbound` by their ``type``, in the order docs/server.md lists them.
MODELS: dict[str, type[Message]] = {
    m.model_fields["type"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (Hello, Play, Options, Hint, Undo, NextRound, Rematch, Resign, Claim, Pong,
              Say, Report, Mute, Unmute, ChatOff)}
#: The message types, for the error that names them.
MESSAGE_TYPES = tuple(MODELS)


# The messages the server sends (outbound): built from these models (their ``type`` is
# filled in) and sent as their JSON objects (:meth:`Sent.wire`); they say what each holds
# (docs/protocol.outbound.schema.json), and the tests check every message of whole games
# against them.


class Sent(BaseModel):
    """What every outbound message shares: exactly its fields, each of its type (its
    ``type`` filled in, and required in the schema of what is sent)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True,
                              json_schema_serialization_defaults_required=True)

    def wire(self) -> dict[str, Any]:
        """The message as the socket sends it: its JSON object."""
        return self.model_dump(mode="json")


class MoveOption(Sent):
    """A move as the page offers it (a MOVE of docs/server.md): its canonical text (what
    ``play`` sends), the card played, its kind, the table items it uses, the value it
    captures with or builds (null for a trail) and the move in words."""

    text: str
    card: str
    kind: Literal["trail", "capture", "build", "add", "raise"]
    uses: list[str]
    value: int | None
    words: str


class Event(Sent):
    """One event of the game as the reader's log shows it (``words`` told to them);
    ``text`` is a move's text, null for events that are no move."""

    n: int
    kind: str
    seat: int | None
    text: str | None
    words: str


class ClockControl(Sent):
    """A time control (docs/server.md, "Clocks"): its kind and values (0 where unused)."""

    kind: Literal["none", "move", "bank", "correspondence"]
    seconds: int
    bank: int
    increment: int
    days: int


class ClockView(Sent):
    """A timed game's clocks, as a seat's state carries them (``clock``): the control and
    its words, each seat's milliseconds left as the server counted them when it sent the
    state (the page counts down from there, never from its own time), whose clock runs,
    from how many milliseconds left the page warns, and the server's time then."""

    control: ClockControl
    words: str
    left_ms: list[int]
    running: int | None
    warn_ms: int
    server_time: str


class State(Sent):
    """The game's state for one seat: the events since the last state sent, and the
    seat's VIEW (docs/server.md describes it; views.build_view builds it)."""

    type: Literal["state"] = "state"
    version: int
    events: list[Event]
    view: dict[str, Any]
    #: The game's clocks (null: it has none, or this is a spectator's state).
    clock: ClockView | None = None


class HintAnswer(Sent):
    """A hint for the player's turn: the move, in words, why, and the move as an option."""

    type: Literal["hint"] = "hint"
    move: str
    words: str
    reason: str
    option: MoveOption


class OptionsAnswer(Sent):
    """The answer to an ``options`` request: the moves using exactly the picked items and
    some using more, whether they are all, how many were left out, why there is none, or
    why it could not be worked out (``unknown``)."""

    type: Literal["options"] = "options"
    version: int
    card: str
    uses: list[str]
    exact: list[MoveOption]
    more: list[MoveOption]
    complete: bool
    left: int | None
    reason: str | None
    unknown: str | None


class ErrorMessage(Sent):
    """A refusal or a failure, in words: the request changed nothing."""

    type: Literal["error"] = "error"
    message: str


class RematchReady(Sent):
    """The rematch has begun: the page goes to ``url`` (the new game is ``game``)."""

    type: Literal["rematch"] = "rematch"
    url: str
    game: str


class Ping(Sent):
    """The heartbeat: the page answers ``pong``, and expects one every ``every`` seconds."""

    type: Literal["ping"] = "ping"
    every: float


class ChatLine(Sent):
    """A chat message of ``room`` (``players`` or ``spectators``): its id, the name of
    who said it, their ``text`` or their quick ``phrase``'s code (the status's
    ``phrases`` has its words), when (ISO 8601, UTC), and whether it is the reader's own."""

    type: Literal["chat"] = "chat"
    id: int
    room: Literal["players", "spectators"]
    name: str
    text: str | None
    phrase: str | None
    time: str
    mine: bool


class Muted(Sent):
    """One of the reader's mutes: its id (what ``unmute`` names) and the name muted."""

    id: int
    name: str


class ChatStatus(Sent):
    """The reader's chat: their ``room``, whether they may chat there now (``open``; if
    not, ``reason`` says why), whether they turned chat off, whom they mute, the quick
    phrases' words by code, and the longest message (characters)."""

    type: Literal["chat_status"] = "chat_status"
    room: Literal["players", "spectators"]
    open: bool
    reason: str | None
    off: bool
    muted: list[Muted]
    phrases: dict[str, str]
    length: int


class Reported(Sent):
    """The chat message ``message`` was reported to the server's operators."""

    type: Literal["reported"] = "reported"
    message: int


#: Every message the server sends, told apart by ``type``.
Outbound = Annotated[State | HintAnswer | OptionsAnswer | ErrorMessage | RematchReady | Ping
                     | ChatLine | ChatStatus | Reported, Field(discriminator="type")]

_ADAPTER: TypeAdapter[Inbound] = TypeAdapter(Inbound)
_SENT: TypeAdapter[Outbound] = TypeAdapter(Outbound)
#: The parts of an error's location that name a member of a union (as ``str`` or
#: ``list[str]``, or a model's class), not a field: left out of the field's name.
_MEMBER = re.compile(r"[a-z-]+\[.*\]|str|int|bool|float|none|[A-Z][A-Za-z]*")
#: A nested body's class named in pydantic's words of an object of the wrong kind.
_CLASS = re.compile(r" or instance of [A-Za-z]+")
_WORDS = {"since": SINCE, "version": VERSION, "move": MOVE, "card": CARD, "uses": USES,
          "seat": SEAT, "text": CHAT_TEXT, "phrase": PHRASE, "message": LINE, "mute": MUTE,
          "off": OFF}


class MessageError(ValueError):
    """A message that is not one of :data:`Inbound`: its text says which field is wrong,
    how, and what it should be (the socket sends it as an ``error``)."""


def parse(text: str | bytes, players: int | None = None) -> Inbound:
    """The message ``text`` (JSON), read once into its model; :class:`MessageError`
    naming the field otherwise. ``players``: the game's, which a claim's seat is below."""
    context = {"players": players} if players is not None else None
    try:
        return _ADAPTER.validate_json(text, context=context)
    except ValidationError as e:
        raise MessageError(explain(e)) from None


def explain(error: ValidationError, body: type[BaseModel] | None = None) -> str:
    """The first problem of ``error`` in words: the field (as ``"move"``, or ``"uses"[2]``
    for an item of a list), what is wrong with it and what it should be; how many more
    problems the message has, if any. ``body``: the model of the HTTP request body that
    was refused (:mod:`casino.web.bodies`), whose fields head the error's locations and
    whose ``WHAT`` says what it is; None for a WebSocket message (of :data:`Inbound`)."""
    if body is not None:  # worded in English, as its fields' descriptions are
        with i18n.using(i18n.DEFAULT):
            return _explained(error, body)
    return _explained(error, None)


def _explained(error: ValidationError, body: type[BaseModel] | None) -> str:
    """:func:`explain` in the language in force."""
    problems = error.errors(include_url=False)
    words = _one(problems[0], body)
    if len(problems) > 1:
        more = len(problems) - 1
        words += " " + ngettext("(and %(n)s more problem)", "(and %(n)s more problems)",
                                more) % {"n": more}
    return words


def _one(problem: Any, body: type[BaseModel] | None) -> str:
    kind, loc, given = problem["type"], problem["loc"], problem.get("input")
    if body is not None:
        model: type[BaseModel] | None = body
        what = str(getattr(body, "WHAT", "the request"))
        if not loc:
            return f"{what} is a JSON object, as docs/api.schema.json says"
    else:
        if kind == "json_invalid":
            return (_("that message is not valid JSON; send an object such as %(example)s")
                    % {"example": EXAMPLE})
        if kind == "union_tag_invalid" and isinstance(given, dict) \
                and isinstance(given.get("type"), str):
            return (_("unknown message type %(type)s; the types are %(types)s")
                    % {"type": repr(given['type'][:30]), "types": ", ".join(MESSAGE_TYPES)})
        if not loc or kind in ("union_tag_not_found", "union_tag_invalid"):
            return (_("a message is a JSON object with a \"type\", such as %(example)s")
                    % {"example": EXAMPLE})
        model, loc = MODELS.get(str(loc[0])), loc[1:]
        what = _("a \"%(type)s\" message") % {"type": problem["loc"][0]}
    loc = tuple(part for part in loc if not _MEMBER.fullmatch(str(part)))
    field, rest = str(loc[0]) if loc else "", loc[1:]
    name = f"\"{field}\"" + "".join(f"[{i}]" if isinstance(i, int) else f"[\"{i}\"]"
                                    for i in rest)
    if kind == "extra_forbidden" and not rest:
        fields = ", ".join(f"\"{f}\"" for f in model.model_fields) if model else ""
        return (_("%(name)s: %(what)s has no such field; its fields are %(fields)s")
                % {"name": name, "what": what, "fields": fields})
    if kind == "missing":
        wrong = _("missing")
    elif kind == "value_error":
        wrong = str(problem["ctx"]["error"])
    elif (worded := value_words(kind, problem.get("ctx"))) is not None:
        wrong = worded
    else:
        wrong = str(problem["msg"]).replace("a valid dictionary", "a JSON object")
        wrong = _CLASS.sub("", wrong)  # "... or instance of ClockBody": no class names
        wrong = wrong[:1].lower() + wrong[1:]
    words = _field_words(field) if body is None else _description(body, loc)
    return (_("%(name)s in %(what)s: %(wrong)s; %(words)s")
            % {"name": name, "what": what, "wrong": wrong,
               "words": words or _("see docs/server.md")})


def _field_words(field: str) -> str | None:
    """What a message's ``field`` is, in the language in force (None: not a field)."""
    if field == "phrase":
        return pgettext("message", PHRASE_WORDS) % {"codes": ", ".join(PHRASES)}
    return pgettext("message", _WORDS[field]) if field in _WORDS else None


def _description(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> str | None:
    """The description of the field at ``loc`` in ``model`` (into its nested models)."""
    words = None
    for part in loc:
        if model is None or not isinstance(part, str) or part not in model.model_fields:
            break
        info = model.model_fields[part]
        words = info.description or words
        kind = info.annotation
        model = kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None
    return words


def error(message: str) -> dict[str, Any]:
    """The ``error`` message saying ``message`` (a refusal or a failure), as sent."""
    return ErrorMessage(message=message).wire()


def check_sent(message: dict[str, Any]) -> Outbound:
    """``message``, one the server sends, read into its model of :data:`Outbound`
    (the tests check every message of whole games so); ValidationError otherwise."""
    return _SENT.validate_python(message)


def _union(title: str, adapter: TypeAdapter[Any],
           sent: bool = False) -> Callable[[], dict[str, Any]]:
    """The schema of the messages ``adapter`` reads (``sent``: as the server sends
    them), under ``title``."""
    mode: Literal["validation", "serialization"] = "serialization" if sent else "validation"
    return lambda: {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
                    **adapter.json_schema(mode=mode)}


def _api() -> dict[str, Any]:
    """The HTTP API's bodies (:mod:`casino.web.bodies`, which reads :func:`explain`
    from here: imported when asked)."""
    from casino.web.bodies import api_schema

    return api_schema()


#: The schemas docs/ holds: the file's name, and what makes it.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "protocol.schema.json": _union(
        "The messages a client sends over the game WebSocket (/ws/<id>)", _ADAPTER),
    "protocol.outbound.schema.json": _union(
        "The messages the server sends over the game WebSocket (/ws/<id>)", _SENT, sent=True),
    "api.schema.json": _api,
}


def schema(name: str = "protocol.schema.json") -> dict[str, Any]:
    """The JSON Schema the file ``name`` of docs/ holds (:data:`SCHEMAS`)."""
    return SCHEMAS[name]()


def schema_text(name: str = "protocol.schema.json") -> str:
    """:func:`schema` as the text of the file ``name`` of docs/ (the test compares them)."""
    return json.dumps(schema(name), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> None:
    """Write each schema of :data:`SCHEMAS` into ``folder`` (docs/)."""
    for name in SCHEMAS:
        (folder / name).write_text(schema_text(name), encoding="utf-8")


if __name__ == "__main__":  # python -m casino.web.messages docs
    write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
