"""The JSON API's bodies as models (casino.web.bodies, issue 45): each request body
malformed in every field is refused with a 400 whose words name the field (and, on the
tools, whose ``field`` is it), and changes nothing; every /api/ route has its models,
and what the routes answer is of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.web import tools
from casino.web.bodies import (
    ROUTES,
    ChallengeRequest,
    DailyStart,
    HelperRequest,
    NewGame,
    NewPad,
    PadBody,
    PadChange,
    PairingRequest,
    Replay,
    check_answer,
    read,
)
from casino.web.body import Body
from casino.web.store import GameRow
from casino.web.tools import ScorePadRow
from tests.test_web_tools import ROUND_1

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    Seat,
    TestClient,
    browser,
    new_game,
    play_against_computer,
    sign_up,
    web,
)

#: A well-formed body of each request model.
GOOD: dict[type[Body], dict[str, Any]] = {
    NewGame: {"mode": "friends", "rules": "casino", "players": 2, "level": "beginner",
              "name": "Ann", "public": True, "people": 2, "hints": True, "takebacks": False,
              "spectators": True, "spectator_delay": 3, "chat": False,
              "clock": {"kind": "bank", "bank": 300, "increment": 3}},
    NewPad: {"rules": "casino", "names": ["Ann", "Bob"]},
    PairingRequest: {"rules": "casino", "players": 2, "rated": False, "seek": None,
                     "clock": {"kind": "move", "seconds": 30}},
    ChallengeRequest: {"name": "Bob", "rules": "casino", "players": 2, "rated": False,
                       "clock": {"kind": "correspondence", "days": 3}},
    PadBody: {},  # and the pad, the test's (a new one)
    DailyStart: {"name": "Ann"},
    PadChange: {"action": {"op": "add", "round": ROUND_1}},  # and the pad
    HelperRequest: {"rules": "casino", "players": 2, "level": None, "judge": False,
                    "seed": 3, "hand": ["9d", "2s"],
                    "table": ["9c", {"groups": [["5d", "3s"]], "value": 8, "owner": 1}],
                    "card": "9d", "using": [0]},
}
#: For each model, each field's bad values: of the wrong JSON type, or out of range
#: (a value of the right type that the model refuses).
BAD: dict[type[Body], dict[str, list[Any]]] = {
    NewGame: {
        "mode": ["solo", 1, None], "rules": ["snap", 5, None, ["casino"]],
        "players": ["2", True, 2.0, None, 1, 5], "level": ["godlike", 3, None],
        "name": [5, ["Ann"], {"n": 1}], "public": ["yes", 1, None],
        "people": ["2", False, 0, 5], "hints": ["yes", 1, [True]],
        "takebacks": ["no", 0, {}], "rated": ["yes", 1, None],
        "spectators": ["yes", 1, [True]], "spectator_delay": ["3", True, 3.0, None, -1, 21],
        "chat": ["no", 0, [False]],
        "clock": ["5 min", 300, [], {"kind": "blitz"}, {"kind": "move"},
                  {"kind": "move", "seconds": 4}, {"kind": "move", "seconds": "30"},
                  {"kind": "bank", "bank": 300, "increment": 61},
                  {"kind": "correspondence", "days": 15}, {"kind": "move", "days": 2},
                  {"kind": "none", "extra": 1}],
    },
    PairingRequest: {"rules": ["snap", 5, None], "players": ["2", True, 1, 5, None],
                     "rated": ["yes", 1, None], "seek": [7, ["x"], "x" * 65],
                     "clock": ["30 s", {"kind": "move", "seconds": 3601}]},
    ChallengeRequest: {"name": [None, 7, ["Bob"], "", "x" * 65], "rules": ["snap", 5],
                       "players": ["2", 1, 5], "rated": ["yes", 0],
                       "clock": [3, {"kind": "correspondence"}]},
    NewPad: {"rules": ["poker", 1, None], "names": ["Ann, Bob", None, [1, 2], ["A"],
                                                    ["A", "B", "C", "D", "E"]]},
    PadBody: {"pad": [None, [1], "pad", 7]},
    DailyStart: {"name": [5, ["Ann"], {"n": 1}, "x" * 201]},
    PadChange: {"pad": [None, [1]],
                "action": [None, "add", {}, {"op": "shuffle"}, {"op": 1},
                           {"op": "remove", "index": -1}, {"op": "remove", "index": "0"},
                           {"op": "add", "round": [1]}, {"op": "undo", "why": 1}]},
    HelperRequest: {
        "rules": [5, None, "poker", ["casino"]], "players": ["2", True, 1, 5],
        "level": [3, "godlike"], "judge": ["yes", 1, None], "seed": ["3", 1.5, None],
        "table": [5, None, [7], [{"groups": [], "owner": 1}],
                  [{"groups": [["5d"]], "owner": -1}], [{"groups": [["5d"]]}]],
        "hand": [5, None, [9], {"9d": 1}], "opponents": ["4", [True], [1.5]],
        "stock": ["0", -1], "captured": ["9d", [["9d", 9]]], "scores": [0, ["1"]],
        "set_aside": ["Ks", [None]], "card": [9, ["9d"]], "using": ["0", [0.5], None],
    },
}
#: The routes each request model is sent to.
SENT_TO: dict[type[Body], list[str]] = {
    NewGame: ["POST /api/games"], PairingRequest: ["POST /api/pairing"],
    ChallengeRequest: ["POST /api/challenge"],
    DailyStart: ["POST /api/daily/{rules}"],
    NewPad: ["POST /api/scorepad/new"],
    PadBody: ["POST /api/scorepad/view", "POST /api/scorepads", "PUT /api/scorepads/{pad_id}"],
    PadChange: ["POST /api/scorepad/apply"], HelperRequest: ["POST /api/helper"],
}


def malformed(model: type[Body], good: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """``model``'s body ``good`` malformed in every field: (what, the body, the field
    named)."""
    cases = [("extra field", {**good, "colour": "red"}, "colour")]
    for field, info in model.model_fields.items():
        if info.is_required():
            cases.append((f"no {field}", {k: v for k, v in good.items() if k != field}, field))
        for value in BAD[model][field]:
            cases.append((f"{field} = {str(value)[:30]}", {**good, field: value}, field))
    return cases


def test_every_field_of_every_request_model_has_bad_values() -> None:
    requests = {model for model, _ in ROUTES.values() if model is not None}
    assert set(BAD) == set(GOOD) == set(SENT_TO) == requests
    for model, fields in BAD.items():
        assert set(fields) == set(model.model_fields), model
        assert all(fields.values()), model
    assert {r for routes in SENT_TO.values() for r in routes} \
        == {r for r, (model, _) in ROUTES.items() if model is not None}


def test_a_preset_may_be_named_by_an_alias() -> None:
    """As everywhere the rules are named: "Finnish" is Kasino, "cassino" classic."""
    assert read(NewGame, {"rules": "Finnish"}).rules == "kasino"
    assert read(NewPad, {"rules": "cassino", "names": ["A", "B"]}).rules == "classic"
    assert read(HelperRequest, {"rules": " house "}).rules == "casino"


def test_every_api_route_has_its_models(tmp_path: Path) -> None:
    with web(tmp_path) as client:
        paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    routes = {f"{method.upper()} {path}" for path, methods in paths.items()
              if path.startswith("/api/") for method in methods}
    assert routes == set(ROUTES)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path) as c:
        yield c


def _count(client: TestClient, row: Any) -> int:
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with Session(engine) as s:
        return int(s.scalar(select(func.count()).select_from(row)) or 0)


def _pad(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/scorepad/new", json=GOOD[NewPad])
    assert r.status_code == 200, r.text
    return dict(r.json()["pad"])


def _sender(client: TestClient, route: str, pad: dict[str, Any]) -> tuple[
        Callable[[dict[str, Any]], Any], Callable[[], Any]]:
    """How to send a body to ``route``, and what it may change (to be the same after)."""
    method, path = route.split(" ")
    if route == "POST /api/challenge":  # from a signed-in player to an account
        assert sign_up(client, "Ann", "correct horse battery").status_code == 201
        assert sign_up(browser(client), "Bob", "correct horse battery").status_code == 201
    if route == "POST /api/daily/{rules}":
        path = "/api/daily/casino"
    if route in ("POST /api/games", "POST /api/pairing", "POST /api/challenge",
                 "POST /api/daily/{rules}"):
        return (lambda body: client.post(path, json=body),
                lambda: (_count(client, GameRow), dict(client.cookies)))
    if route == "PUT /api/scorepads/{pad_id}":
        made = client.post("/api/scorepads", json={"pad": pad}).json()
        mine = {tools.SECRET_HEADER: made["secret"]}
        url = f"/api/scorepads/{made['id']}"
        return (lambda body: client.put(url, json=body, headers=mine),
                lambda: client.get(url, headers=mine).json())
    if route == "POST /api/helper":
        return (lambda body: client.post(path, json=body),
                lambda: client.app.state.helpers._pool)  # type: ignore[attr-defined]
    return (lambda body: client.request(method, path, json=body),
            lambda: _count(client, ScorePadRow))


@pytest.mark.parametrize("route", sorted(r for rs in SENT_TO.values() for r in rs))
def test_each_malformed_body_is_refused_naming_its_field_and_changes_nothing(
        client: TestClient, route: str) -> None:
    model = next(m for m, routes in SENT_TO.items() if route in routes)
    pad = _pad(client)
    good = {**GOOD[model], "pad": pad} if "pad" in model.model_fields else GOOD[model]
    send, state = _sender(client, route, pad)
    before = state()
    checked = 0
    for what, body, field in malformed(model, good):
        r = send(body)
        assert r.status_code == 400, (route, what, r.text)
        answer = r.json()
        check_answer(route, 400, answer)
        assert answer["error"].startswith(f"\"{field}\""), (route, what, answer)
        assert len(answer["error"]) < 400 and "pydantic" not in answer["error"], answer
        if "field" in answer:
            assert answer["field"] == field, (route, what, answer)
        checked += 1
    assert state() == before
    taken = send(good)
    assert taken.status_code < 300, taken.text  # and the body they were made from is taken
    assert checked >= 1 + sum(len(v) for v in BAD[model].values())


def test_the_answers_are_of_their_models(client: TestClient) -> None:
    """What each route answers (docs/api.schema.json) is its model: a game made, the
    lobby's lists, a replay and a review, the score pad's calls and the helper's."""
    seen: set[str] = set()

    def check(route: str, r: Any) -> Any:
        check_answer(route, r.status_code, r.json())
        seen.add(route)
        return r.json()

    made = check("POST /api/games", client.post("/api/games", json=GOOD[NewGame]))
    assert "invite" in made
    gid = new_game(client)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        play_against_computer(Seat(ws))
    check("GET /api/games", client.get("/api/games"))
    check("POST /api/pairing", client.post("/api/pairing", json=GOOD[PairingRequest]))
    assert sign_up(client, "Ann", "correct horse battery").status_code == 201
    assert sign_up(browser(client), "Bob", "correct horse battery").status_code == 201
    sent = check("POST /api/challenge", client.post("/api/challenge",
                                                    json=GOOD[ChallengeRequest]))
    check("POST /api/challenges/{game_id}/decline",
          client.post(f"/api/challenges/{sent['game']}/decline"))
    replay = check_answer("GET /api/records/{game_id}", 200,
                          check("GET /api/records/{game_id}", client.get(f"/api/records/{gid}")))
    assert isinstance(replay, Replay)
    assert replay.download == f"/records/{gid}.rec" and replay.review_seat == 0
    check("GET /api/games/{game_id}/review", client.get(f"/api/games/{gid}/review"))
    check("POST /api/games/{game_id}/review", client.post(f"/api/games/{gid}/review?seat=7"))
    check("GET /api/scorepad/setup", client.get("/api/scorepad/setup"))
    pad = check("POST /api/scorepad/new", client.post("/api/scorepad/new",
                                                      json=GOOD[NewPad]))["pad"]
    check("POST /api/scorepad/view", client.post("/api/scorepad/view", json={"pad": pad}))
    pad = check("POST /api/scorepad/apply", client.post(
        "/api/scorepad/apply", json={"pad": pad, **GOOD[PadChange]}))["pad"]
    stored = check("POST /api/scorepads", client.post("/api/scorepads", json={"pad": pad}))
    mine = {tools.SECRET_HEADER: stored["secret"]}
    check("PUT /api/scorepads/{pad_id}", client.put(f"/api/scorepads/{stored['id']}",
                                                    json={"pad": pad}, headers=mine))
    check("GET /api/scorepads/{pad_id}", client.get(f"/api/scorepads/{stored['id']}",
                                                    headers=mine))
    check("POST /api/helper", client.post("/api/helper", json=GOOD[HelperRequest]))
    check("POST /api/daily/{rules}", client.post("/api/daily/casino", json={}))
    check("POST /api/daily/{day}/{rules}/practice",
          client.post("/api/daily/2020-01-01/casino/practice"))
    assert seen == set(ROUTES)
