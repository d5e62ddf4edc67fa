"""Ratings (docs/server.md, "Ratings"): a room for friends is rated or casual, chosen
when made and shown to the table; only signed-in players make or join a rated room; a
rated game's end moves its players' Glicko-2 ratings once, as
:func:`casino.measure.glicko2.rate` says; a casual game or a game against the computer
moves nothing; the account page and the leaderboard show them.

Two signed-in browsers on one app play through the API and the WebSocket; who plays
whom in games of more players (:func:`~casino.web.accounts.ratings.pairings`) is checked
on its own.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from casino.engine.rules import preset
from casino.measure.glicko2 import DRAW, LOSS, WIN, Outcome, Rating, rate
from casino.web.accounts.names import skeleton
from casino.web.accounts.ratings import (
    ONE_SEAT,
    ONLY_FRIENDS,
    PEOPLE_ONLY,
    SIGN_IN_TO_JOIN,
    SIGN_IN_TO_MAKE,
    Finished,
    Ratings,
    Standing,
    check_rated_join,
    pairings,
)
from casino.web.accounts.store import Account, AccountRow, AccountStore, RatingRow
from casino.web.errors import GameError
from casino.web.store import now
from tests.web_helpers import ACCOUNTS, Seat, browser, new_game, sign_up, store_of, web

PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def account_id(client: TestClient, name: str) -> str:
    """The id of the account named ``name``."""
    found = AccountStore(store_of(client)).find(skeleton(name))
    assert found is not None
    return found[0].id


def room(client: TestClient, **more: Any) -> tuple[str, str]:
    """A two-player room for friends made by ``client``: its id and invite path."""
    r = client.post("/api/games", json={"rules": "casino", "mode": "friends", "players": 2,
                                        **more})
    assert r.status_code == 201, r.text
    return str(r.json()["game"]), str(r.json()["invite"])


def pair(app: TestClient) -> tuple[TestClient, TestClient]:
    """Ann and Bob, signed up and in, each in a browser of their own."""
    ann, bob = browser(app), browser(app)
    assert sign_up(ann, "Ann", PASSWORD).status_code == 201
    assert sign_up(bob, "Bob", PASSWORD).status_code == 201
    return ann, bob


def resign(client: TestClient, game_id: str) -> dict[str, Any]:
    """``client``'s seat resigns the game; the last view it is sent (the game over)."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        seat = Seat(ws)
        seat.hello(0)
        seat.send({"type": "resign"})
        while seat.view.get("status") != "over":
            seat.recv()
        return seat.view


def standings(client: TestClient, name: str) -> list[Standing]:
    """The ratings of ``name``'s account, as stored."""
    return Ratings(store_of(client)).of(account_id(client, name))


def rated_soon(client: TestClient, name: str) -> Standing:
    """``name``'s one rating, once the game's end has been rated (on a task of its own)."""
    for _ in range(200):
        found = standings(client, name)
        if found:
            assert len(found) == 1
            return found[0]
        time.sleep(0.02)
    raise AssertionError(f"{name} was never rated")


def test_a_rated_game_moves_both_ratings_by_glicko2_once(app: TestClient) -> None:
    ann, bob = pair(app)
    game_id, invite = room(ann, rated=True)
    assert bob.get(invite, params={"name": ""}).status_code == 303
    with ann.websocket_connect(f"/ws/{game_id}") as ws:  # both are told it is rated
        view = Seat(ws).hello(0)["view"]
    assert view["rated"] is True and view["rated_words"] == "Rated game"
    over = resign(bob, game_id)  # resigning is a loss
    assert over["status"] == "over" and over["rated_words"] == "Rated game"
    won, lost = rated_soon(app, "Ann"), rated_soon(app, "Bob")
    new = Rating()
    assert won.rating == rate(new, [Outcome(new, WIN)])
    assert lost.rating == rate(new, [Outcome(new, LOSS)])
    assert won.rating.rating > 1500 > lost.rating.rating
    assert (won.preset, won.players, won.games) == ("casino", 2, 1)
    # Rated once: the step again (another process seeing the end) changes nothing.
    assert Ratings(store_of(app)).rate_game(game_id) is False
    assert standings(app, "Ann") == [won] and standings(app, "Bob") == [lost]


def test_a_casual_game_moves_nothing_and_says_so(app: TestClient) -> None:
    ann, bob = pair(app)
    game_id, invite = room(ann)
    assert bob.get(invite, params={"name": ""}).status_code == 303
    over = resign(bob, game_id)
    assert over["rated"] is False and over["rated_words"] == "Casual game"
    assert Ratings(store_of(app)).rate_game(game_id) is False
    assert standings(app, "Ann") == [] and standings(app, "Bob") == []


def test_a_computer_game_is_never_rated(app: TestClient) -> None:
    ann = browser(app)
    sign_up(ann, "Ann", PASSWORD)
    r = ann.post("/api/games", json={"rules": "casino", "mode": "computer", "rated": True})
    assert r.status_code == 400 and ONLY_FRIENDS in r.json()["error"]
    game_id = new_game(ann)
    over = resign(ann, game_id)
    assert over["rated"] is None and over["rated_words"] is None
    assert Ratings(store_of(app)).rate_game(game_id) is False
    assert standings(app, "Ann") == []
    # A room with a computer's seat may not be rated either.
    r = ann.post("/api/games", json={"rules": "kasino", "mode": "friends", "players": 3,
                                     "people": 2, "rated": True})
    assert r.status_code == 400 and PEOPLE_ONLY in r.json()["error"]


def test_a_guest_can_neither_make_nor_join_a_rated_room(app: TestClient) -> None:
    ann, bob = pair(app)
    guest = browser(app)
    before = guest.get("/api/games").json()
    r = guest.post("/api/games", json={"rules": "casino", "mode": "friends", "rated": True})
    assert r.status_code == 403 and SIGN_IN_TO_MAKE in r.json()["error"]
    assert guest.get("/api/games").json() == before  # nothing was made
    r = guest.post("/api/games", json={"rules": "casino", "mode": "friends", "rated": "yes"})
    assert r.status_code == 400 and "rated" in r.json()["error"]
    game_id, invite = room(ann, rated=True)
    refused = guest.get(invite, params={"name": "Gus"})
    assert refused.status_code == 403 and SIGN_IN_TO_JOIN in refused.text
    # The seat is still free: Bob, signed in, takes it.
    assert bob.get(invite, params={"name": ""}).status_code == 303
    game = app.app.state.service.live.games[game_id]  # type: ignore[attr-defined]
    assert game.session.names == ("Ann", "Bob")
    # Nobody takes two seats of a rated game (they would be rated against themselves).
    ann_id = account_id(app, "Ann")
    with pytest.raises(GameError, match=ONE_SEAT):
        check_rated_join(Account(ann_id, "Ann"), {0: ann_id})


def test_who_plays_whom_in_games_of_more_players() -> None:
    four = preset("classic", players=4)  # two partnerships: 0 and 2 against 1 and 3
    accounts = {0: "a", 1: "b", 2: "c", 3: "d"}
    done = Finished(four, accounts, frozenset(), winner=1, scores=(0, 11, 0, 11))
    assert pairings(done) == {0: [(1, LOSS), (3, LOSS)], 1: [(0, WIN), (2, WIN)],
                              2: [(1, LOSS), (3, LOSS)], 3: [(0, WIN), (2, WIN)]}
    # Seat 0 left: it loses to both opponents, who beat it; its partner is not rated.
    left = Finished(four, accounts, frozenset({0}), winner=0, scores=(21, 0, 21, 0))
    assert pairings(left) == {0: [(1, LOSS), (3, LOSS)], 1: [(0, WIN)], 3: [(0, WIN)]}
    three = preset("kasino", players=3)  # each for themselves: pairwise by final score
    scores = Finished(three, {0: "a", 1: "b", 2: "c"}, frozenset({2}), winner=0,
                      scores=(21, 21, 30))
    assert pairings(scores) == {0: [(1, DRAW), (2, WIN)], 1: [(0, DRAW), (2, WIN)],
                                2: [(0, LOSS), (1, LOSS)]}


def test_the_account_page_and_the_leaderboard_show_the_ratings(app: TestClient) -> None:
    ann, bob = pair(app)
    assert 'id="account-no-ratings"' in ann.get("/account").text
    assert 'href="/leaderboard"' in ann.get("/").text  # linked from the lobby
    game_id, invite = room(ann, rated=True)
    bob.get(invite, params={"name": ""})
    resign(bob, game_id)
    won = rated_soon(app, "Ann")
    rated_soon(app, "Bob")
    shown = f"{round(won.rating.rating)} ± {round(2 * won.rating.deviation)}"
    page = ann.get("/account").text
    assert 'id="account-ratings"' in page and shown in page
    # A hostile-looking name (stored as if an older rule let it in) is escaped, and the
    # board is in order of rating, newcomers' uncertain ratings left out.
    store = store_of(app)
    with Session(store.engine) as s, s.begin():
        s.add(AccountRow(id="x" * 32, name="<b>Eve</b>", skeleton="eve", password="-",
                         created=now()))
        s.flush()
        s.add(RatingRow(account="x" * 32, preset="casino", players=2, rating=1700.0,
                        deviation=60.0, volatility=0.06, games=9, updated=now()))
        s.merge(RatingRow(account=account_id(app, "Ann"), preset="casino", players=2,
                          rating=1600.0, deviation=80.0, volatility=0.06, games=5,
                          updated=now()))
        s.add(RatingRow(account=account_id(app, "Bob"), preset="casino", players=3,
                        rating=1800.0, deviation=80.0, volatility=0.06, games=5,
                        updated=now()))
    board = browser(app).get("/leaderboard", params={"rules": "casino", "players": "2"})
    assert board.status_code == 200
    assert "<b>Eve</b>" not in board.text and "&lt;b&gt;Eve&lt;/b&gt;" in board.text
    assert board.text.index("&lt;b&gt;Eve") < board.text.index(">Ann<")
    # Bob's deviation after one game is too large still; his 3-player rating is another
    # pool's.
    assert ">Bob<" not in board.text
    assert "1700 ± 120" in board.text
    for bad, field in ((("snap", "2"), "rules"), (("casino", "9"), "players"),
                       (("casino", "two"), "players")):
        r = ann.get("/leaderboard", params={"rules": bad[0], "players": bad[1]})
        assert r.status_code == 400 and f"&#34;{field}&#34;" in r.text, (bad, r.text)


def test_deleting_an_account_deletes_its_ratings_only(app: TestClient) -> None:
    ann, bob = pair(app)
    game_id, invite = room(ann, rated=True)
    bob.get(invite, params={"name": ""})
    resign(ann, game_id)
    lost, won = rated_soon(app, "Ann"), rated_soon(app, "Bob")
    assert lost.rating.rating < won.rating.rating
    ann_id = account_id(app, "Ann")
    AccountStore(store_of(app)).delete(ann_id)
    assert Ratings(store_of(app)).of(ann_id) == []
    assert standings(app, "Bob") == [won]


def test_a_seat_handed_to_the_computer_is_its_players_loss(tmp_path: Path) -> None:
    """Bob is away on his turn and Ann hands his seat to the computer: he left, and so
    did Ann when she then resigned; each lost (nobody is rated a draw for leaving)."""
    quick = dataclasses.replace(ACCOUNTS, abandon_after=0.0)
    with web(tmp_path, limits=quick) as app:
        ann, bob = pair(app)
        game_id, invite = room(ann, rated=True)
        assert bob.get(invite, params={"name": ""}).status_code == 303
        service = app.app.state.service  # type: ignore[attr-defined]

        async def leave() -> None:
            game = await service.live.get(game_id)
            s = game.session
            while s.to_move != 1:  # Ann plays until it is Bob's turn
                await service.turns.play(game, 0, str(s.match.position.legal_moves()[0]))
            await service.turns.claim(game, 0, 1)
            await service.turns.resign(game, 0)

        app.portal.call(leave)  # type: ignore[union-attr]
        new = Rating()
        lost = rate(new, [Outcome(new, LOSS)])
        assert rated_soon(app, "Ann").rating == rated_soon(app, "Bob").rating == lost


def test_the_lobby_offers_a_rated_room_to_a_signed_in_player_only(app: TestClient) -> None:
    guest = browser(app)
    assert 'id="rated-check"' not in guest.get("/").text
    ann, _ = pair(app)
    assert 'id="rated-check"' in ann.get("/").text


def test_the_invite_page_says_whether_the_game_is_rated_before_the_seat_is_taken(
        app: TestClient) -> None:
    ann, bob = pair(app)
    _, rated_invite = room(ann, rated=True)
    _, casual_invite = room(ann)
    guest = browser(app)
    page = guest.get(rated_invite).text
    assert "Rated game" in page and "sign in (or sign up) to join it" in page
    assert 'href="/signin"' in page
    page = bob.get(rated_invite).text  # signed in: nothing to do first
    assert "Rated game" in page and "sign in (or sign up) to join it" not in page
    assert "Casual game" in guest.get(casual_invite).text


def test_a_rated_game_a_stopped_process_left_unrated_is_rated_at_the_next_start(
        tmp_path: Path) -> None:
    """A process that ended a rated game and stopped before its rating step: the next
    server's start rates it, once."""
    from casino.web.accounts.store import RatedGameRow, RatingChangeRow

    with web(tmp_path, limits=ACCOUNTS) as app:
        ann, bob = pair(app)
        game_id, invite = room(ann, rated=True)
        assert bob.get(invite, params={"name": ""}).status_code == 303
        resign(bob, game_id)
        won, lost = rated_soon(app, "Ann"), rated_soon(app, "Bob")
        # As if the process had stopped before rating it: no rating, nothing settled.
        with Session(store_of(app).engine) as s, s.begin():
            for row_type in (RatingChangeRow, RatingRow, RatedGameRow):
                for row in s.query(row_type).all():
                    s.delete(row)
        assert standings(app, "Ann") == [] and standings(app, "Bob") == []
    with web(tmp_path, limits=ACCOUNTS) as app:  # the next start
        assert standings(app, "Ann") == [won] and standings(app, "Bob") == [lost]
        assert Ratings(store_of(app)).settle_unrated() == 0  # settled once
