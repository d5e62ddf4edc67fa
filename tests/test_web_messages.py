"""The WebSocket's inbound messages as models (casino.web.messages, issue 45): each message
type malformed in every field is refused in words naming the field, over the socket in
the usual ``error`` shape, and changes nothing; the checked-in JSON Schema is the models'.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from casino.web import messages
from casino.web.bodies import ROUTES
from casino.web.limits import Limits
from casino.web.messages import MESSAGE_TYPES, MODELS, SCHEMAS, MessageError, check_sent, parse
from casino.web.routes.socket import HANDLERS
from tests.web_helpers import FAST, Seat, new_game, play_against_computer, web

ROOT = Path(__file__).resolve().parent.parent

#: A well-formed message of each type (its fields apart from "type").
GOOD: dict[str, dict[str, Any]] = {
    "hello": {"since": 0},
    "play": {"move": "9d x 9c", "version": 3},
    "options": {"card": "9d", "uses": ["t0", "t2"], "version": 3},
    "hint": {},
    "undo": {"version": 3},
    "next_round": {"version": 3},
    "rematch": {},
    "resign": {},
    "claim": {"seat": 1, "version": 3},
    "pong": {},
    "chat": {"text": "good luck"},
    "report": {"message": 3},
    "mute": {"message": 3},
    "unmute": {"mute": 2},
    "chat_off": {"off": True},
}
#: The fields a message must have (the others may be left out).
REQUIRED = {"move", "card", "uses", "seat", "message", "mute", "off"}
#: A value of the wrong JSON type for each field (true is no number, "3" no integer).
WRONG_TYPE: dict[str, list[Any]] = {
    "since": ["0", True, 1.5, None, [0]], "version": ["3", False, 2.0, {}],
    "move": [7, None, ["9d"]], "card": [9, None, {"card": "9d"}],
    "uses": ["t0", None, [0], ["t0", None]], "seat": ["0", True, None, 1.0],
    "text": [7, ["hi"], {"text": "hi"}], "message": ["3", True, None, 1.0],
    "mute": ["2", False, None], "off": ["true", 1, None],
}
#: A value of the right type but out of range (a two-player game: seats 0 and 1).
OUT_OF_RANGE: dict[str, list[Any]] = {
    "since": [-1], "version": [-1], "move": ["", "   ", "9" * 201], "card": ["9d" * 5],
    "uses": [["t0"] * 65], "seat": [-1, 2, 10**6],
    "text": ["", "   "], "message": [-1], "mute": [-1], "off": [],
}


def malformed() -> list[tuple[str, dict[str, Any], str]]:
    """Every message type malformed in every field: (what, the message, the field named)."""
    cases: list[tuple[str, dict[str, Any], str]] = []
    for kind, fields in GOOD.items():
        good = {"type": kind, **fields}
        cases.append((f"{kind}: extra field", {**good, "colour": "red"}, "colour"))
        for field in fields:
            if field in REQUIRED:
                cases.append((f"{kind}: no {field}",
                              {k: v for k, v in good.items() if k != field}, field))
            for value in WRONG_TYPE[field]:
                cases.append((f"{kind}: {field} = {value!r}", {**good, field: value}, field))
            for value in OUT_OF_RANGE[field]:
                cases.append((f"{kind}: {field} = {str(value)[:20]}", {**good, field: value},
                              field))
    return cases


def test_every_good_message_is_read_into_its_model() -> None:
    assert set(GOOD) == set(MESSAGE_TYPES) == set(MODELS)
    assert set(HANDLERS) == set(MODELS.values())  # the socket has a handler for each
    for kind, fields in GOOD.items():
        msg = parse(json.dumps({"type": kind, **fields}), players=2)
        assert type(msg) is MODELS[kind] and msg.type == kind
        assert msg.model_dump(exclude_unset=True) == {"type": kind, **fields}
    # The optional fields: since is 0, version None (as null too: the game as it is).
    assert parse('{"type": "hello"}').model_dump() == {"type": "hello", "since": 0}
    undo = parse('{"type": "undo", "version": null}')
    assert undo.model_dump() == {"type": "undo", "version": None}


@pytest.mark.parametrize(("what", "message", "field"), malformed(),
                         ids=[c[0] for c in malformed()])
def test_a_malformed_message_is_refused_naming_its_field(what: str, message: dict[str, Any],
                                                         field: str) -> None:
    with pytest.raises(MessageError) as e:
        parse(json.dumps(message), players=2)
    words = str(e.value)
    assert words.startswith(f"\"{field}\""), (what, words)
    assert len(words) < 300 and "pydantic" not in words, words


def test_a_message_that_is_no_message_is_refused_in_words() -> None:
    json_hint = "send an object such as {\"type\": \"hello\", \"since\": 0}"
    for text in ("{not json", "", "\xff", "{\"type\": \"hello\",}"):
        assert str(_refusal(text)) == f"that message is not valid JSON; {json_hint}"
    for text in ("[1, 2]", "7", "null", "\"hello\"", "{}", "{\"since\": 0}",
                 "{\"type\": 5}", "{\"type\": null}"):
        assert "a JSON object with a \"type\"" in str(_refusal(text)), text
    assert str(_refusal("{\"type\": \"shout\"}")) == (
        "unknown message type 'shout'; the types are hello, play, options, hint, undo, "
        "next_round, rematch, resign, claim, pong, chat, report, mute, unmute, chat_off")
    # The words say what is wrong and what the field should be.
    assert str(_refusal("{\"type\": \"claim\", \"seat\": 2}")) == (
        "\"seat\" in a \"claim\" message: this game's seats are 0 to 1; a claim names the "
        "\"seat\" of the player who is away: a seat number from 0 to the number of players "
        "less one")
    assert str(_refusal("{\"type\": \"play\", \"move\": \"9d\", \"mvoe\": 1}")) == (
        "\"mvoe\": a \"play\" message has no such field; its fields are \"type\", \"move\", "
        "\"version\"")
    assert str(_refusal("{\"type\": \"options\", \"card\": \"9d\", \"uses\": [\"t0\", 3]}")) \
        .startswith("\"uses\"[1] in a \"options\" message: input should be a valid string")
    assert str(_refusal("{\"type\": \"play\"}")) == (
        "\"move\" in a \"play\" message: missing; a play needs a \"move\": the move's text, "
        "such as \"9d x 9c\"")
    many = str(_refusal("{\"type\": \"claim\", \"seat\": \"0\", \"version\": -1, \"x\": 0}"))
    assert many.startswith("\"seat\"") and many.endswith("(and 2 more problems)")


def _refusal(text: str) -> MessageError:
    with pytest.raises(MessageError) as e:
        parse(text, players=2)
    return e.value


def test_over_the_socket_each_malformed_message_gets_an_error_naming_it_and_changes_nothing(
        tmp_path: Path) -> None:
    with web(tmp_path) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            before = seat.until_actionable()
            version = seat.version
            for what, message, field in malformed():
                seat.send(message)
                reply = seat.recv()
                # The wire format of an error is as it was: {"type": "error", "message"}.
                assert set(reply) == {"type", "message"} and reply["type"] == "error", reply
                assert reply["message"].startswith(f"\"{field}\""), (what, reply)
            seat.hello(version)
            assert seat.version == version
            assert {k: seat.view[k] for k in ("hand", "table", "log", "scores", "to_move")} \
                == {k: before[k] for k in ("hand", "table", "log", "scores", "to_move")}
            # The game goes on: a good move after all that is played.
            seat.play_first()
            seat.recv_type("state")
            assert seat.version > version


def test_every_message_the_server_sends_in_a_whole_game_is_one_of_its_models(
        tmp_path: Path) -> None:
    """The outbound models (docs/protocol.outbound.schema.json) hold what the server sends:
    the states of a whole game, a hint, options answers, errors, pings and a rematch."""
    beating = Limits(**{**FAST.__dict__, "heartbeat_seconds": 0.05})
    with web(tmp_path, limits=beating) as client:
        gid = new_game(client)
        with client.websocket_connect(f"/ws/{gid}") as ws:
            seat = Seat(ws)
            seat.hello(0)
            v = seat.until_actionable()
            seat.send({"type": "hint"})
            seat.recv_type("hint")
            card = v["hand"][0]
            seat.send({"type": "options", "card": card, "uses": [], "version": seat.version})
            seat.recv_type("options")
            ids = [t["id"] for t in v["table"]]
            seat.send({"type": "options", "card": card, "uses": ids, "version": seat.version})
            seat.recv_type("options")
            seat.send({"type": "play"})
            seat.recv_type("error")
            seat.recv_type("ping")
            play_against_computer(seat)
            seat.send({"type": "rematch"})
            seat.recv_type("rematch")
            kinds = {m["type"] for m in seat.payloads}
            assert kinds == {"state", "hint", "options", "error", "ping", "rematch"}, kinds
            for m in seat.payloads:
                assert check_sent(m).model_dump() == m
    # And what is not one of them is refused: a field too many, or one missing.
    with pytest.raises(ValueError, match="extra"):
        check_sent({"type": "error", "message": "no", "code": 1})
    with pytest.raises(ValueError, match="every"):
        check_sent({"type": "ping"})


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_checked_in_schemas_are_the_models(name: str) -> None:
    """docs/protocol.schema.json, docs/protocol.outbound.schema.json and docs/api.schema.json
    (the HTTP API's bodies) are written by ``python -m casino.web.messages docs``; when the
    models change, write them again."""
    checked_in = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert checked_in == messages.schema_text(name), \
        "run: python -m casino.web.messages docs"
    schema = json.loads(checked_in)
    for model in schema["$defs"].values():
        assert model["additionalProperties"] is False
    if name == "api.schema.json":
        assert set(schema["routes"]) == set(ROUTES)
        return
    assert schema["discriminator"]["propertyName"] == "type"
    if name == "protocol.schema.json":
        assert set(schema["discriminator"]["mapping"]) == set(MESSAGE_TYPES)
