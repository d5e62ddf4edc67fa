"""Fair shares (issue 46): the reviews and the move helper serve askers in turn, counted
per account when signed in and per network for guests, so that a flood from one
network's several addresses cannot keep a newcomer out.

The audit found five addresses of one /24 holding the review line for minutes, and one
address with six questions keeping another out of the helper 15 times in 15. Nothing
here measures time: a gate holds the one worker, and the tests read where each job
stands in line and the order in which the jobs reached the worker.
"""

from __future__ import annotations

import pytest

from casino.web.fairqueue import FairLine, FairQueue, LineFull, TooMany


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
    assert line.admit("newcomer", newcomer) is jobs[3]  # the flood's newest waiting
    assert line.queue.position(newcomer) == 1
    other = Job("o")
    assert line.admit("other", other) is jobs[2]  # the flood still held two waiting
    with pytest.raises(LineFull):  # everyone holds one: taking a place would only trade it
        line.admit("latecomer", Job("l"))
    line.done("flood")
    assert [line.next(), line.running] == [("newcomer", newcomer), 1]
    line.done("newcomer")
    assert line.next() == ("other", other)
