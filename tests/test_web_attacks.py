"""Hostile players against a real server: each test acts as the attacker would.

The app runs under uvicorn in a subprocess on 127.0.0.1 (a free port, a temporary
SQLite file, one worker process thinking, hints at the default expert level), and
the attackers come over real sockets from addresses of their own: Linux routes
all of 127.0.0.0/8 to the loopback, so a client socket bound to 127.0.0.7 reaches
the server from 127.0.0.7, and the server's per-address limits count it apart.

What the tests show is counted, never timed: how many hint answers the flood got
between a victim's move and their computer's reply, how many rooms an address
made, how many pings a connection saw before it was closed, and the close codes.
Timeouts are only safety nets, so that a server without a defence fails the test
instead of hanging it.

Cookies are never named: a browser here is an httpx client whose jar keeps what
the server set, and its WebSockets send that jar back as the ``Cookie`` header.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from casino.web.limits import Limits, address_key
from tests.web_clients import (
    SAFETY,
    Browser,
    browsers,
    fresh_address,
    fresh_network,
    opened,
    run,
    serve,
)
from tests.web_helpers import Served, db_url, guest, web

with_timeout = pytest.mark.timeout(180)

#: Close codes the server uses (casino/web/routes/socket.py), as the page reads them.
CLOSE_SILENT, CLOSE_TOO_FAST, CLOSE_RECONNECT = 4000, 4408, 1012


# ----------------------------------------------------------------------
# The server sees each source address as a client of its own


def test_a_client_bound_to_another_loopback_address_is_seen_from_it(live_server: Served) -> None:
    # Every per-address test below rests on this: uvicorn reports the socket's peer,
    # and a socket bound to 127.0.0.x is a client from 127.0.0.x (a room flood from
    # one address shows it: past rooms_per_address its rooms are refused, while the
    # same requests from another address pass).
    a, b = fresh_address(), fresh_address()
    with browsers(live_server, [a, a, b]) as (first, again, other):
        limit = Limits().rooms_per_address
        for _ in range(limit):
            assert first.post_game(mode="friends").status_code == 201
        assert again.post_game(mode="friends").status_code == 429  # same address, new jar
        assert other.post_game(mode="friends").status_code == 201


# ----------------------------------------------------------------------
# 1. Hints: a flood of them does not hold up another player's computer


@with_timeout
@pytest.mark.parametrize(("addresses", "victim_moves"),
                         [(2, 2), pytest.param(4, 4, marks=pytest.mark.slow)])
def test_a_hint_flood_from_many_addresses_does_not_queue_a_victims_computer(
        tmp_path: Path, addresses: int, victim_moves: int) -> None:
    """Eight games from four addresses (four from two in the fast suite: a FIFO queue
    would still let all four overtake) ask for expert hints without pause (the
    per-address hint limit is lifted, so only the scheduler stands in the way) while
    a victim plays a beginner computer. Every hint answer the attackers receive is a
    job the single worker ran; those received between the victim's move (as the
    server stored it: the state that shows it) and their computer's reply are the jobs
    that went first. With one FIFO queue that was the whole flood, every time (eight
    here); with computers first it is at most the hint already running when the victim
    moved.

    The count starts at the state showing the victim's move, not at its sending: this
    one client reads every socket, and when it had been held up (a loaded machine stops
    it for a second) the flood's answers the server had sent before the move still
    waited unread when the victim sent it, and counted as overtaking although the pool
    had been idle and the computer ran at once (seen as [1, 8, 1, 1])."""
    limits = Limits(hints_per_minute=1_000_000, hint_burst=1_000_000)
    attackers_per_address = 2
    workers = 1  # serve() starts one thinking process
    with serve(tmp_path, limits) as served, \
            browsers(served, [fresh_address() for _ in range(addresses + 1)]) as people:
        victim_browser, attacker_browsers = people[0], people[1:]
        victim_game = victim_browser.new_game(name="Victim")
        attacker_games = [(b, b.new_game()) for b in attacker_browsers
                          for _ in range(attackers_per_address)]
        # One list, in the order messages reached this client across all connections.
        arrivals: list[str] = []
        asked = [False] * len(attacker_games)
        flowing = asyncio.Event()  # every attacker has asked, and answers are coming

        async def attack(stack: AsyncExitStack, k: int, browser: Browser, game: str,
                         stop: asyncio.Event) -> int:
            tab = await opened(stack, browser, game)
            await tab.hello()
            await tab.my_turn()
            answers = 0
            while not stop.is_set():
                await tab.send({"type": "hint"})
                asked[k] = True
                if (await tab.answer())["type"] == "hint":
                    arrivals.append("hint")
                    answers += 1
                    if all(asked):
                        flowing.set()
            return answers

        async def scenario(stack: AsyncExitStack) -> tuple[list[int], list[int]]:
            stop = asyncio.Event()
            flood = [asyncio.ensure_future(attack(stack, k, b, g, stop))
                     for k, (b, g) in enumerate(attacker_games)]
            victim = await opened(stack, victim_browser, victim_game)
            await victim.hello()
            await victim.my_turn()
            # The flood is on: every attacker has asked, and the first answers came, so
            # the others wait in the server's queue behind the hint being thought of.
            await asyncio.wait_for(flowing.wait(), SAFETY)
            overtaken = []
            for _ in range(victim_moves):
                view = await victim.my_turn()
                moves_before = len(view["log"])
                await victim.send({"type": "play", "move": view["legal"][0]["text"],
                                   "version": victim.version})
                # The victim's move, stored: the computer is asked for its reply. The
                # hint answers that reached this client with or before that state are
                # read first (a few turns of the loop), so only answers sent after it
                # are counted; the one for the hint being thought of then is among them.
                for _ in range(10_000):
                    if len(victim.view["log"]) >= moves_before + 1:
                        break
                    await victim.recv()
                for _ in range(5):
                    await asyncio.sleep(0)
                mark = len(arrivals)
                # Their computer's reply: their turn again.
                for _ in range(10_000):
                    v = victim.view
                    if len(v["log"]) >= moves_before + 2 and v["your_turn"]:
                        break
                    await victim.recv()
                assert victim.view["log"][moves_before + 1]["seat"] == 1
                overtaken.append(arrivals[mark:].count("hint"))
            stop.set()
            answered = await asyncio.gather(*flood)
            return overtaken, answered

        overtaken, answered = run(scenario)
    flood_size = len(attacker_games)
    assert all(n >= 1 for n in answered), answered  # every attacker was answered
    # At most the hint already running when the victim moved (one per worker), and one
    # more for a state message that crossed a hint answer on the way, on average. With
    # the compiled core a hint takes milliseconds, so on a loaded machine a second one
    # can finish and reach its client while the victim's state is still on its way: one
    # move in several may count one more. A first-come queue lets the whole flood (four
    # or eight) overtake every move, which both bounds still refuse.
    assert sum(overtaken) <= len(overtaken) * (workers + 1), (overtaken, flood_size)
    assert max(overtaken) <= workers + 2 < flood_size, (overtaken, flood_size)


@with_timeout
def test_a_games_second_hint_and_an_addresss_hint_burst_are_refused_in_words(
        live_server: Served) -> None:
    """One attacker's address, two tabs of one game, the default hint limits
    (a burst of 5, then 20 a minute). Tab one's hint is being thought of; tab two
    asks six times without pause: the game's second hint is refused at once (one
    per game), and past the burst every hint from the address is refused, with
    words. Another address's hint is answered meanwhile."""
    attacker_address, bystander_address = fresh_address(), fresh_address()
    burst = Limits().hint_burst
    with browsers(live_server, [attacker_address, bystander_address]) as (attacker, bystander):
        game = attacker.new_game()
        other_game = bystander.new_game()

        async def scenario(stack: AsyncExitStack) -> tuple[dict[str, Any], list[str],
                                                           dict[str, Any]]:
            one = await opened(stack, attacker, game)
            two = await opened(stack, attacker, game)
            other = await opened(stack, bystander, other_game)
            for tab in (one, two, other):
                await tab.hello()
                await tab.my_turn()
            await one.send({"type": "hint"})
            for _ in range(burst + 1):
                await two.send({"type": "hint"})
            replies = [await two.answer() for _ in range(burst + 1)]
            first = await one.answer()
            await other.send({"type": "hint"})
            return first, [str(m.get("message", "a hint")) for m in replies], await other.answer()

        first, refusals, other_answer = run(scenario)
    assert first["type"] == "hint" and first["words"].startswith("Hint: "), first
    one_per_game = [w for w in refusals if "already being thought of" in w]
    per_address = [w for w in refusals if "your network has asked for too many hints" in w]
    # Tab one's hint and four refusals used the burst of five; the sixth and seventh asks
    # are over it. Every refusal is one of the two, in words.
    assert len(one_per_game) == burst - 1 and len(per_address) == 2, refusals
    assert refusals[-2:] == per_address
    assert "at most 20 a minute" in per_address[0]
    assert other_answer["type"] == "hint", other_answer  # limits are per address


# ----------------------------------------------------------------------
# 2. Rooms: many addresses cannot fill the server


@with_timeout
@pytest.mark.parametrize("addresses", [10, pytest.param(40, marks=pytest.mark.slow)])
def test_a_room_flood_from_many_addresses_leaves_rooms_for_a_newcomer(
        live_server: Served, addresses: int) -> None:
    """Many addresses (ten in the fast suite, forty in the slow one) each open friends'
    rooms until refused. With one cap for the whole server (200, as it was) seven
    addresses filled it and everybody else got 503 for a day; now each address is
    refused past its own few rooms (429, in words) and a newcomer still opens one."""
    per_address = Limits().rooms_per_address
    flood = [fresh_address() for _ in range(addresses)]
    with browsers(live_server, flood) as attackers:
        made = []
        for attacker in attackers:
            codes = []
            for _ in range(100):  # until refused; 100 is beyond any limit of the old server
                r = attacker.post_game(mode="friends", public=True)
                codes.append(r.status_code)
                if r.status_code != 201:
                    break
            made.append(codes.count(201))
            assert r.status_code == 429, (attacker.address, codes, r.text)
            words = r.json()["error"]
            assert f"you have {per_address} rooms waiting" in words
            assert "wait for one to lapse" in words
            # Only rooms are refused: a game against the computer still starts.
            assert attacker.post_game(level="beginner").status_code == 201
        assert made == [per_address] * len(flood)
        with browsers(live_server, [fresh_address()]) as (newcomer,):
            r = newcomer.post_game(mode="friends")
            assert r.status_code == 201, r.text
            assert r.json()["invite"].startswith(f"/join/{r.json()['game']}/")


def test_a_room_flood_from_many_addresses_of_one_network_is_bounded_by_the_network(
        live_server: Served) -> None:
    """One subscriber with many addresses (an IPv4 /24 here; an IPv6 /48 holds 65,536
    /64s) gets ``rooms_per_network`` rooms in all, not three per address, so it cannot
    fill the server's rooms; an address of another network still opens one."""
    limits = Limits()
    flood = fresh_network(limits.rooms_per_network // limits.rooms_per_address + 5)
    with browsers(live_server, flood) as attackers:
        codes = [a.post_game(mode="friends").status_code
                 for a in attackers for _ in range(limits.rooms_per_address)]
        assert codes.count(201) == limits.rooms_per_network
        refused = attackers[-1].post_game(mode="friends")
        assert refused.status_code == 429
        assert (f"your network has {limits.rooms_per_network} rooms waiting"
                in refused.json()["error"])
        with browsers(live_server, [fresh_address()]) as (newcomer,):
            assert newcomer.post_game(mode="friends").status_code == 201


def test_an_attackers_rooms_lapse_and_stop_holding_any_allowance(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms nobody joins do not hold an address's allowance, or the server's, for
    long: once ``room_lifetime`` has passed they stop counting and their invites
    say so. (The service's clock is moved on, so nothing waits 20 minutes.)"""
    import casino.web.rooms as rooms_module
    import casino.web.store as store_module

    limits = Limits(waiting_rooms=3)  # the whole server holds what one address may
    with web(tmp_path, limits=limits) as client:
        rooms = [client.post("/api/games", json={"mode": "friends"}) for _ in range(3)]
        assert [r.status_code for r in rooms] == [201] * 3
        r = client.post("/api/games", json={"mode": "friends"})
        assert r.status_code == 429 and "3 rooms waiting" in r.json()["error"]
        real_now = store_module.now
        later = dt.timedelta(seconds=limits.room_lifetime + 60)
        monkeypatch.setattr(rooms_module, "now", lambda: real_now() + later)
        friend = guest(client)
        lapsed = friend.get(rooms[0].json()["invite"] + "?name=Bo", follow_redirects=False)
        assert lapsed.status_code == 410 and "lapsed" in lapsed.text
        again = [client.post("/api/games", json={"mode": "friends"}) for _ in range(3)]
        assert [r.status_code for r in again] == [201] * 3, [r.text for r in again]


def test_an_ipv6_attacker_rotating_addresses_in_its_64_counts_as_one(tmp_path: Path) -> None:
    # One subscriber gets a whole /64: each of its 2^64 addresses must not bring a fresh
    # allowance of rooms. (Loopback has one IPv6 address, so this goes to the service.)
    with web(tmp_path, limits=Limits()) as client:
        service = client.app.state.service  # type: ignore[attr-defined]

        def room(address: str) -> int:
            from casino.web.service import GameError

            try:
                service.rooms.create(rules="casino", players=2, level="beginner", mode="friends",
                               name=None, client=address)
            except GameError as e:
                return e.status
            return 201

        rotating = [f"2001:db8:1:2::{k:x}" for k in range(1, 8)]
        codes = [room(a) for a in rotating]
        limit = Limits().rooms_per_address
        assert codes == [201] * limit + [429] * (len(rotating) - limit)
        assert room("2001:db8:1:3::1") == 201  # the next /64 is someone else
        assert room("::ffff:192.0.2.1") == 201
        assert address_key("::ffff:192.0.2.1") == "192.0.2.1"  # IPv4 in IPv6 is IPv4


def test_an_ipv6_attacker_rotating_addresses_in_its_64_gets_one_allowance_of_games(
        tmp_path: Path) -> None:
    # New games per minute are counted the same way: by the /64, not by the address.
    limits = Limits(games_per_minute=1, games_burst=3)
    with web(tmp_path, limits=limits) as client:
        service = client.app.state.service  # type: ignore[attr-defined]

        def game(address: str) -> int:
            from casino.web.service import GameError

            try:
                service.rooms.create(rules="casino", players=2, level="beginner", mode="computer",
                               name=None, client=address)
            except GameError as e:
                assert "too many new games" in e.message
                return e.status
            return 201

        codes = [game(f"2001:db8:1:2::{k:x}") for k in range(1, 7)]
        assert codes == [201] * 3 + [429] * 3
        assert game("2001:db8:1:3::1") == 201


def test_an_ipv6_attackers_games_are_one_owner_for_the_thinking_pool(tmp_path: Path) -> None:
    # The pool serves computers round-robin by the address that drove each game, so
    # that one address's many games get one turn; an address rotating within its /64
    # must be one owner too, as it is for every limit.
    import warnings

    from casino.web import create_app
    from tests.web_helpers import FAST, Seat

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        from starlette.testclient import TestClient

    owners = []
    for k in (5, 6):
        app = create_app(db_url(tmp_path), pool_workers=0, limits=FAST, hint_level="beginner")
        with TestClient(app, client=(f"2001:db8:1:2::{k}", 50000)) as client:
            r = client.post("/api/games", json={"level": "beginner"})
            game = r.json()["game"]
            with client.websocket_connect(f"/ws/{game}") as ws:
                seat = Seat(ws)
                seat.hello(0)
                seat.until_actionable()
                seat.send({"type": "play", "move": seat.view["legal"][0]["text"],
                           "version": seat.version})
                seat.recv_type("state")
            owners.append(app.state.service.live.games[game].driver)
    assert owners == ["2001:db8:1:2::/64"] * 2


# ----------------------------------------------------------------------
# 3. Dead connections: the heartbeat


@pytest.fixture(scope="module")
def quick_heart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server that pings every half second and closes a connection silent for 1.5 s."""
    limits = Limits(heartbeat_seconds=0.5, heartbeat_timeout=1.5)
    with serve(tmp_path_factory.mktemp("heartbeat"), limits) as served:
        yield served


@with_timeout
def test_a_connection_that_never_answers_is_closed_after_its_pings(quick_heart: Served) -> None:
    """A client that opens a game, says hello and then sends nothing (no pong: a
    dead laptop, or an attacker holding sockets open) is closed by the server with
    4000 once the heartbeat's deadline passes, having been pinged first."""
    with browsers(quick_heart, [fresh_address()]) as (attacker,):
        game = attacker.new_game()

        async def scenario(stack: AsyncExitStack) -> tuple[int, int]:
            tab = await opened(stack, attacker, game, pongs=False)
            await tab.hello()
            code = await tab.closed()
            return code, tab.pings

        code, pings = run(scenario)
    assert code == CLOSE_SILENT
    assert pings >= 1


@with_timeout
def test_a_connection_that_answers_its_pings_stays_open(quick_heart: Served) -> None:
    """The same client answering every ping with a pong, as the page does, sees
    eight pings (four times the silence the server allows) and is still served."""
    with browsers(quick_heart, [fresh_address()]) as (player,):
        game = player.new_game()

        async def scenario(stack: AsyncExitStack) -> tuple[int, dict[str, Any]]:
            tab = await opened(stack, player, game)
            await tab.hello()
            while tab.pings < 8:
                m = await tab.next()
                assert m["type"] in ("ping", "state"), m
            again = await tab.hello()  # still open, still served
            return tab.pings, again

        pings, again = run(scenario)
    assert pings >= 8 and again["view"]["game"] == game


# ----------------------------------------------------------------------
# 4. A message flood is closed as "too fast", not "reconnect now"


@with_timeout
def test_a_message_flood_is_closed_with_too_fast_and_the_game_goes_on(live_server: Served) -> None:
    """A client sends messages without pause and never reads. Past
    ``refused_before_close`` refusals in a row the server closes it with 4408,
    which the page waits on, not with 1012, after which a page reconnects at once
    and floods again."""
    limits = Limits()
    flood = 20 * limits.refused_before_close  # far past the burst and the refusals allowed
    with browsers(live_server, [fresh_address()]) as (attacker,):
        game = attacker.new_game()

        async def scenario(stack: AsyncExitStack) -> tuple[int, list[dict[str, Any]]]:
            tab = await opened(stack, attacker, game)
            await tab.hello()
            pong = json.dumps({"type": "pong"})
            for _ in range(flood):  # all at once: the client reads nothing meanwhile
                await tab.ws.send(pong)
            code = await tab.closed()
            fresh = await opened(stack, attacker, game)
            return code, [m for m in tab.received if m["type"] == "error"] + [
                await fresh.hello()]

        code, messages = run(scenario)
    errors, after = messages[:-1], messages[-1]
    assert code == CLOSE_TOO_FAST, code
    refused = [m for m in errors if "at most 20 a second" in str(m["message"])]
    assert len(refused) >= limits.refused_before_close
    assert "this connection is closed" in str(errors[-1]["message"])
    assert after["view"]["game"] == game  # a new connection is served


# ----------------------------------------------------------------------
# 5. A stale move is refused and changes nothing


@with_timeout
def test_a_stale_play_and_undo_are_refused_and_change_nothing(live_server: Served) -> None:
    """Two tabs of one seat. Tab one plays and the computer answers; tab two, which
    has not read those states yet, sends a play and an undo made on the version it
    saw. The play is a legal move of the current position, so only the version
    refuses it: both are refused in words, nothing changes, and by the time tab two
    reads the refusal it holds the fresh state. The same play with the current
    version is then played."""
    with browsers(live_server, [fresh_address()]) as (player,):
        game = player.new_game()

        async def scenario(stack: AsyncExitStack) -> dict[str, Any]:
            one = await opened(stack, player, game)
            two = await opened(stack, player, game)
            await one.hello()
            await two.hello()
            view = await one.my_turn()
            await two.my_turn()
            seen = two.version
            moves = len(view["log"])
            await one.send({"type": "play", "move": view["legal"][0]["text"],
                            "version": one.version})
            for _ in range(10_000):  # the move and the computer's reply
                if len(one.view["log"]) >= moves + 2 and one.view["your_turn"]:
                    break
                await one.recv()
            now, current = one.version, one.view
            legal_now = current["legal"][0]["text"]
            # Tab two has not read a thing since: it acts on version `seen`.
            await two.send({"type": "play", "move": legal_now, "version": seen})
            await two.send({"type": "undo", "version": seen})

            async def refusal() -> dict[str, Any]:
                for _ in range(10_000):
                    m = await two.recv()
                    if m["type"] == "error":
                        return m
                    assert two.version <= now, f"a stale request changed the game: {m['events']}"
                raise AssertionError("no refusal came")

            play_refused = await refusal()
            had = two.version  # every state sent before the refusal has been read
            undo_refused = await refusal()
            await two.send({"type": "hello", "since": two.version})
            unchanged = await two.recv_type("state")
            await two.send({"type": "play", "move": legal_now, "version": two.version})
            played = await two.recv_type("state")
            return {"seen": seen, "now": now, "current": current, "had": had,
                    "two_view": two.view, "play": play_refused, "undo": undo_refused,
                    "unchanged": unchanged, "played": played, "move": legal_now}

        out = run(scenario)
    assert out["now"] > out["seen"]
    for refusal in (out["play"], out["undo"]):
        words = str(refusal["message"])
        assert "the game has moved on" in words, words
        assert f"version {out['seen']}" in words and f"is at {out['now']}" in words
    assert out["had"] == out["now"]  # the fresh state came with (before) the refusal
    unchanged = out["unchanged"]
    assert unchanged["version"] == out["now"] and unchanged["events"] == []
    assert unchanged["view"]["log"] == out["current"]["log"]
    assert unchanged["view"]["hand"] == out["current"]["hand"]
    played = out["played"]
    assert played["version"] > out["now"]
    assert played["events"][0]["kind"] == "move" and played["events"][0]["seat"] == 0
    assert played["view"]["log"][len(out["current"]["log"])]["text"] == out["move"]
