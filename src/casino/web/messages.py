"""The messages a client sends over the game WebSocket, as pydantic models (issue 45).

Each message is read once, by :func:`parse`, into one of the models of
:data:`Inbound` (a union told apart by ``type``): a message with an unknown type,
a missing, extra or mistyped field, or a value out of range is refused there with
:class:`MessageError`, whose text names the field and says what it should be, so the
socket's handlers only ever see well-formed messages. docs/server.md lists the
messages; docs/protocol.schema.json is the JSON Schema of :data:`Inbound`
(``python -m casino.web.messages`` writes it; a test keeps it equal to the models).
"""

from __future__ import annotations

import json
import sys
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

#: The most table items an ``options`` request may name (a table has fewer: Kasino's
#: whole deck less the hands is 48 cards; the table's size caps it too).
MAX_USES = 64
#: The longest move text a ``play`` may carry.
MAX_MOVE = 200
#: An example of a message, for the errors that cannot name a field.
EXAMPLE = '{"type": "hello", "since": 0}'

#: What each field is, in words: the fields' descriptions in the schema, and the second
#: half of an error about the field.
SINCE = "\"since\" is the last version you have: a whole number, 0 at first"
VERSION = "\"version\" is the version of the game you saw: a whole number (or leave it out)"
MOVE = "a play needs a \"move\": the move's text, such as \"9d x 9c\""
CARD = "\"card\" is the card from your hand, as \"Td\""
USES = "\"uses\" is a list of table item ids, as [\"t0\", \"t3\"]"
SEAT = ("a claim names the \"seat\" of the player who is away: a seat number from 0 to "
        "the number of players less one")

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
            raise ValueError("the move is blank")
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
            raise ValueError(f"this game's seats are 0 to {players - 1}")
        return seat


class Pong(Message):
    """The answer to a ``ping``: the connection is alive."""

    type: Literal["pong"]


#: Every message a client may send, told apart by ``type``.
Inbound = Annotated[Hello | Play | Options | Hint | Undo | NextRound | Rematch | Resign
                    | Claim | Pong, Field(discriminator="type")]
#: The models of :data:`Inbound` by their ``type``, in the order docs/server.md lists them.
MODELS: dict[str, type[Message]] = {
    m.model_fields["type"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (Hello, Play, Options, Hint, Undo, NextRound, Rematch, Resign, Claim, Pong)}
#: The message types, for the error that names them.
MESSAGE_TYPES = tuple(MODELS)

_ADAPTER: TypeAdapter[Inbound] = TypeAdapter(Inbound)
_WORDS = {"since": SINCE, "version": VERSION, "move": MOVE, "card": CARD, "uses": USES,
          "seat": SEAT}


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


def explain(error: ValidationError) -> str:
    """The first problem of ``error`` in words: the field (as ``"move"``, or ``"uses"[2]``
    for an item of a list), what is wrong with it and what it should be; how many more
    problems the message has, if any."""
    problems = error.errors(include_url=False)
    words = _one(problems[0])
    if len(problems) > 1:
        words += f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})"
    return words


def _one(problem: Any) -> str:
    kind, loc, given = problem["type"], problem["loc"], problem.get("input")
    if kind == "json_invalid":
        return f"that message is not valid JSON; send an object such as {EXAMPLE}"
    if kind == "union_tag_invalid" and isinstance(given, dict) \
            and isinstance(given.get("type"), str):
        return (f"unknown message type {given['type'][:30]!r}; the types are "
                f"{', '.join(MESSAGE_TYPES)}")
    if not loc or kind in ("union_tag_not_found", "union_tag_invalid"):
        return f"a message is a JSON object with a \"type\", such as {EXAMPLE}"
    tag, field, rest = loc[0], str(loc[1]) if len(loc) > 1 else "", loc[2:]
    name = f"\"{field}\"" + "".join(f"[{i}]" for i in rest)
    model = MODELS.get(str(tag))
    if kind == "extra_forbidden":
        fields = ", ".join(f"\"{f}\"" for f in model.model_fields) if model else ""
        return f"{name}: a \"{tag}\" message has no such field; its fields are {fields}"
    if kind == "missing":
        what = "missing"
    elif kind == "value_error":
        what = str(problem["ctx"]["error"])
    else:
        what = str(problem["msg"])
        what = what[:1].lower() + what[1:]
    return f"{name} in a \"{tag}\" message: {what}; {_WORDS.get(field, 'see docs/server.md')}"


def schema() -> dict[str, Any]:
    """The JSON Schema of :data:`Inbound`, as docs/protocol.schema.json holds it."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "The messages a client sends over the game WebSocket (/ws/<id>)",
            **_ADAPTER.json_schema()}


def schema_text() -> str:
    """:func:`schema` as the text of docs/protocol.schema.json (the test compares them)."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m casino.web.messages > docs/protocol.schema.json
    sys.stdout.write(schema_text())
