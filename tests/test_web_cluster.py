"""Several ``casino serve`` processes sharing one PostgreSQL database play one game.

Each test starts real servers (``python -m casino serve``, tests/cluster_harness.py) on
a database of this module's own, and plays as browsers do: HTTP with the seat cookie,
and game pages over the WebSocket that reconnect when a server closes them. What a
cluster must do, as docs/server.md plans it:

- a change made on one process reaches the pages of the game on every other (each
  change is announced, and every process with the game live shows it);
- of two changes for one turn sent to two processes at once, exactly one is stored and
  the other sender is told "the game has moved on" and shown the game as it stands;
- a computer's move that a process was thinking about when it died is taken over by
  another process once its lease (``lease_seconds``) has lapsed, and played once.

Every message every page receives is scanned for the cards its seat may not see.

Run with ``CASINO_TEST_POSTGRES`` set to a PostgreSQL server's URL (``make
test-postgres``); without it the module is skipped, as SQLite is served by one process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.engine.record import Record, match_from_record, read_record
from casino.web.service import MOVED_ON
from tests.cluster_harness import (
    Page,
    Person,
    Server,
    event_key,
    fresh_database,
    running,
    showing_logs,
    stored,
)
from tests.web_helpers import POSTGRES, scan

pytestmark = [
    pytest.mark.skipif(not POSTGRES, reason="needs a PostgreSQL server: set "
                       "CASINO_TEST_POSTGRES (make test-postgres)"),
    pytest.mark.timeout(180),
]

#: The people of these tests play as fast as they can: no limit on their messages.
FAST = {"messages_per_second": "10000", "message_burst": "10000"}
#: How long a process holds a computer's move before another may take it over, here.
LEASE = 2.0
#: The two answers a change made on an old version gets: the compare-and-set's (the
#: other change was stored first) and the version check's (this process knew of it).
MOVED_ON_WORDS = "the game has moved on"


def run(scenario: Coroutine[Any, Any, None]) -> None:
    asyncio.run(scenario)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A database of this module's own on the test PostgreSQL server, dropped after."""
    assert POSTGRES is not None
    with fresh_database(POSTGRES) as url:
        yield url


@pytest.fixture(scope="module")
def pair(database: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Server, Server]]:
    """Two servers, A and B, on the module's database (friends games: no computers)."""
    folder = tmp_path_factory.mktemp("pair")
    with running("A", database, folder, limits=FAST) as a, \
            running("B", database, folder, limits=FAST) as b:
        yield a, b


def record_moves(record: Record) -> list[tuple[int, str]]:
    """Every move of a record, in order: (seat, text)."""
    return [(seat, str(move)) for rnd in record.rounds
            for seat, move in zip(rnd.movers, rnd.moves, strict=True)]


def friends_room(host: Server, join_on: Server) -> tuple[str, Person, Person]:
    """A two-person room of Casino made by Ann on ``host`` and joined by Bob on
    ``join_on``: the game id and the two people."""
    ann, bob = Person("Ann"), Person("Bob")
    created = ann.create(host, rules="casino", players=2, mode="friends", level="beginner")
    bob.join(join_on, created["invite"])
    return str(created["game"]), ann, bob


def begun_at(version: int) -> Callable[[Page], bool]:
    """Whether a page shows ``version`` or later, the game begun (no longer waiting)."""
    return lambda p: p.version >= version and p.view.get("status") not in (None, "waiting")


async def settle(pages: list[Page]) -> None:
    """Wait until every page shows the same version, the game begun."""
    for p in pages:
        await p.until(lambda q: bool(q.view), "the first state")
    for _ in range(100):
        top = max(p.version for p in pages)
        for p in pages:
            await p.until(begun_at(top), f"version {top} with the game begun")
        if all(p.version == top for p in pages):
            return
    raise AssertionError("the pages never agreed on a version")


async def play_friends_game(pages: dict[int, Page]) -> None:
    """Play a friends game to its end: at each turn the mover's page plays the first
    move its view offers, seat 0's page deals each new round, and every page must show
    each change before the next is made."""
    everyone = list(pages.values())
    for p in everyone:
        if p.ws is None:
            await p.open()
    await settle(everyone)
    for _ in range(1000):
        v = pages[0].view
        if v["status"] == "over":
            return
        before = pages[0].version
        if v["status"] == "round_over":
            actor = pages[0]
            await actor.next_round()
        else:
            actor = pages[v["to_move"]]
            assert actor.view["your_turn"], actor.view
            await actor.play(actor.first_move())
        await actor.until_version(before + 1)  # its own server took it
        for p in everyone:  # ... and every other process showed it
            await p.until_version(actor.version)
    raise AssertionError("the game did not end")


def check_finished_friends_game(pages: dict[int, Page], database: str, game: str,
                                servers: list[Server]) -> None:
    """Both pages saw the whole game, event by event, as the database holds it; the
    record every server publishes is the same game; no page saw a hidden card."""
    final = stored(database, game)
    assert final.status == "over"
    expected = [event_key(e.to_json(None)) for e in final.events]
    assert [k[0] for k in expected] == list(range(1, final.version + 1))
    for seat, p in pages.items():
        assert p.version == final.version and p.view["status"] == "over"
        assert p.view["you"] == seat
        assert p.event_list() == expected  # every event, once, none missing
        # Nobody raced anybody: each change simply reached the page, with no error.
        assert [m for m in p.payloads if m["type"] == "error"] == []
    assert pages[0].view["winner"] == pages[1].view["winner"]
    texts = set()
    for server in servers:
        r = Person("Carl").get(server, f"/records/{game}.rec")
        assert r.status_code == 200, r.text
        texts.add(r.text)
    assert len(texts) == 1
    record = read_record(texts.pop())
    assert record.is_over and record.winner == pages[0].view["winner"]
    assert record_moves(record) == [(k[2], k[3]) for k in expected if k[1] == "move"]
    for seat, p in pages.items():
        assert scan(p.payloads, seat, record) == len(p.payloads)  # every message checked


def test_a_friends_game_on_one_server_plays_through_the_harness(
        pair: tuple[Server, Server], database: str) -> None:
    """The harness itself: a room made, joined and played to its end on one process
    (what a single server has always done), checked as the cluster's games are."""
    a, _ = pair
    with showing_logs(a):
        play_room_to_the_end(database, a, a)


def test_a_friends_game_with_its_players_on_two_servers_plays_to_the_end(
        pair: tuple[Server, Server], database: str) -> None:
    """Ann makes the room on A and plays there; Bob joins and plays on B. Each move made
    on one process reaches the other's page, and the game is played to its end."""
    a, b = pair
    with showing_logs(a, b):
        play_room_to_the_end(database, a, b)


def play_room_to_the_end(database: str, first: Server, second: Server) -> None:
    """A room made by Ann on ``first``, joined by Bob on ``second``, each playing on the
    server they joined through until the game is over; then the finished game checked."""
    game, ann, bob = friends_room(first, second)
    pages = {0: Page(ann, first, game), 1: Page(bob, second, game)}

    async def scenario() -> None:
        try:
            await play_friends_game(pages)
        finally:
            for p in pages.values():
                await p.close()

    run(scenario())
    check_finished_friends_game(pages, database, game,
                                [first] if first is second else [first, second])


@pytest.mark.parametrize("where", ["AB", "AA"])
def test_two_moves_for_one_turn_sent_at_once_apply_exactly_one(
        pair: tuple[Server, Server], database: str, where: str) -> None:
    """The player to move has the game open twice, on A and on B (``AB``; ``AA``: both on
    A, what one process has always done) and plays a different move on each at once:
    exactly one is stored, the other page is told the game has moved on and shown the
    game with the stored move; every page goes on from there."""
    a, b = pair
    with showing_logs(a, b):
        servers = {"A": a, "B": b}
        game, ann, bob = friends_room(a, a)
        people = {0: ann, 1: bob}
        # Each person has the game open twice: (seat, 0) on the first server, (seat, 1) on
        # the second.
        pages = {(seat, k): Page(people[seat], servers[name], game)
                 for seat in (0, 1) for k, name in enumerate(where)}
        everyone = list(pages.values())
        record_text = ""

        async def scenario() -> None:
            nonlocal record_text
            try:
                for p in everyone:
                    await p.open()
                await settle(everyone)
                version = everyone[0].version
                mover = everyone[0].view["to_move"]
                first, second = pages[(mover, 0)], pages[(mover, 1)]
                offered = [m["text"] for m in first.view["legal"]]
                assert [m["text"] for m in second.view["legal"]] == offered  # one game, one view
                assert len(offered) >= 2
                sent = {first: offered[0], second: offered[-1]}
                before = stored(database, game)
                assert before.version == version
                marks = {p: len(p.payloads) for p in everyone}

                await asyncio.gather(first.play(sent[first]), second.play(sent[second]))
                for p in everyone:
                    await p.until_version(version + 1)
                after = stored(database, game)
                assert after.version == version + 1  # one move, one event: nothing else stored
                played = after.events[-1]
                assert (played.kind, played.seat) == ("move", mover)
                assert played.text in (sent[first], sent[second])
                winner, loser = (first, second) if played.text == sent[first] else (second, first)
                moves = len(record_moves(read_record(before.record)))
                assert record_moves(read_record(after.record))[moves:] == [(mover, played.text)]

                def errors(p: Page) -> list[str]:
                    return [str(m["message"]) for m in p.payloads[marks[p]:]
                            if m["type"] == "error"]

                def moved_on(p: Page) -> list[str]:
                    return [e for e in errors(p) if e.startswith(MOVED_ON_WORDS)]

                await loser.until(lambda p: bool(moved_on(p)), "the answer to its move")
                [told] = moved_on(loser)
                assert told == MOVED_ON or told.startswith(
                    f"{MOVED_ON_WORDS} (you sent that at version {version}, it is at "), told
                # ... and shown the game as it stands: the stored move, the other's turn.
                assert loser.version == version + 1
                assert loser.view["log"][-1]["text"] == played.text
                assert not loser.view["your_turn"]

                # The game goes on on every page: the other player moves on their second page.
                other = pages[(1 - mover, 1)]
                assert other.view["your_turn"]
                await other.play(other.first_move())
                for p in everyone:
                    await p.until_version(version + 2)
                # Only the loser was told so; the page whose move was played heard no error.
                assert [p for p in everyone if moved_on(p)] == [loser]
                assert errors(winner) == []
                assert loser.view == winner.view
                final = stored(database, game)
                assert final.version == version + 2
                assert [p.event_list() for p in everyone] == \
                    [[event_key(e.to_json(None)) for e in final.events]] * len(everyone)
                record_text = final.record
            finally:
                for p in everyone:
                    await p.close()

        run(scenario())
        record = read_record(record_text)
        for (seat, _), p in pages.items():
            assert scan(p.payloads, seat, record) == len(p.payloads)


def test_a_computer_game_goes_on_after_its_server_is_killed_mid_thought(
        database: str, tmp_path: Path) -> None:
    """Ann plays the computer on A, whose computer takes 30 s a move; right after her
    move A is killed. She reopens the game on B: B takes the computer's move over once
    A's lease lapses, and the game is played to its end there, no move played twice."""
    with running("A", database, tmp_path, limits={**FAST, "lease_seconds": f"{LEASE:g}"},
                 computer_pause=30) as a, \
            running("B", database, tmp_path, limits={**FAST, "lease_seconds": f"{LEASE:g}"},
                    computer_pause=0) as b:
        ann = Person("Ann")
        outcome: dict[str, Any] = {}

        async def scenario() -> None:
            # A game where Ann moves first (the cut decides), so A's computer has not
            # started thinking before she moves.
            page: Page | None = None
            for _ in range(12):
                created = ann.create(a, rules="casino", players=2, mode="computer",
                                     level="beginner")
                page = Page(ann, a, str(created["game"]))
                await page.open()
                await page.until(lambda p: bool(p.view), "the first state")
                if page.view["your_turn"]:
                    break
                await page.close()
            else:
                raise AssertionError("the computer moved first in 12 games running")
            assert page is not None
            try:
                outcome["game"] = page.game
                version = page.version
                await page.play(page.first_move())
                await page.until_version(version + 1)  # stored, and A's computer thinks
                assert not page.view["your_turn"] and page.view["to_move"] == 1
                acked = page.version
                await asyncio.sleep(0.5)  # a moment into the computer's 30 s
                a.kill()

                await page.move_to(b)
                # B plays the computer's move once A's lease has lapsed; the wait is
                # generous, a safety net rather than a measure.
                await page.until(lambda p: any(n > acked and k == "move" and s == 1
                                               for n, k, s, _ in p.events.values()),
                                 "the computer's move after A died", timeout=LEASE + 20)
                for _ in range(1000):
                    await page.until(lambda p: p.view["your_turn"]
                                     or p.view["status"] in ("round_over", "over"),
                                     "Ann's turn")
                    if page.view["status"] == "over":
                        break
                    before = page.version
                    if page.view["status"] == "round_over":
                        await page.next_round()
                    else:
                        await page.play(page.first_move())
                    await page.until_version(before + 1)
                else:
                    raise AssertionError("the game did not end")
                outcome["page"] = page
            finally:
                await page.close()

        run(scenario())
        game, page = outcome["game"], outcome["page"]
        rec = ann.get(b, f"/records/{game}.rec")
        assert rec.status_code == 200, rec.text
        replay = ann.get(b, f"/api/records/{game}")
        assert replay.status_code == 200, replay.text

    record = read_record(rec.text)
    assert record.is_over and match_from_record(record).is_over  # it replays, to its end
    final = stored(database, game)
    assert final.record == rec.text and final.status == "over"
    events = [event_key(e.to_json(None)) for e in final.events]
    assert [e[0] for e in events] == list(range(1, final.version + 1))
    assert page.event_list() == events and page.version == final.version
    # Every move stored once: the events' moves are the record's, the players take
    # turns in every round, and no card is played twice in a round.
    assert [(e[2], e[3]) for e in events if e[1] == "move"] == record_moves(record)
    for rnd in record.rounds:
        assert all(x != y for x, y in zip(rnd.movers, rnd.movers[1:], strict=False))
        assert len({m.card for m in rnd.moves}) == len(rnd.moves)
    assert sum(1 for m in replay.json()["moves"] if m["kind"] == "move") \
        == len(record_moves(record))
    assert scan(page.payloads, 0, record) == len(page.payloads)


def test_spectators_on_both_servers_watch_a_game_played_across_them(
        pair: tuple[Server, Server], database: str) -> None:
    """A watchable room made by Ann on A, joined by Bob on B; Carl watches on B and Dana
    on A. Each player is shown both spectators, whichever process they watch on, and
    one fewer when Carl leaves; each spectator is told every change, whichever process
    stored it, the whole game to its end, and neither is sent a card of any hand or of
    the stock."""
    a, b = pair
    with showing_logs(a, b):
        ann, bob = Person("Ann"), Person("Bob")
        created = ann.create(a, rules="casino", players=2, mode="friends",
                             level="beginner", spectators=True)
        game = str(created["game"])
        bob.join(b, created["invite"])
        pages = {0: Page(ann, a, game), 1: Page(bob, b, game)}
        watchers = [Page(Person("Carl"), b, game, watch=True),
                    Page(Person("Dana"), a, game, watch=True)]

        async def scenario() -> None:
            try:
                for p in [*pages.values(), *watchers]:
                    await p.open()
                await settle(list(pages.values()))
                for p in pages.values():
                    await p.until(lambda q: q.view["spectators"] == 2, "both spectators")
                await watchers[0].close()  # Carl leaves B: A hears of it
                await pages[0].until(lambda q: q.view["spectators"] == 1, "one spectator")
                await watchers[0].open()
                await play_friends_game(pages)
                final = pages[0].version
                for w in watchers:
                    await w.until(lambda p: p.version >= final
                                  and p.view.get("status") == "over", "the game's end")
            finally:
                for p in [*pages.values(), *watchers]:
                    await p.close()

        run(scenario())
        final = stored(database, game)
        expected = [event_key(e.to_json(None)) for e in final.events]
        record = read_record(final.record)
        for w in watchers:
            assert w.view["spectator"] and w.view["you"] is None
            assert w.view["winner"] == pages[0].view["winner"]
            assert w.event_list() == expected  # every change, once, from either process
            assert [m for m in w.payloads if m["type"] == "error"] == []
            assert scan(w.payloads, None, record) == len(w.payloads)
