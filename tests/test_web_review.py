"""The post-game review on the web: ``/api/games/<id>/review`` computes a finished game's
review of one seat aside, keeps it in the database, refuses unfinished games and bad
seats, and bounds what waits (docs/server.md, docs/review.md)."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from casino.web import create_app
from casino.web.reviews import ReviewSetting, _Job
from casino.web.service import GameError, GameService
from tests.web_helpers import FAST, db_url, finish_friends_game, new_game

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: A review small enough for tests (the players' default is docs/review.md's).
SMALL = ReviewSetting(samples=2, depth=2, nodes=200)
#: Polls of a review being computed before a test gives up (one every 50 ms).
MAX_POLLS = 2400


@contextmanager
def reviewing(tmp_path: Path, *, pool_workers: int = 0, name: str = "casino.db",
              **limits: Any) -> Iterator[TestClient]:
    app = create_app(db_url(tmp_path, name), pool_workers=pool_workers,
                     limits=replace(FAST, **limits), hint_level="beginner",
                     review_setting=SMALL)
    with TestClient(app) as client:
        yield client


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined,no-any-return]


def finished_game(client: TestClient, rules: str = "casino", seed: int = 3) -> str:
    """A two-person game dealt from ``seed``: its first round played to the end (each
    seat's first legal move), then seat 1 resigns, so the game is over."""
    return client.portal.call(finish_friends_game, service_of(client), rules, seed)  # type: ignore[union-attr]


def wait_done(client: TestClient, game: str, seat: int) -> dict[str, Any]:
    """GET the review until it is no longer computing: the last answer."""
    for _ in range(MAX_POLLS):
        r = client.get(f"/api/games/{game}/review?seat={seat}")
        if r.status_code != 202:
            return {"code": r.status_code, **r.json()}
        assert r.json()["status"] == "computing"
        time.sleep(0.05)
    raise AssertionError("the review never finished")


def test_a_review_kept_in_an_older_format_is_computed_again(tmp_path: Path) -> None:
    """A review kept before casino-review/2 (graded by the mean cost, its deals seeded
    otherwise, without the cost's interval) is not served: the setting kept beside each
    review names the format's version, so it is judged again at the current rules."""
    with reviewing(tmp_path) as client:
        game = finished_game(client)
        store = service_of(client).reviewer.store
        old = f"samples={SMALL.samples} seed={SMALL.seed} depth={SMALL.depth} nodes={SMALL.nodes}"
        assert old != SMALL.key and SMALL.key.endswith("review=2") and len(SMALL.key) <= 64
        store.save_review(game, 0, old, '{"format": "casino-review/1"}')
        assert client.get(f"/api/games/{game}/review?seat=0").json() == {"status": "none",
                                                                         "seat": 0}


def test_a_review_that_ends_while_the_database_answers_is_still_computing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The job stores its review and ends during the read that found nothing kept yet:
    # the answer must not be "none" (a page would offer to start it again).
    with reviewing(tmp_path) as client:
        game = finished_game(client)
        reviewer = service_of(client).reviewer
        reviewer._jobs[(game, 0)] = _Job(game, 0, "testclient", time.monotonic(), "")

        def read(*_: object) -> None:
            reviewer._jobs.pop((game, 0), None)  # the job ends while the database answers
            return None

        monkeypatch.setattr(reviewer.store, "load_review", read)
        answer = client.portal.call(reviewer.answer, game, 0)  # type: ignore[union-attr]
        assert answer["status"] == "computing"


def test_a_finished_games_review_is_computed_once_and_kept(tmp_path: Path) -> None:
    with reviewing(tmp_path) as client:
        game = finished_game(client)
        reviewer = service_of(client).reviewer
        assert client.get(f"/api/games/{game}/review?seat=0").json() == {"status": "none",
                                                                         "seat": 0}
        r = client.post(f"/api/games/{game}/review?seat=0")
        assert r.status_code == 202 and r.json()["status"] == "computing"
        # How far it has got, as the worker reports it (none yet, or decisions judged).
        assert {"done", "total"} <= set(r.json()) and r.json()["done"] >= 0
        got = wait_done(client, game, 0)
        assert got["code"] == 200 and got["status"] == "done", got
        review = got["review"]
        assert review["format"] == "casino-review/2" and review["seat"] == 0
        assert review["name"] == "Ann" and review["samples"] == SMALL.samples
        assert review["decisions"] and all(d["grade"] in ("good", "inaccuracy", "mistake",
                                                          "blunder")
                                           for d in review["decisions"])
        assert reviewer.stats.computed == 1
        # Asked again (POST or GET, by anybody): kept, not computed again.
        again = client.post(f"/api/games/{game}/review?seat=0")
        assert again.status_code == 200 and again.json()["review"] == review
        assert client.get(f"/api/games/{game}/review").json()["review"] == review  # seat 0
        assert reviewer.stats.computed == 1 and reviewer.stats.kept >= 2
        # The other seat is its own review.
        assert client.post(f"/api/games/{game}/review?seat=1").status_code == 202
        other = wait_done(client, game, 1)
        assert other["review"]["seat"] == 1 and other["review"]["name"] == "Bob"
        assert reviewer.stats.computed == 2
    # A restarted server answers from the database.
    with reviewing(tmp_path) as client:
        r = client.post(f"/api/games/{game}/review?seat=0")
        assert r.status_code == 200 and r.json()["review"] == review
        assert service_of(client).reviewer.stats.computed == 0


def test_the_replay_data_says_where_rounds_start_and_whose_review_is_shown_first(
        tmp_path: Path) -> None:
    with reviewing(tmp_path) as client:
        game = finished_game(client)
        data = client.get(f"/api/records/{game}").json()
        assert data["starts"] == {"1": 0} and data["review_seat"] == 0
        # A decision's position before its move is positions[starts[round] + ply].
        got = (client.post(f"/api/games/{game}/review?seat=1"), wait_done(client, game, 1))[1]
        for d in got["review"]["decisions"]:
            before = data["positions"][data["starts"][str(d["round"])] + d["ply"]]
            assert before["to_move"] == 1
            assert before["table"] == d["position"]["table"]
            assert data["moves"][data["starts"][str(d["round"])] + d["ply"]]["text"] == d["move"]


def test_unfinished_and_unknown_games_and_bad_seats_are_refused(tmp_path: Path) -> None:
    with reviewing(tmp_path) as client:
        reviewer = service_of(client).reviewer
        live = new_game(client)
        for method in (client.post, client.get):
            r = method(f"/api/games/{live}/review?seat=0")
            assert r.status_code == 403 and "not finished" in r.json()["error"]
            r = method("/api/games/0123456789abcdef/review?seat=0")
            assert r.status_code == 404 and r.json() == {"error": "there is no such game"}
        game = finished_game(client)
        for seat in ("2", "-1", "x", "1.0", "99999999"):
            r = client.post(f"/api/games/{game}/review?seat={seat}")
            assert r.status_code == 400, seat
            assert "is not a seat of this 2-player game: the seats are 0 to 1" in \
                r.json()["error"]
        assert reviewer.running == 0 and reviewer.stats.computed == 0
        assert client.get(f"/api/games/{game}/review?seat=0").json()["status"] == "none"


class Gate:
    """A review job that waits for the test to open the gate (it fills the line)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = 0

    def __call__(self, record: str, seat: int, setting: ReviewSetting) -> str:
        self.started += 1
        self.open.wait(30)
        return json.dumps({"format": "casino-review/2", "seat": seat})


def test_reviews_computing_at_once_are_bounded_per_player_and_across_the_server(
        tmp_path: Path) -> None:
    with reviewing(tmp_path, reviews_per_player=1, review_waiting=1) as client:
        service = service_of(client)
        gate = Gate()
        service.reviewer.run = gate
        first, second = finished_game(client), finished_game(client, seed=4)
        assert client.post(f"/api/games/{first}/review?seat=0").status_code == 202
        # The same review again is the same job, not another one.
        assert client.post(f"/api/games/{first}/review?seat=0").status_code == 202
        r = client.post(f"/api/games/{first}/review?seat=1")
        assert r.status_code == 429 and "wait for it to finish" in r.json()["error"]
        # Another player may: one review computing (a thread) and one waiting...
        assert client.portal.call(lambda: service.review(  # type: ignore[union-attr]
            second, "0", client="10.0.0.2", start=True))["status"] == "computing"

        async def third() -> None:
            await service.review(second, "1", client="10.0.0.3", start=True)

        with pytest.raises(GameError) as busy:  # ...and no more
            client.portal.call(third)  # type: ignore[union-attr]
        assert busy.value.status == 503
        assert busy.value.message == ("the server is busy reviewing other games: ask again "
                                      "in a few minutes")
        assert service.reviewer.stats.refused == 2 and service.reviewer.running == 2
        gate.open.set()
        assert wait_done(client, first, 0)["review"]["seat"] == 0
        assert wait_done(client, second, 0)["review"]["seat"] == 0
        assert service.reviewer.running == 0 and service.reviewer.stats.computed == 2
        # With the line empty, the refused one is taken.
        assert client.post(f"/api/games/{first}/review?seat=1").status_code == 202
        assert wait_done(client, first, 1)["status"] == "done"


def test_a_review_past_its_deadline_is_stopped_and_its_asker_told(tmp_path: Path) -> None:
    with reviewing(tmp_path, review_seconds=0.2) as client:
        service = service_of(client)
        gate = Gate()
        service.reviewer.run = gate
        game = finished_game(client)
        assert client.post(f"/api/games/{game}/review?seat=0").status_code == 202
        failed = wait_done(client, game, 0)
        gate.open.set()
        assert failed["code"] == 503
        assert failed["error"].startswith("the review took longer than 0.2 seconds and was "
                                          "stopped")
        assert service.reviewer.stats.failed == 1
        # Told once; asking again tries again.
        assert client.get(f"/api/games/{game}/review?seat=0").json()["status"] == "none"


def test_a_review_is_computed_in_a_worker_process(tmp_path: Path) -> None:
    with reviewing(tmp_path, pool_workers=1) as client:
        game = finished_game(client)
        assert client.post(f"/api/games/{game}/review?seat=0").status_code == 202
        got = wait_done(client, game, 0)
        assert got["status"] == "done" and got["review"]["decisions"]
        pool = service_of(client).reviewer.pool
        assert pool.workers == 1 and pool.pids  # a process, not the server's thread
        assert service_of(client).computers.thinker._pool is None  # the thinking pool never started
