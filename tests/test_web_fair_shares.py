"""Fair shares (issue 46): the reviews and the move helper serve askers in turn, counted
per account when signed in and per network for guests, so that a flood from one
network's several addresses cannot keep a newcomer out.

The audit found five addresses of one /24 holding the review line for minutes, and one
address with six questions keeping another out of the helper 15 times in 15. Nothing
here measures time: a gate holds the one worker, and the tests read where each job
stands in line and the order in which the jobs reached the worker.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from casino.engine.record import read_record
from casino.web import create_app
from casino.web.fairqueue import FairLine, FairQueue, LineFull, TooMany
from casino.web.requester import holder_words, requester
from casino.web.reviews import Reviewer, ReviewSetting
from casino.web.routes.accounts import SESSION_COOKIE
from tests.web_helpers import ACCOUNTS, browser, db_url, finish_friends_game, sign_up

with warnings.catch_warnings():  # Starlette would rather use httpx2, which is not pinned
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

#: The longest a gated job waits for its test to open the gate: a safety net.
SAFETY = 30.0
#: A password the accounts take.
PASSWORD = "correct horse battery"


class Job:
    """A job told apart by identity, as the reviews' and the helper's tickets are."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def drain(queue: FairQueue[Job]) -> list[str]:
    out = []
    while (popped := queue.pop()) is not None:
        out.append(popped[1].name)
        queue.done(popped[0])
    return out


# ----------------------------------------------------------------------
# The queue and the line, job by job


def test_owners_take_turns_and_a_newcomer_goes_before_an_owner_already_served() -> None:
    q: FairQueue[Job] = FairQueue()
    flood = [Job(f"f{k}") for k in range(4)]
    for j in flood:
        q.push("flood", j)
    popped = q.pop()  # f0 runs
    assert popped is not None and popped[1] is flood[0]
    newcomer = Job("n")
    q.push("newcomer", newcomer)
    assert q.position(newcomer) == 1 and q.position(flood[1]) == 2
    q.push("third", Job("t"))
    q.done("flood")
    assert drain(q) == ["n", "t", "f1", "f2", "f3"]  # the two newcomers, then the flood


def test_finishing_and_asking_again_at_once_buys_no_early_turn() -> None:
    q: FairQueue[Job] = FairQueue()
    q.push("a", Job("a0"))
    q.push("b", Job("b0"))
    owner, _ = q.pop() or ("", None)
    assert owner == "a"
    q.push("a", Job("a1"))  # while a0 runs
    q.done("a")
    assert drain(q) == ["b0", "a1"]


def test_a_withdrawn_last_job_gives_its_turn_back() -> None:
    q: FairQueue[Job] = FairQueue()
    gone = Job("a1")
    for j in (Job("a0"), gone):
        q.push("a", j)
    for k in range(3):
        q.push("b", Job(f"b{k}"))
    assert q.remove(gone) and not q.remove(gone)
    q.push("a", Job("a2"))  # a1's turn, not the one after it
    assert q.size == 5 and drain(q) == ["a0", "b0", "b1", "a2", "b2"]


def test_the_line_counts_each_owner_and_a_newcomer_displaces_the_busiest() -> None:
    line: FairLine[Job] = FairLine(1, waiting=3, each=4)
    jobs = [Job(f"f{k}") for k in range(5)]
    for j in jobs[:4]:
        assert line.admit("flood", j) is None
    assert line.next() == ("flood", jobs[0]) and line.next() is None
    with pytest.raises(TooMany) as many:
        line.admit("flood", jobs[4])
    assert many.value.held == 4
    newcomer = Job("n")
    assert line.admit("newcomer", newcomer) == ("flood", jobs[3])  # the flood's newest
    assert line.queue.position(newcomer) == 1
    other = Job("o")
    assert line.admit("other", other) == ("flood", jobs[2])  # it still held two waiting
    with pytest.raises(LineFull):  # everyone holds one: taking a place would only trade it
        line.admit("latecomer", Job("l"))
    line.done("flood")
    assert [line.next(), line.running] == [("newcomer", newcomer), 1]
    line.done("newcomer")
    assert line.next() == ("other", other)


# ----------------------------------------------------------------------
# Through the app: reviews


#: A review small enough for tests (the players' default is docs/review.md's).
SMALL = ReviewSetting(samples=2, depth=2, nodes=200)
#: Polls of a state a thread is on its way to (one every 10 ms): a safety net, not a measure.
MAX_POLLS = 3000


class ReviewGate:
    """A review job that notes which review reached the worker, then waits at the gate
    (so that everything asked meanwhile queues)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.order: list[str] = []

    def __call__(self, record: str, seat: int, setting: ReviewSetting) -> str:
        self.order.append(f"{read_record(record).seed}/{seat}")
        assert self.open.wait(SAFETY), "the gate was never opened"
        return json.dumps({"format": "casino-review/2", "seat": seat})


@contextmanager
def serving(tmp_path: Path, **limits: Any) -> Iterator[TestClient]:
    app = create_app(db_url(tmp_path), pool_workers=0, limits=replace(ACCOUNTS, **limits),
                     hint_level="beginner", review_setting=SMALL)
    with TestClient(app) as client:
        yield client


def reviewer_of(client: TestClient) -> Reviewer:
    return client.app.state.service.reviewer  # type: ignore[attr-defined,no-any-return]


def finished_games(client: TestClient, count: int) -> dict[int, str]:
    """``count`` finished two-person games, by the seed they were dealt from."""
    service = client.app.state.service  # type: ignore[attr-defined]
    return {seed: client.portal.call(finish_friends_game, service, "casino", seed)  # type: ignore[union-attr]
            for seed in range(3, 3 + count)}


def until(done: Callable[[], bool]) -> None:
    for _ in range(MAX_POLLS):
        if done():
            return
        time.sleep(0.01)
    raise AssertionError("never came to pass")


def ask_review(client: TestClient, game: str, seat: int, **headers: str) -> httpx.Response:
    r: httpx.Response = client.post(f"/api/games/{game}/review?seat={seat}", headers=headers)
    return r


def test_a_review_flood_from_one_network_leaves_the_newcomer_next_in_line(
        tmp_path: Path) -> None:
    # The audit: five addresses of one /24 held every place (1 computing, 4 waiting),
    # and a newcomer was refused for minutes. Here the network may hold every place of
    # the line, so it fills it; the newcomer from another network takes the place of
    # the flood's newest review and is the next computed.
    with serving(tmp_path, review_waiting=3, reviews_per_player=4) as client:
        gate = ReviewGate()
        reviewer_of(client).run = gate
        games = finished_games(client, 3)
        pairs = [(games[seed], seat) for seed in games for seat in (0, 1)]
        flood = [browser(client, f"10.1.1.{k + 2}") for k in range(5)]
        places = []
        for k, (game, seat) in enumerate(pairs[:4]):
            r = ask_review(flood[k], game, seat)
            assert r.status_code == 202, r.text
            places.append(r.json()["place"])
            if k == 0:
                until(lambda: len(gate.order) == 1)  # the first holds the one worker
        assert places == [0, 1, 2, 3]
        r = ask_review(flood[4], *pairs[4])  # a fifth address of the same network
        assert r.status_code == 429
        assert r.json()["error"] == ("your network has 4 reviews being computed or "
                                     "waiting already: wait for it to finish before "
                                     "asking for another")
        r = ask_review(browser(client, "10.2.2.2"), *pairs[5])
        assert r.status_code == 202 and r.json()["place"] == 1, r.text
        # The flood's newest was set aside; its asker hears of it once, then may ask again.
        set_aside = flood[3].get(f"/api/games/{pairs[3][0]}/review?seat={pairs[3][1]}")
        assert set_aside.status_code == 503
        assert set_aside.json()["error"] == (
            "this review was set aside to let another player's wait its turn (the "
            "server's line of reviews was full, and your network has the most in it): ask "
            "again in a few minutes")
        again = flood[3].get(f"/api/games/{pairs[3][0]}/review?seat={pairs[3][1]}")
        assert again.json()["status"] == "none"
        reviewer = reviewer_of(client)
        assert reviewer.stats.set_aside == 1 and reviewer.stats.refused == 1
        gate.open.set()
        until(lambda: reviewer.running == 0)
    label = {games[seed]: seed for seed in games}
    assert gate.order == [f"{label[g]}/{s}" for g, s in (pairs[0], pairs[5], pairs[1],
                                                        pairs[2])]


def test_a_signed_in_player_counts_as_their_account_whatever_their_address(
        tmp_path: Path) -> None:
    with serving(tmp_path, reviews_per_player=1, review_waiting=4) as client:
        gate = ReviewGate()
        reviewer_of(client).run = gate
        games = list(finished_games(client, 3).values())
        ann = browser(client, "10.1.1.2")
        assert sign_up(ann, "Ann", PASSWORD).status_code == 201  # its codes shown
        session = f"{SESSION_COOKIE}={ann.cookies.get(SESSION_COOKIE)}"
        assert ask_review(ann, games[0], 0).status_code == 202
        # A guest of Ann's network is not Ann: their network has a share of its own...
        assert ask_review(browser(client, "10.1.1.3"), games[0], 1).status_code == 202
        r = ask_review(browser(client, "10.1.1.4"), games[1], 0)
        assert r.status_code == 429 and r.json()["error"].startswith("your network has 1 "
                                                                     "review being")
        # ...and Ann from anywhere else is still Ann.
        r = ask_review(browser(client, "10.9.9.9"), games[1], 1, cookie=session)
        assert r.status_code == 429 and r.json()["error"].startswith("your account has 1 "
                                                                     "review being")
        assert ask_review(browser(client, "10.9.9.9"), games[1], 1).status_code == 202
        gate.open.set()
        until(lambda: reviewer_of(client).running == 0)
    assert len(gate.order) == 3


# ----------------------------------------------------------------------
# Through the app: the move helper


class HelperGate:
    """A helper job, run in the server's thread (``helper_workers`` 0), that notes whose
    question reached the worker (by its hand's second card) and waits at the gate."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.order: list[str] = []

    def __call__(self, req: dict[str, Any]) -> dict[str, Any]:
        self.order.append(req["hand"][1])
        assert self.open.wait(SAFETY), "the gate was never opened"
        return {"moves": [], "more": 0, "complete": True}


def question(second: str) -> dict[str, Any]:
    return {"rules": "casino", "table": ["9c", "5h"], "hand": ["9d", second], "judge": False}


def test_a_helper_flood_from_one_network_leaves_the_newcomer_next_in_line(
        tmp_path: Path) -> None:
    # The audit: one address with six questions at once kept another out 15 times in
    # 15. Here one network's questions fill the line; the newcomer's takes the place of
    # the newest of them and is the next answered.
    with serving(tmp_path, helper_workers=0, helper_waiting=3, helper_per_player=4) as client:
        helpers = client.app.state.helpers  # type: ignore[attr-defined]
        gate = HelperGate()
        helpers.job = gate
        answers: dict[str, int] = {}

        def ask(host: str, second: str) -> None:
            r = browser(client, host).post("/api/helper", json=question(second))
            answers[second] = r.status_code

        def held() -> int:
            return int(helpers.line.running + helpers.line.queue.size)

        askers = []
        for k, second in enumerate(["2s", "3s", "4s", "6s"]):
            askers.append(threading.Thread(target=ask, args=(f"10.1.1.{k + 2}", second)))
            askers[-1].start()
            until(lambda k=k: held() == k + 1)  # type: ignore[misc]
        r = browser(client, "10.1.1.9").post("/api/helper", json=question("7s"))
        assert r.status_code == 429 and r.json() == {"error": (
            "your network has 4 questions for the helper being answered or waiting "
            "already: wait for an answer before asking another")}
        askers.append(threading.Thread(target=ask, args=("10.2.2.2", "8s")))
        askers[-1].start()
        until(lambda: "6s" in answers)  # the flood's newest was set aside at once
        assert answers["6s"] == 503 and held() == 4
        gate.open.set()
        for t in askers:
            t.join(SAFETY)
    assert gate.order == ["2s", "8s", "3s", "4s"]
    assert answers == {"2s": 200, "3s": 200, "4s": 200, "6s": 503, "8s": 200}


def test_a_guest_counts_as_their_ipv6_64() -> None:
    # One IPv6 subscriber is usually given a whole /64: its addresses are one guest.
    class Connection:
        def __init__(self, host: str) -> None:
            self.cookies: dict[str, str] = {}
            self.client = type("Client", (), {"host": host})()
            self.app = type("App", (), {"state": object()})()

    def who(host: str) -> str:
        return asyncio.run(requester(Connection(host)))  # type: ignore[arg-type]

    assert who("2001:db8::1") == who("2001:db8::ffff:1") == "network 2001:db8::/64"
    assert who("2001:db8:0:1::1") == "network 2001:db8:0:1::/64"
    assert who("::ffff:10.1.1.7") == who("10.1.1.200") == "network 10.1.1.0/24"
    assert [holder_words(who("10.1.1.2")), holder_words("account x")] == [
        "your network has", "your account has"]
