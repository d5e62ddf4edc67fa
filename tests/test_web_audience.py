"""The spectators counted across processes (casino.web.audience): what a process hears of
the others' counts, and how a count goes quiet when its process is gone. The whole path
over PostgreSQL is tests/test_web_cluster.py's spectators test."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from casino.web.audience import FORGET_AFTER, Audience
from casino.web.fanout import read_change_notice, read_chat_notice, read_watch_notice, watch_notice


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Game:
    """A live game's part the audience touches: how often the players were shown."""

    def __init__(self, game_id: str) -> None:
        self.id = game_id
        self.shown = 0

    def show_watchers(self) -> None:
        self.shown += 1


def audience(clock: Clock, *games: Game) -> Audience:
    service = SimpleNamespace(store=SimpleNamespace(origin="here", postgres=False),
                              live=SimpleNamespace(games={g.id: g for g in games}),
                              closed=False)
    return Audience(cast(Any, service), clock)


def test_the_counts_of_the_other_processes_add_up_and_the_players_are_shown() -> None:
    clock, game = Clock(), Game("g1")
    seen = audience(clock, game)
    seen.heard("g1", 2, "there")
    seen.heard("g1", 3, "yonder")
    assert seen.elsewhere("g1") == 5 and game.shown == 2
    seen.heard("g1", 3, "yonder")  # said again, the same: nothing to show
    assert game.shown == 2
    seen.heard("g1", 0, "there")  # everyone left there
    assert seen.elsewhere("g1") == 3 and game.shown == 3
    seen.heard("g1", 4, "here")  # this process's own notice: it knows its own count
    assert seen.elsewhere("g1") == 3
    seen.heard("other", 1, "there")  # a game not live here is counted, nobody shown
    assert seen.elsewhere("other") == 1 and seen.elsewhere("nowhere") == 0


def test_a_count_not_said_again_is_forgotten_as_its_process_may_be_dead() -> None:
    clock, game = Clock(), Game("g1")
    seen = audience(clock, game)
    seen.heard("g1", 2, "dead")
    clock.now += FORGET_AFTER / 2
    seen.heard("g1", 1, "alive")
    clock.now += FORGET_AFTER / 2 + 1  # "dead" went quiet; "alive" was heard lately
    assert seen.elsewhere("g1") == 1
    shown = game.shown
    seen.forget_stale()
    assert seen.heard_of == {"g1": {"alive": (1, clock.now - FORGET_AFTER / 2 - 1)}}
    assert game.shown == shown + 1
    clock.now += FORGET_AFTER
    seen.forget_stale()
    assert seen.heard_of == {} and seen.elsewhere("g1") == 0


def test_a_watch_notice_is_read_as_nothing_else() -> None:
    notice = watch_notice("abc", 7, "p1")
    assert read_watch_notice(notice) == ("abc", 7, "p1")
    assert read_change_notice(notice) is None and read_chat_notice(notice) is None
    assert read_watch_notice("abc 7 p1") is None and read_watch_notice("watch abc x p1") is None
