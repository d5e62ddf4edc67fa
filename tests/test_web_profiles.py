"""Profiles (docs/server.md, "Profiles"): a player page per account, with its ratings
and their graph (from ``rating_changes``, written once per rated game), its games won
and lost per preset with the average margin, and its finished games linked to their
replays and reviews, a page at a time; and the lobby's recent games with each one's
result, for guests too.

Ann and Bob play a rated game through the API and the WebSocket as in
tests/test_web_ratings.py; the long lists are made in the database directly.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from casino.engine.rules import preset
from casino.web.accounts.names import skeleton
from casino.web.accounts.profiles import (
    DRAWN,
    HISTORY_POINTS,
    LOST,
    PAGE_SIZE,
    WON,
    Profiles,
    final_scores,
    outcome,
    player_url,
)
from casino.web.accounts.ratings import Ratings
from casino.web.accounts.store import (
    AccountGameRow,
    AccountRow,
    RatingChangeRow,
    RatingRow,
)
from casino.web.store import OVER, GameRow, now
from tests.test_web_ratings import account_id, pair, rated_soon, resign, room
from tests.web_helpers import ACCOUNTS, browser, store_of, web


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with web(tmp_path, limits=ACCOUNTS) as client:
        yield client


def rated_game(app: TestClient) -> tuple[TestClient, TestClient, str]:
    """Ann and Bob, and the rated game Bob resigned (Ann won), once it is rated."""
    ann, bob = pair(app)
    game_id, invite = room(ann, rated=True)
    assert bob.get(invite, params={"name": ""}).status_code == 303
    resign(bob, game_id)
    rated_soon(app, "Ann")
    rated_soon(app, "Bob")
    return ann, bob, game_id


def changes(app: TestClient, game_id: str) -> list[RatingChangeRow]:
    """The rating changes stored for ``game_id``."""
    with Session(store_of(app).engine) as s:
        return list(s.scalars(select(RatingChangeRow).where(RatingChangeRow.game == game_id)
                              .order_by(RatingChangeRow.account)))


def test_a_rated_game_is_on_both_player_pages(app: TestClient) -> None:
    _, _, game_id = rated_game(app)
    visitor = browser(app)  # the pages are public
    for name, seat, result in (("Ann", 0, WON), ("Bob", 1, LOST)):
        standing = rated_soon(app, name)
        page = visitor.get(player_url(name))
        assert page.status_code == 200, page.text
        text = page.text
        shown = f"{round(standing.rating.rating)} ± {round(2 * standing.rating.deviation)}"
        assert f'<h1 id="player-name">{name}</h1>' in text and shown in text
        assert text.count('class="rating-point"') == 1  # one rated game, one point
        main = text.split('<main id="main">', 1)[1].split("</main>", 1)[0]
        assert "<svg" in main and "<script" not in main
        row = re.search(r'<tbody>\s*<tr><td>Casino</td><td>2</td>'
                        r'<td class="won">(\d+)</td><td class="lost">(\d+)</td>'
                        r'<td class="drawn">(\d+)</td>', text)
        assert row is not None, text
        assert row.groups() == (("1", "0", "0") if result == WON else ("0", "1", "0"))
        assert text.count('class="player-game"') == 1
        assert f'href="/records/{game_id}"' in text
        assert f'href="/records/{game_id}?seat={seat}#review"' in text
        other = "Bob" if name == "Ann" else "Ann"  # an account's name links its page
        assert re.search(rf'<td><a href="/player/{other}">{other}</a></td>'
                         rf'<td class="{result}">{result}', text), text
    # A name that looks like the account's is the same page; the header's links stay.
    assert visitor.get("/player/ANN").status_code == 200
    assert visitor.get("/player/%D0%90nn").status_code == 200  # a Cyrillic A


def test_rating_changes_are_written_once_per_rated_game(app: TestClient) -> None:
    _, _, game_id = rated_game(app)
    rows = changes(app, game_id)
    assert [r.account for r in rows] == sorted([account_id(app, "Ann"),
                                                account_id(app, "Bob")])
    for r in rows:
        standing = Ratings(store_of(app)).of(r.account)[0]
        assert (r.preset, r.players) == ("casino", 2)
        assert (r.rating_before, r.deviation_before) == (1500.0, 350.0)
        assert (r.rating_after, r.deviation_after) == (standing.rating.rating,
                                                       standing.rating.deviation)
    # The rating step again (another process seeing the end) writes nothing more.
    assert Ratings(store_of(app)).rate_game(game_id) is False
    assert len(changes(app, game_id)) == 2


def test_an_unknown_or_hostile_name(app: TestClient) -> None:
    visitor = browser(app)
    gone = visitor.get("/player/Nobody")
    assert gone.status_code == 404 and "there is no player named" in gone.text
    hostile = "<script>alert(1)</script>"
    r = visitor.get(player_url(hostile))
    assert r.status_code == 404 and "<script>alert" not in r.text
    # An account whose name is hostile (as if an older rule let it in) is escaped.
    with Session(store_of(app).engine) as s, s.begin():
        s.add(AccountRow(id="e" * 32, name="<b>Eve</b>", skeleton=skeleton("<b>Eve</b>"),
                         password="-", created=now()))
    page = visitor.get(player_url("<b>Eve</b>"))
    assert page.status_code == 200
    assert "<b>Eve</b>" not in page.text and "&lt;b&gt;Eve&lt;/b&gt;" in page.text


def _finished_games(app: TestClient, account: str, count: int) -> None:
    """``count`` finished two-player games of ``account`` at seat 0, each 11 to 5 won."""
    store = store_of(app)
    for i in range(count):
        game = f"g{i:031d}"
        store.create(game_id=game, rules="casino", players=2, names=["Ann", "<i>Zed</i>"],
                     mode="friends", level="medium", status=OVER, public=False,
                     invite=None, creator_seat=0,
                     record="casino-record/1\nrules casino\nresult 11 5\nwinner 0\nend\n",
                     seats={0: ("Ann", None), 1: ("<i>Zed</i>", None)})
        with Session(store.engine) as s, s.begin():
            s.add(AccountGameRow(game=game, seat=0, account=account))
            s.execute(update(GameRow).where(GameRow.id == game).values(winner=0))


def test_the_games_are_listed_a_page_at_a_time(app: TestClient) -> None:
    ann, _ = pair(app)
    _finished_games(app, account_id(app, "Ann"), PAGE_SIZE + 1)
    first = ann.get("/player/Ann")
    assert first.status_code == 200
    assert first.text.count('class="player-game"') == PAGE_SIZE
    assert "Page 1 of 2" in first.text and 'rel="next"' in first.text
    assert "<i>Zed</i>" not in first.text and "&lt;i&gt;Zed&lt;/i&gt;" in first.text
    assert re.search(r'<td class="won">51</td><td class="lost">0</td>'
                     r'<td class="drawn">0</td><td>\+6\.0</td>', first.text), first.text
    profiles = Profiles(store_of(app))
    found = profiles.named(skeleton("Ann"))
    assert found is not None
    profile = profiles.profile(found, 2)
    assert [(t.won, t.lost, t.drawn) for t in profile.tallies] == [(PAGE_SIZE + 1, 0, 0)]
    assert [(g.partners, g.opponents, g.ended.tzinfo is not None) for g in profile.games] \
        == [((), ("<i>Zed</i>",), True)]
    second = ann.get("/player/Ann", params={"page": "2"})
    assert second.text.count('class="player-game"') == 1 and 'rel="prev"' in second.text
    past = ann.get("/player/Ann", params={"page": "3"})
    assert past.status_code == 404 and "2 pages of games" in past.text
    for bad in ("0", "x", "-1", "99999999"):
        r = ann.get("/player/Ann", params={"page": bad})
        assert r.status_code == 400 and "&#34;page&#34;" in r.text, bad


def test_results_and_margins_from_the_final_scores() -> None:
    rules, scores = final_scores("casino-record/1\nrules casino\nresult 3 2\n"
                                 "result 12 9\nwinner 0\nend\n", 2)
    assert rules is not None and scores == (12, 9)
    assert outcome(rules, 0, 0, scores) == (WON, 3)
    assert outcome(rules, 1, 0, scores) == (LOST, -3)
    assert final_scores("casino-record/1\nrules casino\nend\n", 2)[1] == (0, 0)
    # Partners share their side's score (on its first seat); three sides, no winner.
    four = preset("classic", players=4)
    assert four.partnerships
    assert outcome(four, 3, 0, (14, 8, 0, 0)) == (LOST, -6)
    assert outcome(preset("kasino", players=3), 2, None, (5, 9, 9)) == (DRAWN, 0)



def test_the_player_page_is_linked_from_the_account_and_the_leaderboard(
        app: TestClient) -> None:
    ann, _, _ = rated_game(app)
    assert '<a href="/player/Ann" id="your-profile">' in ann.get("/account").text
    # The leaderboard lists only ratings known well enough: Ann's made so.
    with Session(store_of(app).engine) as s, s.begin():
        s.execute(update(RatingRow).where(RatingRow.account == account_id(app, "Ann"))
                  .values(deviation=60.0))
    board = browser(app).get("/leaderboard", params={"rules": "casino", "players": "2"})
    assert '<a href="/player/Ann">Ann</a>' in board.text


def test_a_guests_recent_games_show_their_results(app: TestClient) -> None:
    guest = browser(app)
    r = guest.post("/api/games", json={"rules": "casino", "mode": "computer",
                                       "players": 2, "name": "Gus"})
    assert r.status_code == 201, r.text
    game_id = r.json()["game"]
    resign(guest, game_id)
    recent = {g["game"]: g for g in guest.get("/api/games").json()["recent"]}
    mine = recent[game_id]
    assert mine["status"] == "over" and mine["result"] == LOST
    assert mine["opponents"] and "Gus" not in mine["opponents"]
    # Another browser sees the finished game listed, without a result of its own.
    theirs = {g["game"]: g for g in browser(app).get("/api/games").json()["recent"]}
    assert theirs.get(game_id, {}).get("result") is None
    # Thirty later games of others push it out of everyone's list but not out of Gus's.
    others, _ = pair(app)
    _finished_games(app, account_id(app, "Ann"), 30)
    assert game_id not in {g["game"] for g in others.get("/api/games").json()["recent"]}
    again = {g["game"]: g for g in guest.get("/api/games").json()["recent"]}
    assert again[game_id]["result"] == LOST and again[game_id]["record"]


def test_the_graph_draws_the_latest_200_ratings(app: TestClient) -> None:
    """A long history is drawn from its latest HISTORY_POINTS changes, oldest first."""
    ann, _ = pair(app)
    ann_id = account_id(app, "Ann")
    _finished_games(app, ann_id, HISTORY_POINTS + 1)
    start = now()
    with Session(store_of(app).engine) as s, s.begin():
        for i in range(HISTORY_POINTS + 1):
            s.add(RatingChangeRow(game=f"g{i:031d}", account=ann_id, preset="casino",
                                  players=2, rating_before=1500.0 + i, deviation_before=200.0,
                                  rating_after=1501.0 + i, deviation_after=200.0,
                                  changed=start + dt.timedelta(minutes=i)))
        s.add(RatingRow(account=ann_id, preset="casino", players=2, rating=1701.0,
                        deviation=200.0, volatility=0.06, games=HISTORY_POINTS + 1,
                        updated=start))
    profiles = Profiles(store_of(app))
    found = profiles.named(skeleton("Ann"))
    assert found is not None
    points = profiles.profile(found).history[("casino", 2)]
    assert len(points) == HISTORY_POINTS
    assert [p.rating for p in points] == [1502.0 + i for i in range(HISTORY_POINTS)]
    page = ann.get("/player/Ann").text
    assert page.count('class="rating-point"') == HISTORY_POINTS


def test_a_game_being_played_is_only_counted(app: TestClient) -> None:
    ann, bob = pair(app)
    game_id, invite = room(ann)
    assert bob.get(invite, params={"name": ""}).status_code == 303
    page = browser(app).get("/player/Bob").text
    assert 'id="player-playing"' in page and "Playing now: 1 game." in page
    assert game_id not in page and 'id="player-no-games"' in page
