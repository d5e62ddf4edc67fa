"""The score pad and move helper web API (issue 6): ``/api/scorepad/*``, ``/api/scorepads``
and ``/api/helper`` through Starlette's TestClient.

The score pad's calculator is stateless (the browser holds the pad), so a refused
change must answer the reason and the field and no pad at all; the pad the client
holds is the one to keep. Pads kept on the server need their secret, which the
server stores only hashed. The helper must list exactly the engine's legal moves
for positions met in real games, strongest first and capped with the count of the
rest, and answer a crowded table with a short list of legal moves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from casino import Build, Match, Position
from casino.engine.cards import card_text
from casino.engine.legality import ranked
from casino.tools.scorepad import RoundEntry, ScorePad
from casino.web import create_app, tools
from casino.web.limits import Limits
from casino.web.store import token_hash
from casino.words.shortlist import MAX_SHOWN
from tests.crowded_tables import KASINO_24, forbid_enumeration

# web_helpers imports Starlette's TestClient without its deprecation warning
from tests.web_helpers import (  # type: ignore[attr-defined]
    FAST,
    TestClient,
    db_url,
)

ROUND_1: dict[str, Any] = {"cards": [30, 22], "spades": [7, 6], "sweeps": [0, 1, 0],
           "takers": {"Td": [0], "2s": [1], "As": [1], "Ac": [0], "Ah": [1], "Ad": [0]}}
ROUND_2: dict[str, Any] = {"most_cards": [1], "most_spades": [1], "sweeps": [1],
           "takers": {"Td": [1], "2s": [1], "As": [1], "Ac": [1], "Ah": [0], "Ad": [0]}}


def tools_app(url: str) -> Any:
    """The web app, whose routes include the tools' (casino/web/routes/tools.py)."""
    return create_app(url, pool_workers=0, limits=FAST, hint_level="beginner")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(tools_app(db_url(tmp_path))) as c:
        yield c


def new_pad(client: TestClient, rules: str = "casino",
            names: list[str] | None = None) -> dict[str, Any]:
    r = client.post("/api/scorepad/new", json={"rules": rules, "names": names or ["Ann", "Bob"]})
    assert r.status_code == 200, r.text
    return dict(r.json()["pad"])


def apply(client: TestClient, pad: dict[str, Any], **action: Any) -> Any:
    return client.post("/api/scorepad/apply", json={"pad": pad, "action": action})


def applied(client: TestClient, pad: dict[str, Any], **action: Any) -> dict[str, Any]:
    r = apply(client, pad, **action)
    assert r.status_code == 200, r.text
    return dict(r.json())


# ----------------------------------------------------------------------
# Pages


def test_pages_are_served(client: TestClient) -> None:
    for url, marker in [("/scorepad", "scorepad.js"), ("/helper", "helper.js"),
                        ("/scorepad/abcdefghijkl", "scorepad.js")]:
        r = client.get(url)
        assert r.status_code == 200, url
        assert marker in r.text and "tools.css" in r.text
    assert 'data-pad-id="abcdefghijkl"' in client.get("/scorepad/abcdefghijkl").text
    assert 'data-pad-id=""' in client.get("/scorepad/bad%20id").text
    for name in ("scorepad.js", "helper.js", "tools.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_setup_choices(client: TestClient) -> None:
    choices = {c["name"]: c for c in client.get("/api/scorepad/setup").json()["choices"]}
    for name in ("casino", "classic", "royal", "spade", "kasino", "krypkasino", "mulle",
                 "tablic"):
        assert name in choices
    assert choices["classic"]["partnerships"] == [4]


# ----------------------------------------------------------------------
# The calculator


def test_rounds_are_scored_by_the_core(client: TestClient) -> None:
    pad = new_pad(client)
    out = applied(client, pad, op="add", round=ROUND_1)
    core = ScorePad.new("casino", ["Ann", "Bob"]).add_round(RoundEntry.from_json(ROUND_1))
    assert out["pad"] == core.to_json()
    view = out["view"]
    assert view["totals"] == list(core.totals) == [10, 4]
    items = view["rounds"][0]["items"]
    assert [i["item"] for i in items][:3] == ["cards", "spades", "Td"]
    assert items[-1]["totals"] == [10, 4]
    # the form gets each scoring card's text beside its symbol, and the seats
    takers = next(f for f in view["fields"] if f["kind"] == "takers")
    assert takers["codes"] == ["Td", "2s", "As", "Ac", "Ah", "Ad"]
    assert takers["cards"][0] == "10♦"
    assert view["seats"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]
    out2 = applied(client, out["pad"], op="add", round=ROUND_2)
    assert out2["view"]["totals"] == [12, 14]
    assert out2["view"]["rounds_entered"] == 2


@pytest.mark.parametrize(("entry", "field", "words"), [
    ({**ROUND_1, "cards": [40, 22]}, "cards", "52"),
    ({**ROUND_1, "takers": {**ROUND_1["takers"], "Td": [0, 1]}}, "takers", "10♦"),
    ({**ROUND_1, "spades": [14, 0]}, "spades", "14"),
    ({**ROUND_1, "sweeps": [2]}, "sweeps", "seat 2"),
    ({k: v for k, v in ROUND_1.items() if k != "spades"}, "spades", "spades"),
    ({**ROUND_1, "takers": {"Td": [0]}}, "takers", "who took"),
    ({**ROUND_1, "cards": [3, 49]}, "spades", "3 cards"),
])
def test_bad_entries_are_refused_with_reason_and_field(client: TestClient, entry: dict[str, Any],
                                                       field: str, words: str) -> None:
    pad = applied(client, new_pad(client), op="add", round=ROUND_1)["pad"]
    before = json.dumps(pad, sort_keys=True)
    r = apply(client, pad, op="add", round=entry)
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == field, body
    assert words in body["error"], body
    assert "pad" not in body  # the page keeps the pad it sent
    assert json.dumps(pad, sort_keys=True) == before
    # ... which still takes a good round
    assert applied(client, pad, op="add", round=ROUND_2)["view"]["rounds_entered"] == 2


def test_fix_a_past_round_recomputes_everything_after(client: TestClient) -> None:
    pad = new_pad(client)
    pad = applied(client, pad, op="add", round=ROUND_1)["pad"]
    pad = applied(client, pad, op="add", round=ROUND_2)["pad"]
    fixed = {**ROUND_1, "sweeps": []}
    out = applied(client, pad, op="replace", index=0, round=fixed)
    r1, r2 = out["view"]["rounds"]
    assert r1["totals"] == [8, 3]
    assert r2["items"][0]["totals"] == [8, 3 + 3]  # running totals start from the fix
    assert out["view"]["totals"] == [10, 13]
    # undo takes the correction back; remove drops the last round
    back = applied(client, out["pad"], op="undo")
    assert back["view"]["totals"] == [12, 14]
    gone = applied(client, back["pad"], op="remove", index=1)
    assert gone["view"]["totals"] == [10, 4]
    r = apply(client, gone["pad"], op="replace", index=5, round=ROUND_1)
    assert r.status_code == 400 and "no round 6" in r.json()["error"]
    fresh = new_pad(client)
    r = apply(client, fresh, op="undo")
    assert r.status_code == 400 and "nothing to undo" in r.json()["error"]
    r = apply(client, fresh, op="shuffle")
    assert r.status_code == 400 and "unknown action" in r.json()["error"]


def test_the_winner_by_the_presets_rule(client: TestClient) -> None:
    pad = new_pad(client)
    big = {"cards": [40, 12], "spades": [13, 0], "sweeps": [0] * 8,
           "takers": {"Td": [0], "2s": [0], "As": [0], "Ac": [0], "Ah": [0], "Ad": [0]}}
    out = applied(client, pad, op="add", round=big)
    out = applied(client, out["pad"], op="add", round=big)
    assert out["view"]["over"] and out["view"]["winner"] == 0
    assert "Ann" in out["view"]["rounds"][-1]["words"]
    r = apply(client, out["pad"], op="add", round=big)
    assert r.status_code == 400 and "over" in r.json()["error"]


def test_partnerships_and_finnish_carry(client: TestClient) -> None:
    pad = new_pad(client, "classic", ["Ann", "Bob", "Cy", "Di"])
    view = client.post("/api/scorepad/view", json={"pad": pad}).json()["view"]
    assert [s["name"] for s in view["sides"]] == ["Ann & Cy", "Bob & Di"]
    assert len(view["seats"]) == 4
    kasino = new_pad(client, "kasino", ["Ann", "Bob"])
    tie = {"cards": [26, 26], "spades": [7, 6],
           "takers": {"As": [0], "Ac": [0], "Ah": [1], "Ad": [1], "Td": [0], "2s": [1]}}
    out = applied(client, kasino, op="add", round=tie)
    assert out["view"]["carry"] == {"cards": 1, "spades": 0}  # the tied cards point carries
    out = applied(client, out["pad"], op="add", round=tie)
    assert out["view"]["rounds"][1]["carry_in"] == {"cards": 1, "spades": 0}
    assert out["view"]["carry"] == {"cards": 2, "spades": 0}


def test_names_and_rules_are_checked(client: TestClient) -> None:
    r = client.post("/api/scorepad/new", json={"rules": "poker", "names": ["A", "B"]})
    assert r.status_code == 400 and r.json()["field"] == "rules"
    r = client.post("/api/scorepad/new", json={"rules": "casino", "names": ["A", "a"]})
    assert r.status_code == 400 and r.json()["field"] == "names"
    r = client.post("/api/scorepad/new", json={"rules": "casino", "names": ["A", "B", "C"]})
    assert r.status_code == 400
    r = client.post("/api/scorepad/new", json={"rules": "classic", "names": ["A", "B", "C"]})
    assert r.status_code == 200


def test_imports_are_checked(client: TestClient) -> None:
    pad = applied(client, new_pad(client), op="add", round=ROUND_1)["pad"]
    r = client.post("/api/scorepad/view", json={"pad": pad})
    assert r.status_code == 200 and r.json()["view"]["totals"] == [10, 4]
    for bad, words in [({**pad, "format": "x"}, "format"),
                       ({**pad, "rounds": [{**ROUND_1, "cards": [60, 0]}]}, "round 1"),
                       ({**pad, "extra": 1}, "unknown key"), (None, "pad"), ([1], "object")]:
        r = client.post("/api/scorepad/view", json={"pad": bad})
        assert r.status_code == 400 and words in r.json()["error"], (bad, r.json())
    r = client.post("/api/scorepad/view", content=b"{nope")
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/scorepad/view", content=b" " * (tools.MAX_APPLY + 1))
    assert r.status_code == 413


# ----------------------------------------------------------------------
# Pads kept on the server


def test_save_and_load_with_the_secret(client: TestClient) -> None:
    pad = applied(client, new_pad(client), op="add", round=ROUND_1)["pad"]
    r = client.post("/api/scorepads", json={"pad": pad})
    assert r.status_code == 201, r.text
    made = r.json()
    pad_id, secret = made["id"], made["secret"]
    assert made["url"] == f"/scorepad/{pad_id}#{secret}"
    mine = {tools.SECRET_HEADER: secret}
    got = client.get(f"/api/scorepads/{pad_id}", headers=mine).json()
    assert got["pad"] == pad and got["view"]["totals"] == [10, 4]
    # another device saves a new round; the first one loads it
    pad2 = applied(client, pad, op="add", round=ROUND_2)["pad"]
    r = client.put(f"/api/scorepads/{pad_id}", json={"pad": pad2}, headers=mine)
    assert r.status_code == 200 and r.json()["saved"]
    assert client.get(f"/api/scorepads/{pad_id}", headers=mine).json()["pad"] == pad2
    # the secret is stored hashed, never as it is
    with Session(client.app.state.store.engine) as s:  # type: ignore[attr-defined]
        row = s.scalars(select(tools.ScorePadRow)).one()
    assert row.secret == token_hash(secret) and secret not in row.secret + row.pad


def test_forged_secrets_are_refused_and_change_nothing(client: TestClient) -> None:
    pad = new_pad(client)
    made = client.post("/api/scorepads", json={"pad": pad}).json()
    pad_id = made["id"]
    for headers in ({}, {tools.SECRET_HEADER: "forged"},
                    {tools.SECRET_HEADER: made["secret"] + "x"}):
        r = client.get(f"/api/scorepads/{pad_id}", headers=headers)
        assert r.status_code == 403 and "secret" in r.json()["error"]
        assert "pad" not in r.json()
        other = applied(client, pad, op="add", round=ROUND_1)["pad"]
        r = client.put(f"/api/scorepads/{pad_id}", json={"pad": other}, headers=headers)
        assert r.status_code == 403
    mine = {tools.SECRET_HEADER: made["secret"]}
    assert client.get(f"/api/scorepads/{pad_id}", headers=mine).json()["pad"] == pad
    assert client.get("/api/scorepads/nosuchpad00", headers=mine).status_code == 404
    assert client.get("/api/scorepads/..", headers=mine).status_code == 404
    # a bad pad is not stored over a good one
    r = client.put(f"/api/scorepads/{pad_id}", json={"pad": {**pad, "format": "x"}},
                   headers=mine)
    assert r.status_code == 400
    assert client.get(f"/api/scorepads/{pad_id}", headers=mine).json()["pad"] == pad


def big_pad() -> dict[str, Any]:
    """A valid pad of more than 64 KiB: Tablić rounds, with a long undo history."""
    names = ["Ann", "Bob"]
    pad = ScorePad.new("tablic", names)
    takers = {c: [i % 2] for i, c in enumerate(
        ["As", "Ac", "Ah", "Ad", "Ks", "Kc", "Kh", "Kd", "Qs", "Qc", "Qh", "Qd", "Js", "Jc",
         "Jh", "Jd", "Ts", "Tc", "Th", "Td", "2c"])}
    entry = RoundEntry.from_json({"cards": [26, 26], "takers": takers})
    for _ in range(6):
        pad = pad.add_round(entry)
    for _ in range(30):
        pad = pad.remove_round(5).add_round(entry)
    obj = pad.to_json()
    assert len(json.dumps(obj)) > tools.MAX_STORED
    return obj


def test_size_and_number_limits(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    big = big_pad()
    r = client.post("/api/scorepads", json={"pad": big})
    assert r.status_code == 413 and "KiB" in r.json()["error"]
    small = {**big, "history": []}
    made = client.post("/api/scorepads", json={"pad": small})
    assert made.status_code == 201
    r = client.put(f"/api/scorepads/{made.json()['id']}", json={"pad": big},
                   headers={tools.SECRET_HEADER: made.json()["secret"]})
    assert r.status_code == 413
    # the calculator itself takes the big pad
    assert client.post("/api/scorepad/view", json={"pad": big}).status_code == 200
    monkeypatch.setattr(tools, "MAX_PADS", 2)
    assert client.post("/api/scorepads", json={"pad": small}).status_code == 201
    r = client.post("/api/scorepads", json={"pad": small})
    assert r.status_code == 507 and "no more" in r.json()["error"]


def test_new_pads_are_rate_limited(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from casino.web.allowances import Rate

    monkeypatch.setattr(tools, "new_pads", Rate("score pads", 0.006, 2))
    pad = new_pad(client)
    assert client.post("/api/scorepads", json={"pad": pad}).status_code == 201
    assert client.post("/api/scorepads", json={"pad": pad}).status_code == 201
    r = client.post("/api/scorepads", json={"pad": pad})
    assert r.status_code == 429 and "wait" in r.json()["error"]


def test_a_database_from_before_score_pads_gets_their_table(tmp_path: Path) -> None:
    """A database made before pads were kept on the server, and before the schema was
    versioned, is given the pads' table by the first migration."""
    url = db_url(tmp_path, "old.db")
    engine = create_app(url, pool_workers=0).state.store.engine
    tools.ScorePadRow.__table__.drop(engine)  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
    engine.dispose()
    with TestClient(tools_app(url)) as c:
        assert c.post("/api/scorepads", json={"pad": new_pad(c)}).status_code == 201


# ----------------------------------------------------------------------
# The move helper


def request_of(pos: Position) -> dict[str, Any]:
    """``pos`` described as its player to move sees it, as the page sends it."""
    rules = pos.rules
    you = pos.to_move
    order = [(you + k * rules.direction) % rules.players for k in range(rules.players)]

    def rel(seat: int) -> int:
        return ((seat - you) * rules.direction) % rules.players

    table: list[Any] = []
    for item in pos.table:
        if isinstance(item, Build):
            table.append({"groups": [[card_text(c) for c in g] for g in item.groups],
                          "owner": rel(item.owner), "value": item.value})
        else:
            table.append(card_text(item))
    return {"rules": rules.to_json(), "table": table,
            "hand": [card_text(c) for c in pos.hand(you)],
            "opponents": [pos.hand_size(s) for s in order[1:]], "stock": pos.stock_size,
            "captured": [[card_text(c) for c in pos.piles[s]] for s in order],
            "scores": [pos.scores[s] for s in order],
            "set_aside": [card_text(c) for c in pos.set_aside], "level": None}


CONFIGS = [("casino", 2), ("krypkasino", 2), ("classic", 4), ("royal", 3), ("kasino", 2),
           ("mulle", 2), ("tablic", 3), ("spade", 2)]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_the_helper_lists_exactly_the_engines_moves(client: TestClient, name: str,
                                                    players: int) -> None:
    rng = random.Random(11)
    match = Match(name, seed=5, players=players)
    checked = 0
    while match.position.result is None and checked < 12:
        pos = match.position
        if rng.random() < 0.25:
            # Unjudged, the biggest captures first; the judged order is tested below.
            r = client.post("/api/helper", json={**request_of(pos), "judge": False})
            assert r.status_code == 200, r.text
            body = r.json()
            every = ranked(pos.legal_moves())  # positions of real games: small tables
            assert [m["move"] for m in body["moves"]] == [str(m) for m in every[:MAX_SHOWN]]
            assert body["complete"] and body["total"] == len(every)
            assert body["more"] == len(every) - len(body["moves"])
            assert all(m["words"] and not m["best"] for m in body["moves"])
            assert not body["judged"] and all(m["reason"] is None for m in body["moves"])
            checked += 1
        match.play(rng.choice(match.legal_moves()))
    assert checked >= 3


def test_the_helper_ranks_the_plays_by_the_judge_with_reasons(client: TestClient) -> None:
    """By default the page's plays come best first by the hints' judge, each with its
    value and reason: the same ranking as casino.teach.hint's, from what was typed."""
    from casino.teach.hint import advise
    from casino.tools.helper import position, setup_from_json

    req = {"rules": "casino", "players": 2, "level": None, "seed": 3,
           "hand": ["9d", "2s", "8c"],
           "table": ["9c", "4c", "5h", {"groups": [["5d", "3s"]], "value": 8, "owner": 1}]}
    r = client.post("/api/helper", json=req)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["judged"] and body["complete"] and body["total"] == len(body["moves"]) == 7
    values = [m["value"] for m in body["moves"]]
    assert values == sorted(values, reverse=True)
    setup = setup_from_json({k: v for k, v in req.items() if k != "players"})
    advice = advise(position(setup))  # the hint's judgement, whatever the bot's seed
    assert [m["move"] for m in body["moves"]] == [p.move for p in advice.plays]
    assert [m["reason"] for m in body["moves"]] == [p.reason for p in advice.plays]
    bad = client.post("/api/helper", json={**req, "judge": "yes"})
    assert bad.status_code == 400 and bad.json()["field"] == "judge"


def test_the_helper_marks_the_bots_pick(client: TestClient) -> None:
    req = {"rules": "casino", "players": 2, "level": "beginner", "hand": ["9d", "2s"],
           "table": ["9c", "4c", "5h", {"groups": [["5d", "3s"]], "value": 8, "owner": 1}]}
    body = client.post("/api/helper", json=req).json()
    best = [m for m in body["moves"] if m["best"]]
    assert len(best) == 1 and best[0]["move"] == body["best"]
    words = {m["move"]: m["words"] for m in body["moves"]}
    assert "5 + 4 = 9" in words["9d x 9c 5h+4c"]
    four = client.post("/api/helper", json={**req, "rules": "classic", "players": 4,
                                            "level": None}).json()
    assert four["best"] is None and four["position"]["hands"][1:] == [2, 2, 2]


@pytest.mark.parametrize(("change", "words"), [
    ({"hand": ["9d", "9d"]}, "9♦"),
    ({"table": ["9c", {"groups": [["5d", "3s"]], "value": 9, "owner": 1}]}, "5♦"),
    ({"rules": "poker"}, "rules"),
    ({"players": 5}, "players"),
    ({"level": "godlike"}, "level"),
    ({"hand": "zz"}, "zz"),
    ({"oops": 1}, "oops"),
])
def test_the_helper_refuses_impossible_set_ups(client: TestClient, change: dict[str, Any],
                                               words: str) -> None:
    req = {"rules": "casino", "level": None, "hand": ["9d"], "table": ["9c"], **change}
    r = client.post("/api/helper", json=req)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"], r.json()
    r = client.post("/api/helper", content=b"x" * (tools.MAX_HELPER + 1))
    assert r.status_code == 413


def thread_client(tmp_path: Path) -> TestClient:
    """The app with the helper thinking in a thread of the test (``helper_workers=0``),
    so that :func:`forbid_enumeration` reaches it; the work is bounded by what it does
    (no move listed beyond the bound), not by the clock, so a loaded machine's slow
    judgement of a crowded table is not refused as too slow."""
    limits = Limits(**{**FAST.__dict__, "helper_workers": 0, "helper_seconds": 120.0})
    return TestClient(create_app(db_url(tmp_path), pool_workers=0, limits=limits,
                                 hint_level="beginner"))


def test_a_crowded_table_is_answered_with_a_bounded_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kasino, every A to 6 loose (24 cards) and the 10♦: once minutes and 814 MB, then
    refused as too crowded; now a short ranked list of legal plays, counted in moves
    and bytes, with no listing of every move."""
    forbid_enumeration(monkeypatch)
    crowded = {"rules": "kasino", "table": KASINO_24, "hand": ["Td"], "level": None}
    with thread_client(tmp_path) as c:
        for req in (crowded, {**crowded, "hand": ["Td", "8s", "9c", "Ks"],
                              "table": [*KASINO_24, "7c", "7d", "7h"]}):
            r = c.post("/api/helper", json=req)
            assert r.status_code == 200, r.text
            assert len(r.content) <= tools.MAX_HELPER_ANSWER
            body = r.json()
            pos = Position.from_json(body["position"])
            assert 0 < len(body["moves"]) <= MAX_SHOWN
            assert all(pos.is_legal(pos.parse_move(m["move"])) for m in body["moves"])
            assert body["complete"] is False and body["total"] is None
            assert body["moves"][-1]["kind"] == "trail"  # ranked: the trail last
        # The 10♦'s plays that take the A♣ and the 6♣ (table items 0 and 20).
        r = c.post("/api/helper", json={**crowded, "card": "Td", "using": [0, 20]})
        assert r.status_code == 200, r.text
        body = r.json()
        pos = Position.from_json(body["position"])
        for m in body["moves"]:
            move = pos.parse_move(m["move"])
            assert move.card == pos.hand(0)[0] and {0, 5 * 4} <= set(move.loose)


@pytest.mark.parametrize(("change", "words"), [
    ({"card": "2c"}, "the 2♣ is not in your hand"),
    ({"card": "9d", "using": [3]}, "the table has items 0 to 0, not 3"),
    ({"using": [0]}, "choose the card"),
    ({"card": ["9d"]}, "\"card\" in the helper's request"),
    ({"card": "9d", "using": [0, 0]}, "each table item once"),
])
def test_a_bad_choice_of_card_is_refused_without_a_worker(
        client: TestClient, change: dict[str, Any], words: str) -> None:
    req = {"rules": "casino", "level": None, "hand": ["9d"], "table": ["9c"], **change}
    r = client.post("/api/helper", json=req)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert client.app.state.helpers._pool is None  # type: ignore[attr-defined]


def test_an_answer_too_long_loses_its_weakest_plays_but_not_the_pick() -> None:
    words = "x" * 1000
    moves = [{"move": f"m{i}", "words": words, "best": i == 30} for i in range(40)]
    answer = tools.fit_answer({"moves": moves, "more": 2}, limit=20_000)
    assert len(json.dumps(answer).encode()) <= 20_000
    kept = [m["move"] for m in answer["moves"]]
    assert "m30" in kept and kept == sorted(kept, key=lambda t: int(t[1:]))
    assert answer["more"] == 2 + 40 - len(kept)
