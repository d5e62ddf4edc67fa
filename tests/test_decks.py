"""Decks no one can predict: where an unseeded game's shuffles come from, as an attacker sees it.

A player who can predict the shuffles knows every hidden card. These tests take
the attacker's side: there must be no seed to find (none is kept, none is
written), no Mersenne Twister whose state earlier decks give away, and every
card of every deck drawn from the operating system's random source. A seeded
game, on the other hand, must stay exactly as repeatable as it always was, and
old records (``seed N``) must read and resume as before.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from pathlib import Path
from typing import NoReturn

import pytest

from casino import InvalidRecord, Match, preset
from casino.engine.record import match_from_record, read_record, write_record
from casino.play.session import GameSession
from tests.cli_helpers import run

#: A record as written before games could be unseeded: seed 1's first deck (the
#: example of docs/records.md), just dealt.
OLD_RECORD = """casino-record/1
rules casino
seed 1
first-dealer 0
round 1 dealer 0
deck Ah Th 3d 7c 5d 3c 5h Kc 4d 8c 6h 2c Ad 3s Tc 9s Qd Kh 6d Jd Td 6c 4s 7h 9c 6s Kd Qs \
9d 3h 9h Js 4h 5c Qc As 7d Jh Ac Qh 2h 4c 7s Jc 8h 8s 8d 2d 5s 2s Ks Ts
end
"""


def _refuse(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError("an unseeded game must not use a Mersenne Twister")


@pytest.fixture
def no_twister(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any new ``random.Random`` or use of the module's shared generator raises."""
    monkeypatch.setattr(random, "Random", _refuse)
    for name in ("seed", "shuffle", "randrange", "randint", "random", "getrandbits", "choice",
                 "sample"):
        monkeypatch.setattr(random, name, _refuse)


class FakeOS:
    """Stands in for ``os.urandom`` behind ``random.SystemRandom``: a fixed byte stream
    that counts how often it is asked."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.calls = 0
        self._block = 0

    def __call__(self, n: int) -> bytes:
        self.calls += 1
        out = b""
        while len(out) < n:
            out += hashlib.sha256(f"{self.key}/{self._block}".encode()).digest()
            self._block += 1
        return out[:n]


def finish_round(match: Match) -> None:
    while match.position.result is None:
        match.play(match.legal_moves()[0])


def play_rounds(match: Match, rounds: int, then: int = 0) -> Match:
    """Play ``rounds`` whole rounds (first legal move each time), then ``then`` moves more."""
    for _ in range(rounds):
        finish_round(match)
        if match.is_over:
            return match
        match.next_round()
    for _ in range(then):
        match.play(match.legal_moves()[0])
    return match


# ----------------------------------------------------------------------
# No seed to find


def test_an_unseeded_match_keeps_no_seed_and_its_record_has_no_number() -> None:
    match = Match("casino")
    assert match.seed is None
    seed_lines = [ln for ln in write_record(match).splitlines() if ln.startswith("seed")]
    assert seed_lines == ["seed none"]
    assert read_record(write_record(match)).seed is None


def test_unseeded_first_decks_and_cuts_are_all_different() -> None:
    matches = [Match("casino") for _ in range(300)]
    assert len({m.rounds[0].deck for m in matches}) == 300
    assert {m.first_dealer for m in matches} == {0, 1}


def test_an_unseeded_game_deals_every_round_without_a_mersenne_twister(no_twister: None) -> None:
    # Tablić is played to 101, which two rounds cannot reach (Finnish Kasino's 16 once
    # ended this game after two: a third round was never dealt).
    match = Match("tablic", players=3)
    play_rounds(match, 2, then=1)
    assert len(match.rounds) == 3 and match.seed is None
    assert len({r.deck for r in match.rounds}) == 3


def test_a_seeded_game_is_a_mersenne_twister_so_the_guard_above_can_fail(
        no_twister: None) -> None:
    with pytest.raises(AssertionError, match="Mersenne Twister"):
        Match("casino", seed=1)


def test_every_card_of_an_unseeded_deck_comes_from_the_os(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The deck is a function of the system's bytes alone, drawn afresh for each card
    (a seed drawn once, then stretched by a generator, would ask only once)."""
    decks = []
    for key in ("a", "a", "b"):
        source = FakeOS(key)
        monkeypatch.setattr(random, "_urandom", source)  # what SystemRandom reads
        match = Match("casino")
        assert source.calls >= 52  # the cut, then at least one draw per card moved
        before = source.calls
        finish_round(match)
        match.next_round()
        assert source.calls - before >= 51
        decks.append([r.deck for r in match.rounds])
    assert decks[0] == decks[1] and decks[0] != decks[2]


# ----------------------------------------------------------------------
# A seeded game is as repeatable as ever


def test_a_seeded_game_deals_exactly_as_before() -> None:
    """The cut then each deck from ``random.Random(seed)``, in that order."""
    for seed in (0, 1, 7, 2**40 + 3):
        rng = random.Random(seed)
        dealer = rng.randrange(2)
        decks = []
        for _ in range(3):
            deck = list(range(52))
            rng.shuffle(deck)
            decks.append(tuple(deck))
        match = play_rounds(Match("casino", seed=seed), 2)
        assert match.seed == seed and match.first_dealer == dealer
        assert [r.deck for r in match.rounds] == decks[:len(match.rounds)]
        assert "\nseed " + str(seed) + "\n" in write_record(match)


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = (play_rounds(Match("classic", seed=99, players=4), 2) for _ in range(2))
    assert [r.deck for r in a.rounds] == [r.deck for r in b.rounds]
    assert write_record(a) == write_record(b)


# ----------------------------------------------------------------------
# Records of unseeded games, and old records


def test_an_unseeded_record_round_trips_and_resumes_exactly(no_twister: None) -> None:
    original = play_rounds(Match("casino"), 2, then=5)
    text = write_record(original)
    record = read_record(text)
    assert record.seed is None and record.first_dealer == original.first_dealer
    assert [r.deck for r in record.rounds] == [r.deck for r in original.rounds]
    resumed = match_from_record(record)
    assert resumed.seed is None
    assert [r.deck for r in resumed.rounds] == [r.deck for r in original.rounds]
    assert [r.moves for r in resumed.rounds] == [r.moves for r in original.rounds]
    assert resumed.position == original.position
    assert write_record(resumed) == text


def test_rounds_after_an_unseeded_record_are_fresh_shuffles(no_twister: None) -> None:
    """Nothing in the record tells the next deck: two resumptions deal different ones."""
    record = read_record(write_record(play_rounds(Match("casino"), 1, then=3)))
    nexts = []
    for _ in range(2):
        resumed = match_from_record(record)
        finish_round(resumed)
        resumed.next_round()
        nexts.append(resumed.rounds[-1].deck)
    assert nexts[0] != nexts[1]


def test_an_unseeded_record_just_dealt_resumes_with_its_own_deck() -> None:
    original = Match("casino", players=2)
    resumed = match_from_record(read_record(write_record(original)))
    assert resumed.rounds[0].deck == original.rounds[0].deck
    assert resumed.first_dealer == original.first_dealer and resumed.seed is None


def test_an_old_seed_record_still_reads_and_resumes_as_its_seed_deals() -> None:
    record = read_record(OLD_RECORD)
    assert record.seed == 1 and record.first_dealer == 0
    resumed = match_from_record(record)
    again = Match("casino", seed=1)
    assert resumed.seed == 1 and resumed.rounds[0].deck == again.rounds[0].deck
    for m in (resumed, again):  # the generator is where the original game's was
        finish_round(m)
        m.next_round()
    assert resumed.rounds[1].deck == again.rounds[1].deck
    assert write_record(read_record(OLD_RECORD)) == OLD_RECORD


@pytest.mark.parametrize("word", ["abc", "None", "NONE", "none 7", "7 none", "1.5", "-"])
def test_a_bad_seed_line_says_what_it_takes(word: str) -> None:
    with pytest.raises(InvalidRecord, match=r"line 3: 'seed' takes a whole number, or 'none'"):
        read_record(OLD_RECORD.replace("seed 1", f"seed {word}"))


def test_a_header_without_a_seed_line_is_still_an_error() -> None:
    with pytest.raises(InvalidRecord, match="the header has no 'seed' line"):
        read_record(OLD_RECORD.replace("seed 1\n", ""))


# ----------------------------------------------------------------------
# The front ends


def test_an_unseeded_session_plays_and_saves_without_a_seed(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(time, "strftime", lambda _fmt, *a: "20250102-030405")
    first = GameSession.new(preset("casino"), level="beginner")
    second = GameSession.new(preset("casino"), level="beginner")  # the same second
    assert first.match.seed is None
    assert first.save_path is not None and second.save_path is not None
    assert first.save_path.name == "20250102-030405-casino.rec"
    assert second.save_path.name == "20250102-030405-casino.2.rec"
    while not first.human_to_move:  # the computers, seeded afresh, can move
        first.computer_move()
    assert isinstance(first.hint_job().seed, int)
    first.play(first.legal_moves()[0])
    assert read_record(first.save_path.read_text()).seed is None
    assert read_record(second.save_path.read_text()).rounds[0].deck != \
        first.match.rounds[0].deck


def test_the_demo_without_a_seed_says_how_it_was_shuffled(tmp_path: Path) -> None:
    path = tmp_path / "demo.casino"
    code, out, _ = run("demo", "--level", "beginner", "--save", str(path))
    assert code == 0
    assert "2 players, shuffled by the system's random source" in out
    assert not re.search(r"seed \d", out)
    assert load_seed_line(path) == "seed none"
    code, replayed, _ = run("replay", str(path))
    assert code == 0 and "2 players, shuffled by the system's random source" in replayed


def test_the_demo_with_a_seed_shows_it() -> None:
    code, out, _ = run("demo", "--seed", "5", "--level", "beginner")
    assert code == 0 and "2 players, seed 5" in out


def test_the_web_server_creates_games_without_a_seed(tmp_path: Path) -> None:
    from tests.web_helpers import new_game, web

    with web(tmp_path) as client:
        games = [new_game(client), new_game(client, mode="friends")]
        records = [read_record(client.app.state.store.load(g).record)  # type: ignore[attr-defined]
                   for g in games]
    assert [r.seed for r in records] == [None, None]
    assert records[0].rounds[0].deck != records[1].rounds[0].deck


def load_seed_line(path: Path) -> str:
    return next(ln for ln in path.read_text().splitlines() if ln.startswith("seed"))


def test_a_served_game_stores_no_seed_and_its_decks_share_nothing(tmp_path: Path) -> None:
    """Through the real server: what is stored for a game holds no seed to search for.

    The old attack read a player's first view (hand and table) and searched the
    2^32 seeds for the one that dealt it; here there is none, and the stored
    first decks of many games (the computer's hand and the stock included) are
    all different, as draws from the system's random source are.
    """
    import httpx

    from casino.web.store import Store
    from tests.web_helpers import db_url, uvicorn_server

    url = db_url(tmp_path)
    with uvicorn_server(url) as base:
        games = [httpx.post(base + "/api/games", json={"level": "beginner"}).json()["game"]
                 for _ in range(12)]
        games.append(httpx.post(base + "/api/games", json={"mode": "friends"}).json()["game"])
    store = Store(url)
    try:
        texts = [store.load(g).record for g in games]  # type: ignore[union-attr]
    finally:
        store.close()
    assert all(re.search(r"^seed none$", t, re.M) for t in texts)
    assert not any(re.search(r"^seed \d", t, re.M) for t in texts)
    decks = [read_record(t).rounds[0].deck for t in texts]
    assert len(set(decks)) == len(decks)


def test_a_seeded_game_shows_its_seed_to_every_player_and_a_served_one_none(
        tmp_path: Path) -> None:
    """A seed is no secret once given: whoever knows it knows the decks, so all are told."""
    from tests.web_helpers import Seat, guest, new_game, web

    with web(tmp_path) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        served = new_game(client)
        with client.websocket_connect(f"/ws/{served}") as ws:
            assert Seat(ws).hello(0)["view"]["seed"] is None
        room = service.rooms.create(rules="casino", players=2, level="beginner", mode="friends",
                              name="Ann", seed=4242, token=client.cookies["casino"])
        bob = guest(client)
        assert bob.get(f"{room.invite}?name=Bob", follow_redirects=False).status_code == 303
        for who in (client, bob):
            with who.websocket_connect(f"/ws/{room.game}") as ws:
                assert Seat(ws).hello(0)["view"]["seed"] == 4242
