"""Game records (casino-record/1): round trips, unfinished games, damage, fuzzing.

A record must replay to exactly the positions of the game it was written
from, for every preset and player count, finished or not; and a damaged
record must fail with InvalidRecord naming the line where it went wrong.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino import (
    PRESET_NAMES,
    IllegalMove,
    InvalidRecord,
    MalformedMove,
    Match,
    Position,
    RulesError,
    preset,
)
from casino.engine.cards import card_text
from casino.engine.record import (
    FORMAT,
    Note,
    Record,
    Settings,
    load_record,
    match_from_record,
    read_record,
    save_record,
    transcript,
    write_record,
)
from casino.engine.rules import Rules, rules_from_json
from casino.play.session import HUMAN, GameSession


def _rulesets() -> list[tuple[str, int]]:
    out = []
    for name in PRESET_NAMES:
        for players in (2, 3, 4):
            try:
                preset(name, players=players)
            except RulesError:
                continue
            out.append((name, players))
    return out


RULESETS = _rulesets()


def play(rules: Rules | str, seed: int, *, moves: int | None = None,
         first_dealer: int | None = None) -> Match:
    """A seeded random game, stopped after ``moves`` moves if given (else played out)."""
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    rng = random.Random(seed)
    played = 0
    while True:
        while match.position.result is None:
            if moves is not None and played >= moves:
                return match
            match.play(rng.choice(match.legal_moves()))
            played += 1
        if match.is_over:
            return match
        if moves is not None and played >= moves:
            return match
        match.next_round()


def replayed_positions(match: Match) -> list[list[Position]]:
    """Every position of every round of ``match``, by replaying its logged moves."""
    out = []
    for log in match.rounds:
        pos = log.start
        positions = [pos]
        for move in log.moves:
            pos = pos.play(move)
            positions.append(pos)
        out.append(positions)
    return out


def assert_same_game(record: Record, match: Match) -> None:
    assert record.rules == match.rules
    assert record.seed == match.seed
    assert record.first_dealer == match.first_dealer
    assert len(record.rounds) == len(match.rounds)
    for rnd, log, positions in zip(record.rounds, match.rounds, replayed_positions(match),
                                   strict=True):
        assert (rnd.number, rnd.dealer, rnd.deck) == (log.number, log.dealer, log.deck)
        assert list(rnd.moves) == log.moves
        assert list(rnd.movers) == log.movers
        assert rnd.result == log.result
        assert list(rnd.positions) == positions
        assert [p.to_json() for p in rnd.positions] == [p.to_json() for p in positions]
    assert record.position == match.position
    assert record.winner == match.winner


# ----------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize(("name", "players"), RULESETS)
def test_round_trip_reproduces_every_position(name: str, players: int) -> None:
    match = play(preset(name, players=players), seed=players * 101 + len(name))
    assert match.is_over
    text = write_record(match)
    record = read_record(text)
    assert_same_game(record, match)
    assert write_record(record) == text


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_on_more_seeded_games_of_the_house_rules(seed: int) -> None:
    match = play("casino", seed=seed)
    assert_same_game(read_record(write_record(match)), match)


def test_rules_with_options_are_written_as_a_json_object() -> None:
    rules = preset("classic", players=3, win_rule="counting-order", target=11)
    match = play(rules, seed=4)
    text = write_record(match)
    rules_line = text.splitlines()[1]
    assert rules_line.startswith("rules {")
    assert json.loads(rules_line[len("rules "):]) == rules.to_json()
    record = read_record(text)
    assert record.rules == rules
    assert_same_game(record, match)


def test_a_preset_without_options_is_written_by_name() -> None:
    text = write_record(play("kasino", seed=1, moves=3))
    assert text.splitlines()[:2] == [FORMAT, "rules kasino"]


def test_rules_line_accepts_an_alias() -> None:
    text = write_record(play("kasino", seed=1, moves=3)).replace("rules kasino", "rules finnish")
    assert read_record(text).rules == preset("kasino")


def test_names_round_trip_quoted_when_they_hold_spaces() -> None:
    match = play("casino", seed=2, moves=5)
    text = write_record(match, names=["Ann", "Bob Lee"])
    assert 'names Ann "Bob Lee"' in text.splitlines()
    record = read_record(text)
    assert record.names == ("Ann", "Bob Lee")
    assert record.name(1) == "Bob Lee"
    assert write_record(record) == text


def test_names_with_any_characters_round_trip() -> None:
    match = play("casino", seed=2, moves=1)
    names = ['Zoë "Z" #1', "two\nlines"]
    record = read_record(write_record(match, names=names))
    assert record.names == tuple(names)


def test_names_must_be_one_per_seat_when_writing() -> None:
    with pytest.raises(ValueError, match="3 names for 2 players"):
        write_record(play("casino", seed=2, moves=1), names=["a", "b", "c"])


def test_reader_ignores_comments_blank_lines_and_crlf() -> None:
    match = play("casino", seed=8)
    text = write_record(match)
    noisy = "# a game\n\n" + text.replace("\nround", "\n\n# next\nround").replace("\n", "\r\n")
    assert_same_game(read_record(noisy), match)


def test_reader_accepts_lenient_move_text() -> None:
    """Like PGN readers, a record may spell moves leniently; writing makes them canonical."""
    match = play("casino", seed=8)
    text = write_record(match)
    lenient = text.replace("Td", "10d").replace("Th", "10♥")
    record = read_record(lenient)
    assert_same_game(record, match)
    assert write_record(record) == text


def test_save_and_load_record(tmp_path: Path) -> None:
    match = play("royal", seed=3)
    path = tmp_path / "game.casino"
    save_record(match, path, names=["N", "S"])
    record = load_record(path)
    assert_same_game(record, match)
    assert record.names == ("N", "S")


def test_load_record_of_non_utf8_bytes_is_invalid(tmp_path: Path) -> None:
    path = tmp_path / "bad"
    path.write_bytes(b"casino-record/1\n\xff\xfe")
    with pytest.raises(InvalidRecord, match="UTF-8"):
        load_record(path)


# ----------------------------------------------------------------------
# Unfinished games (save and resume)


@pytest.mark.parametrize("moves", [0, 1, 17, 48, 60])
def test_unfinished_game_round_trips(moves: int) -> None:
    match = play("casino", seed=21, moves=moves)
    assert not match.is_over
    record = read_record(write_record(match))
    assert_same_game(record, match)
    assert record.winner is None


def test_game_between_rounds_round_trips() -> None:
    """A round scored but the next not dealt: the record ends after its result line."""
    match = play("casino", seed=21, moves=48)
    assert match.position.result is not None and not match.is_over
    text = write_record(match)
    assert text.splitlines()[-2].startswith("result ")
    assert_same_game(read_record(text), match)


def test_new_round_without_moves_round_trips() -> None:
    match = play("casino", seed=21, moves=48)
    match.next_round()
    text = write_record(match)
    assert text.splitlines()[-2].startswith("deck ")
    assert_same_game(read_record(text), match)


@pytest.mark.parametrize(("name", "players"), [("casino", 2), ("kasino", 3), ("classic", 4),
                                               ("krypkasino", 2), ("tablic", 3)])
def test_match_from_record_resumes_exactly(name: str, players: int) -> None:
    """A resumed game is the original one: same positions, same later shuffles."""
    rules = preset(name, players=players)
    original = play(rules, seed=33, moves=70)
    resumed = match_from_record(read_record(write_record(original)))
    assert resumed.position == original.position
    assert resumed.seed == original.seed and resumed.first_dealer == original.first_dealer
    assert [r.deck for r in resumed.rounds] == [r.deck for r in original.rounds]
    for m in (original, resumed):  # the next shuffle comes from the same generator state
        if m.position.result is None:
            m.play(m.legal_moves()[0])
        while m.position.result is None:
            m.play(m.legal_moves()[0])
        if not m.is_over:
            m.next_round()
    assert resumed.position == original.position


def test_match_from_record_with_first_dealer_given() -> None:
    original = play("casino", seed=5, moves=60, first_dealer=1)
    resumed = match_from_record(read_record(write_record(original)))
    assert resumed.position == original.position
    assert resumed.shuffled_deck() == original.shuffled_deck()


def test_match_from_record_written_elsewhere_uses_the_recorded_decks() -> None:
    """A record whose decks its seed does not shuffle (another program wrote it)."""
    original = play("casino", seed=5, moves=60)
    text = write_record(original).replace("seed 5\n", "seed 6\n")
    record = read_record(text)
    resumed = match_from_record(record)
    assert resumed.seed == 6
    assert resumed.position == original.position
    assert [r.deck for r in resumed.rounds] == [r.deck for r in original.rounds]


def test_match_from_record_of_a_finished_game_is_over() -> None:
    original = play("spade", seed=9)
    resumed = match_from_record(read_record(write_record(original)))
    assert resumed.is_over and resumed.winner == original.winner


# ----------------------------------------------------------------------
# Damaged records: each kind gives InvalidRecord naming the right line


@pytest.fixture(scope="module")
def good() -> str:
    """A finished two-round-plus game of the house rules."""
    return write_record(play("casino", seed=5), names=["Ann", "Bob"])


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def line_no(text: str, prefix: str, nth: int = 0) -> int:
    """The 1-based number of the ``nth`` line starting with ``prefix``."""
    hits = [i for i, line in enumerate(lines_of(text), start=1) if line.startswith(prefix)]
    return hits[nth]


def edit(text: str, number: int, new: str | None) -> str:
    """``text`` with line ``number`` (1-based) replaced, or deleted when ``new`` is None."""
    lines = lines_of(text)
    if new is None:
        del lines[number - 1]
    else:
        lines[number - 1] = new
    return "\n".join(lines)


def damaged(text: str, line: int, match: str) -> InvalidRecord:
    with pytest.raises(InvalidRecord, match=match) as info:
        read_record(text)
    assert info.value.line == line, str(info.value)
    assert str(info.value).startswith(f"line {line}: ")
    return info.value


def test_damage_unknown_keyword(good: str) -> None:
    damaged(edit(good, 3, "sead 5"), 3, "unknown keyword 'sead'")
    n = line_no(good, "move", 4)
    damaged(edit(good, n, "mvoe 0 7h"), n, "unknown keyword 'mvoe'")


def test_damage_empty_record() -> None:
    damaged("", 1, "empty")
    damaged("\n# only a comment\n", 1, "empty")


def test_damage_wrong_format_line(good: str) -> None:
    damaged(edit(good, 1, "casino-record/2"), 1, "unsupported format")
    damaged(edit(good, 1, "PGN"), 1, "starts with")


@pytest.mark.parametrize("keep", [5, 9, 40, -3, -2])
def test_damage_truncated_file(good: str, keep: int) -> None:
    """A record cut at any line (the final 'end' lost) is an error at its last line."""
    lines = lines_of(good.rstrip("\n"))[:keep]
    text = "\n".join(lines) + "\n"
    err = damaged(text, len(lines), "cut short|expected")
    assert "end" in str(err) or "expected" in str(err)


def test_every_line_prefix_of_a_record_is_invalid(good: str) -> None:
    lines = lines_of(good.rstrip("\n"))
    for k in range(len(lines)):
        with pytest.raises(InvalidRecord):
            read_record("\n".join(lines[:k]))


def test_damage_truncated_mid_line(good: str) -> None:
    n = line_no(good, "deck", 1)
    cut = "\n".join(lines_of(good)[:n]).rsplit(" ", 2)[0]
    damaged(cut, n, "the deck has 50 cards")
    damaged(cut + " T", n, "deck card 51: 'T' is not a card")


def test_damage_wrong_card_count_in_deck(good: str) -> None:
    n = line_no(good, "deck")
    deck = lines_of(good)[n - 1].split()
    damaged(edit(good, n, " ".join(deck[:-1])), n, "the deck has 51 cards; a casino deck has 52")
    damaged(edit(good, n, " ".join([*deck, "2c"])), n, "53 cards")


def test_damage_card_twice_in_deck(good: str) -> None:
    n = line_no(good, "deck")
    deck = lines_of(good)[n - 1].split()
    deck[2] = deck[1]
    damaged(edit(good, n, " ".join(deck)), n, f"holds {deck[1]} twice")


def test_damage_not_a_card_in_deck(good: str) -> None:
    n = line_no(good, "deck")
    deck = lines_of(good)[n - 1].split()
    deck[5] = "Xq"
    damaged(edit(good, n, " ".join(deck)), n, "deck card 5: 'Xq' is not a card")


def test_damage_illegal_move(good: str) -> None:
    """The message says which move and why the engine refuses it."""
    n = line_no(good, "move", 2)
    seat = lines_of(good)[n - 1].split()[1]
    err = damaged(edit(good, n, f"move {seat} 2c x 4h"), n, r"move 2c x 4h is illegal: ")
    assert len(str(err)) > len(f"line {n}: move 2c x 4h is illegal: ")


def test_damage_unreadable_move(good: str) -> None:
    n = line_no(good, "move", 2)
    seat = lines_of(good)[n - 1].split()[1]
    damaged(edit(good, n, f"move {seat} ???"), n, r"move \?\?\? is illegal")
    damaged(edit(good, n, "move"), n, "expected 'move SEAT MOVE'")
    damaged(edit(good, n, f"move {seat}"), n, "expected 'move SEAT MOVE'")


def test_damage_move_by_the_wrong_seat(good: str) -> None:
    n = line_no(good, "move", 3)
    _, seat, text = lines_of(good)[n - 1].split(" ", 2)
    other = 1 - int(seat)
    damaged(edit(good, n, f"move {other} {text}"), n,
            f"played by seat {other}, but seat {seat} is to move")


def test_damage_missing_move(good: str) -> None:
    """Dropping a move shifts the turn: the next move is by the wrong seat."""
    n = line_no(good, "move", 3)
    damaged(edit(good, n, None), n, "is to move|is illegal")


def test_damage_wrong_totals(good: str) -> None:
    n = line_no(good, "result")
    totals = [int(t) for t in lines_of(good)[n - 1].split()[1:]]
    bad = f"result {totals[0] + 1} {totals[1]}"
    damaged(edit(good, n, bad), n, f"ends with totals {totals[0]} {totals[1]}, not")
    damaged(edit(good, n, "result 1"), n, "takes 2 whole numbers")


def test_damage_missing_result(good: str) -> None:
    n = line_no(good, "result")
    damaged(edit(good, n, None), n, "expected 'result', found 'round'")


def test_damage_result_before_the_round_is_over(good: str) -> None:
    n = line_no(good, "result")
    # drop the round's last move: the result line now comes one card early
    damaged(edit(good, n - 2, None), n - 1, "round 1 is not over: 1 card is still to be played")


def test_damage_move_after_the_round_is_over(good: str) -> None:
    n = line_no(good, "result")
    damaged(edit(good, n, "move 0 7h"), n, "round 1 is over")


def test_damage_round_number_and_dealer(good: str) -> None:
    n = line_no(good, "round", 1)
    dealer = lines_of(good)[n - 1].split()[3]
    damaged(edit(good, n, f"round 3 dealer {dealer}"), n, "round 3 should be round 2")
    damaged(edit(good, n, f"round 2 dealer {1 - int(dealer)}"), n,
            f"dealt by seat {dealer} .the deal passes")
    damaged(edit(good, n, "round 2 dealer 7"), n, "the dealer must be a seat from 0 to 1")
    damaged(edit(good, n, "round two"), n, "expected 'round NUMBER dealer SEAT'")
    first = line_no(good, "round")
    damaged(edit(good, first, "round 1 dealer 0" if "dealer 1" in lines_of(good)[first - 1]
                 else "round 1 dealer 1"), first, "the first dealer")


def test_damage_winner_lines(good: str) -> None:
    n = line_no(good, "winner")
    seat = int(lines_of(good)[n - 1].split()[1])
    damaged(edit(good, n, f"winner {1 - seat}"), n, f"seat {seat} won the game")
    damaged(edit(good, n, None), n, "expected 'winner', found 'end'")
    damaged(edit(good, n, "winner X"), n, "whole number")


def test_damage_winner_line_in_an_unfinished_game() -> None:
    text = write_record(play("casino", seed=21, moves=48))
    n = len(lines_of(text.rstrip("\n")))
    damaged(edit(text, n, "winner 0\nend"), n, "the game is not over")


def test_damage_round_after_the_game_was_won(good: str) -> None:
    n = line_no(good, "winner")
    damaged(edit(good, n, "round 9 dealer 0"), n, "the game ended in round")


def test_damage_round_after_an_unfinished_round(good: str) -> None:
    """The last move and the result lost: round 2 starts before round 1 has ended."""
    n = line_no(good, "result")
    text = edit(edit(good, n, None), n - 2, None)
    damaged(text, n - 1, "round 1 is not over .1 card is still to be played.: expected 'move'")


def test_damage_header_lines(good: str) -> None:
    damaged(edit(good, 2, "rules nosuch"), 2, "bad rules: unknown ruleset 'nosuch'")
    damaged(edit(good, 2, "rules {\"preset\": "), 2, "not valid JSON")
    damaged(edit(good, 2, "rules {\"preset\": \"casino\", \"players\": 9}"), 2, "bad rules")
    damaged(edit(good, 2, "rules casino classic"), 2, "one preset name")
    damaged(edit(good, 3, "seed x"), 3, "'seed' takes a whole number, or 'none'")
    damaged(edit(good, 4, "first-dealer 2"), 4, "first-dealer must be a seat from 0 to 1")
    damaged(edit(good, 5, "names Ann"), 5, "'names' needs 2 names")
    damaged(edit(good, 5, 'names Ann "Bob'), 5, "quoted name")
    damaged(edit(good, 5, 'names Ann ""'), 5, "cannot be empty")
    damaged(edit(good, 5, "seed 7"), 5, "'seed' given twice .first on line 3")
    damaged(edit(good, 3, None), 5, "the header has no 'seed' line")


def test_rules_object_with_a_name_key_is_an_invalid_record(good: str) -> None:
    damaged(edit(good, 2, 'rules {"preset": "casino", "name": "x"}'), 2, "bad rules")


def test_rules_from_json_with_a_name_key_raises_rules_error() -> None:
    """Engine bug: rules_from_json({"preset": "casino", "name": "x"}) raised TypeError
    (preset() got multiple values for argument 'name'); the reader works around it."""
    with pytest.raises(RulesError):
        rules_from_json({"preset": "casino", "name": "x"})


@pytest.mark.parametrize("text", ["2c+4c =", "2c =x", "2c+4c = "])
def test_move_text_with_an_empty_value_is_a_malformed_move(text: str) -> None:
    """Engine bug: parse_move("2c+4c =") raised a bare ValueError from int('') instead of
    MalformedMove; found by the mutated-record fuzz test (the reader works around it)."""
    pos = Match("casino", seed=12, first_dealer=1).position
    with pytest.raises(MalformedMove):
        pos.parse_move(text)


def test_record_with_an_empty_build_value_is_an_invalid_record() -> None:
    match = play("casino", seed=12, first_dealer=1, moves=0)
    text = write_record(match).replace("end\n", f"move {match.position.to_move} 2c+4c =\nend\n")
    damaged(text, line_no(text, "move"), "move 2c.4c = is illegal")


def test_damage_rules_that_change_the_deck(good: str) -> None:
    """The deck must be a full deck of the recorded rules (two decks for Mulle)."""
    damaged(edit(good, 2, "rules mulle"), line_no(good, "deck"), "a mulle deck has 104")


def test_damage_text_after_end(good: str) -> None:
    n = len(lines_of(good.rstrip("\n")))
    damaged(good + "move 0 7h\n", n + 1, "text after 'end'")
    damaged(edit(good, n, "end now"), n, "'end' takes nothing")


def test_damage_message_example() -> None:
    """The documented example: a line number, the move, and the engine's reason."""
    match = play("casino", seed=1, moves=0)
    pos = match.position
    seat = pos.to_move
    text = write_record(match).replace("end\n", f"move {seat} Zz\nend\n")
    n = line_no(text, "move")
    err = damaged(text, n, "move Zz is illegal")
    assert str(err).startswith(f"line {n}: move Zz is illegal: ")


# ----------------------------------------------------------------------
# Fuzzing: only InvalidRecord may come out


@pytest.fixture(scope="module")
def short_record() -> str:
    """A short valid record (a Krypkasino game has only one long round)."""
    return write_record(play("casino", seed=12, moves=30))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fuzz_arbitrary_text_raises_only_invalid_record(text: str) -> None:
    with contextlib.suppress(InvalidRecord):  # any other exception fails the test
        read_record(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["casino-record/1", "rules casino", "rules tablic", "seed 1",
                                 "seed -3", "seed none", "first-dealer 0", "first-dealer 1",
                                 "names a b",
                                 "round 1 dealer 0", "round 1 dealer 1", "round 2 dealer 1",
                                 "deck " + " ".join(card_text(c) for c in range(52)),
                                 "move 0 As", "move 1 2c", "move 1 Kd x Kc", "result 0 0",
                                 "winner 0", "end", "# note", "", "rules {\"preset\": 1}",
                                 "rules [", "deck", "names", "round", "end end",
                                 "table hints=on takebacks=off", "hint 0", "undo 1 1",
                                 "undo 0 3", "resign 0", "resign 1", "takeover 1 easy",
                                 "takeover 0"]),
                max_size=14))
def test_fuzz_keyword_soup_raises_only_invalid_record(lines: list[str]) -> None:
    with contextlib.suppress(InvalidRecord):  # any other exception fails the test
        read_record("\n".join(lines))


_MUTATIONS = ("delete", "duplicate", "swap", "replace-token", "insert", "truncate", "flip")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(_MUTATIONS), st.integers(0, 10_000),
                          st.integers(0, 10_000), st.text(max_size=12)),
                min_size=1, max_size=3))
def test_fuzz_mutated_records_raise_only_invalid_record(
        short_record: str, mutations: list[tuple[str, int, int, str]]) -> None:
    _read_mutated(short_record, mutations)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(_MUTATIONS), st.integers(0, 10_000),
                          st.integers(0, 10_000), st.text(max_size=12)),
                min_size=1, max_size=3))
def test_fuzz_mutated_records_with_notes_raise_only_invalid_record(
        noted_record: str, mutations: list[tuple[str, int, int, str]]) -> None:
    _read_mutated(noted_record, mutations)


@pytest.fixture(scope="module")
def noted_record() -> str:
    """A short three-player record with every kind of note: hints, an undo, a resignation."""
    g = _table("classic", 3, people=2)
    for _ in range(2):
        _step(g)
    while not g.human_to_move:
        _step(g)
    seat = g.to_move
    g.hint_given(seat)
    _step(g)
    g.undo(seat)
    _step(g, 1)
    g.resign(seat, "easy")
    for _ in range(3):
        _step(g)
    text = g.record_text()
    assert {"hint", "undo", "resign", "takeover", "table"} <= {
        ln.split(" ")[0] for ln in lines_of(text)}
    return text


def _read_mutated(record: str, mutations: list[tuple[str, int, int, str]]) -> None:
    lines = lines_of(record)
    text = record
    for kind, a, b, junk in mutations:
        i, j = a % len(lines), b % len(lines)
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "replace-token":
            tokens = lines[i].split(" ")
            tokens[b % len(tokens)] = junk
            lines[i] = " ".join(tokens)
        elif kind == "insert":
            lines.insert(i, junk)
        elif kind == "flip":
            text = "\n".join(lines)
            k = (a * 7919 + b) % max(1, len(text))
            lines = lines_of(text[:k] + junk + text[k + 1:])
        text = "\n".join(lines)
        if kind == "truncate":
            text = text[: a % (len(text) + 1)]
            lines = lines_of(text)
    with contextlib.suppress(InvalidRecord):  # any other exception fails the test
        read_record(text)


def test_fuzz_never_shows_other_errors_for_bad_rules_objects() -> None:
    """Hostile JSON in the rules line (deep nesting, huge numbers) is InvalidRecord too."""
    base = write_record(play("casino", seed=1, moves=2))
    for obj in ["{" * 5000, '{"preset": "casino", "players": 1e999}',
                '{"preset": "casino", "target": ' + "9" * 5000 + "}",
                '{"preset": "casino", "hand_values": [[{}, 3]]}',
                '{"preset": "casino", "face_values": "abc"}', '{"preset": null}']:
        with pytest.raises(InvalidRecord) as info:
            read_record(edit(base, 2, f"rules {obj}"))
        assert info.value.line == 2


def test_docs_example_record_is_a_valid_record() -> None:
    """docs/records.md shows a real record: it must read, and write back unchanged."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "records.md").read_text("utf-8")
    example = doc.split("## An example", 1)[1].split("```\n", 2)[1]
    record = read_record(example)
    assert record.is_over and record.names == ("Ann", "Bob")
    assert write_record(record) == example
    assert all(r.positions[-1].result is not None for r in record.rounds)


# ----------------------------------------------------------------------
# Engine bugs found by fuzzing the rules line of records (rules objects with options).
# A record may carry any rules object that preset() accepts, so every accepted
# combination must be playable: either preset() refuses it, or the engine honours it.


def _position(rules: object, to_move: int, hands: list[list[str]], table: list[object],
              decks: int = 1) -> Position | None:
    """A last-deal position; the cards not shown lie in seat 0's pile.

    None when the rules object is refused (RulesError), which also fixes the bug.
    """
    try:
        rules_from_json(rules)
    except RulesError:
        return None
    rest = [card_text(c) for c in range(52) for _ in range(decks)]
    for text in [*hands[0], *hands[1]]:
        rest.remove(text)
    for item in table:
        for text in ([item] if isinstance(item, str)
                     else [c for g in item["groups"] for c in g]):  # type: ignore[index]
            rest.remove(text)
    return Position.from_json({
        "format": "casino-position/1", "rules": rules, "round": 1, "deal": 3, "dealer": 1,
        "to_move": to_move, "hands": hands, "table": table, "piles": [rest, []],
        "sweeps": [], "last_capture": 0, "stock": [], "set_aside": [], "scores": [0, 0],
        "result": None,
    })


@pytest.mark.parametrize("name", ["casino", "classic", "royal", "mulle"])
def test_compulsory_capture_option_is_refused_where_builds_or_one_card_faces_exist(
        name: str) -> None:
    """Compulsory and forced captures are defined (docs/rules.md §3, §7.3) only where
    every turn is a capture or a trail of any selection; with builds (an owner may never
    trail) or classic face cards (one card per capture) no move could be maximal, so the
    option is refused."""
    from casino.engine.errors import RulesError
    from casino.engine.rules import preset

    with pytest.raises(RulesError, match="without builds"):
        preset(name, compulsory_capture=True)
    with pytest.raises(RulesError, match="without builds"):
        preset(name, forced_sweep=True)


def test_K3_forced_sweep_option_false_is_honoured() -> None:
    """krypkasino with forced_sweep=False still forced 5♣ to sweep 5♥; without the forced
    sweep, the 3♦ (which can capture nothing) may be trailed (K1: the card is chosen)."""
    pos = _position({"preset": "krypkasino", "forced_sweep": False}, 0,
                    [["5c", "3d"], ["2c"]], ["5h"], decks=2)
    if pos is not None:
        assert "3d" in [str(m) for m in pos.legal_moves()]


def test_players_line_round_trips_and_is_optional() -> None:
    match = play("casino", seed=4, moves=3)
    text = write_record(match, names=["Ann", "Computer"], players=["human", "medium"])
    assert "players human medium" in text.splitlines()
    record = read_record(text)
    assert record.players == ("human", "medium")
    assert read_record(write_record(record)).players == ("human", "medium")
    assert read_record(write_record(match)).players is None


def test_players_line_is_checked() -> None:
    match = play("casino", seed=4, moves=1)
    with pytest.raises(ValueError, match="3 players for a 2-player game"):
        write_record(match, players=["human", "easy", "easy"])
    with pytest.raises(ValueError, match="not 'Bad Word'"):
        write_record(match, players=["human", "Bad Word"])
    good = write_record(match)
    lines = good.splitlines()
    for bad, message in (("players human", "'players' needs 2 words"),
                         ("players human Medium!", "computer level")):
        damaged("\n".join([*lines[:4], bad, *lines[4:]]) + "\n", 5, message)


def test_save_record_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text("old", encoding="utf-8")
    save_record(play("casino", seed=4, moves=2), path, players=["human", "easy"])
    assert read_record(path.read_text(encoding="utf-8")).players == ("human", "easy")
    assert not (tmp_path / "g.rec.tmp").exists()


# ----------------------------------------------------------------------
# Fair play: the table's settings and its notes (hints, take-backs, resignations,
# takeovers). They are optional lines: a record without them reads as before.


def _table(rules: str = "casino", players: int = 2, *, people: int | None = None,
           hints: bool = True, takebacks: bool = True, seed: int = 11) -> GameSession:
    """A session of people (and, past ``people``, beginner computers) with the settings."""
    people = players if people is None else people
    seats = [HUMAN if s < people else "beginner" for s in range(players)]
    names = [f"P{s}" for s in range(players)]
    return GameSession(Match(rules, seed=seed, players=players), seats, names,
                       settings=Settings(hints=hints, takebacks=takebacks))


def _step(g: GameSession, k: int = 0) -> None:
    """One move: a computer's, or the person to move plays their ``k``-th legal move."""
    if g.computer_to_move:
        g.computer_move()
        return
    legal = g.view_of(g.to_move).legal_moves()
    g.play(legal[min(k, len(legal) - 1)], seat=g.to_move)


def test_an_old_record_has_no_table_line_and_no_notes(good: str) -> None:
    record = read_record(good)
    assert record.table is None and record.notes == () and record.resigned is None
    assert write_record(record) == good  # written back without them


def test_settings_and_notes_round_trip_to_the_same_match() -> None:
    g = _table(hints=True, takebacks=True)
    for _ in range(3):
        _step(g)
    first = g.to_move
    g.hint_given(first)
    _step(g, 1)
    _step(g)  # the other person moves ...
    g.hint_given(g.to_move)
    _step(g, 2)
    g.undo(g.match.current.movers[-1])  # ... and takes that move back before anyone else moves
    for _ in range(4):
        _step(g)
    text = g.record_text()
    lines = text.splitlines()
    assert "table hints=on takebacks=on" in lines
    assert f"hint {first}" in lines and any(ln.startswith("undo ") for ln in lines)
    record = read_record(text)
    assert_same_game(record, g.match)  # the moves taken back are not part of the game
    assert record.table == Settings(hints=True, takebacks=True)
    assert list(record.notes) == g.notes
    assert [n.kind for n in record.notes] == ["hint", "hint", "undo"]
    undo = record.notes[-1]
    assert len(undo.taken) == 1 and undo.moves == len(record.rounds[0].moves) - 4
    assert write_record(record) == text
    # The moves an undo took back are in the record, right before it, in the order played.
    at = lines.index(f"undo {undo.seat} 1")
    assert lines[at - 1] == f"move {undo.taken[0][0]} {undo.taken[0][1]}"
    resumed = GameSession(match_from_record(record), ["human", "human"], record.names,
                          settings=record.table, notes=record.notes)
    assert resumed.record_text() == text


def test_a_resignation_in_a_two_sided_game_names_the_other_side_as_winner() -> None:
    g = _table()
    for _ in range(5):
        _step(g)
    loser = g.to_move
    assert g.resign(loser, "medium") is True
    assert g.game_over and g.winner == 1 - loser and g.resigned == loser
    with pytest.raises(IllegalMove, match="the game is over"):
        _step(g)
    text = g.record_text()
    assert text.endswith(f"resign {loser}\nwinner {1 - loser}\nend\n")
    record = read_record(text)
    assert record.is_over and record.winner == 1 - loser and record.resigned == loser
    assert write_record(record) == text
    assert_same_game_moves(record, g.match)


def assert_same_game_moves(record: Record, match: Match) -> None:
    """The same rounds and moves (a resigned game's winner is not the engine's)."""
    assert [list(r.moves) for r in record.rounds] == [r.moves for r in match.rounds]
    assert record.position == match.position


def test_a_resignation_in_partnerships_hands_the_game_to_the_other_pair() -> None:
    g = _table("classic", 4, people=2)
    seat = 1 if g.players[1] == HUMAN else 0
    g.resign(seat, "medium")
    assert g.winner == 1 - seat % 2
    assert read_record(g.record_text()).winner == 1 - seat % 2


def test_in_three_sides_a_computer_takes_the_resigned_seat_then_the_last_person_ends_it(
) -> None:
    g = _table("classic", 3, people=2)
    for _ in range(2):
        _step(g)
    assert g.resign(0, "easy") is False  # P1 is still at the table: the game goes on
    # Compared as a pair: an `assert not g.game_over` would let mypy take game_over
    # for False through the moves below.
    assert (g.players, g.game_over) == (("easy", HUMAN, "beginner"), False)
    for _ in range(3):
        _step(g)
    assert g.resign(1, "easy") is True  # nobody is left to play for
    assert g.game_over and g.winner is None and g.resigned == 1
    text = g.record_text()
    lines = text.splitlines()
    assert lines[lines.index("resign 0") + 1] == "takeover 0 easy"
    assert text.endswith("resign 1\nend\n")  # no winner line
    record = read_record(text)
    assert record.is_over and record.winner is None and record.players == (
        "easy", "human", "beginner")
    assert write_record(record) == text


def test_notes_made_after_a_round_ended_follow_its_result() -> None:
    g = _table("classic", 3, people=2)
    while not g.round_over:
        _step(g)
    g.resign(0, "easy")
    lines = g.record_text().splitlines()
    at = lines.index("resign 0")
    assert lines[at - 1].startswith("result ") and lines[at + 1] == "takeover 0 easy"
    record = read_record("\n".join(lines))
    assert record.notes[0].moves == len(record.rounds[0].moves)


def test_a_takeover_of_an_absent_player_on_their_turn_round_trips() -> None:
    g = _table("classic", 3)
    _step(g)
    away = g.to_move
    with pytest.raises(IllegalMove, match=r"not .*turn"):
        g.take_over((away + 1) % 3, "medium")
    g.take_over(away, "medium")
    assert g.players[away] == "medium"
    with pytest.raises(IllegalMove, match="a computer plays for"):
        g.take_over(away, "medium")
    record = read_record(g.record_text())
    assert record.notes[-1] == Note("takeover", away, 1, 1, level="medium")


def _lines_with(text: str, at: str, new: list[str], *, before: bool = True) -> str:
    """``text`` with ``new`` lines put before (or after) the first line starting ``at``."""
    lines = lines_of(text)
    k = next(i for i, ln in enumerate(lines) if ln.startswith(at)) + (0 if before else 1)
    return "\n".join([*lines[:k], *new, *lines[k:]])


def test_damage_table_and_note_lines(good: str) -> None:
    for bad in ("table hints=on", "table hints=yes takebacks=on",
                "table hints=on takebacks=off hints=off", "table sound=on takebacks=on"):
        damaged(_lines_with(good, "round", [bad]), 6, "'table' takes hints=on|off")
    first = line_no(good, "move")
    to_move, other = int(lines_of(good)[first - 1].split()[1]), None
    other = 1 - to_move
    damaged(_lines_with(good, "move", [f"hint {other}"]), first,
            f"seat {other} asked for a hint, but seat {to_move} is to move")
    damaged(_lines_with(good, "move", ["hint"]), first, "expected 'hint SEAT'")
    damaged(_lines_with(good, "move", ["hint 7"]), first, "a seat from 0 to 1, not '7'")
    damaged(_lines_with(good, "move", ["undo 0 x"]), first, "a number of moves")
    damaged(_lines_with(good, "move", ["undo 0 0"]), first, "a number of moves")
    damaged(_lines_with(good, "move", [f"undo {to_move} 1"]), first,
            "takes back 1 moves, but round 1 has 0")
    second = first + 1  # after one move by to_move: the other seat cannot take it back
    damaged(_lines_with(good, "move", [f"undo {other} 1"], before=False)
            .replace("\nmove", "\nmove", 1), second, f"take back seat {to_move}'s move first")
    damaged(_lines_with(good, "move", ["takeover 0 human"]), first, "names a computer level")
    damaged(_lines_with(good, "move", [f"takeover {other} easy"]), first,
            "was taken over while it was not its turn")
    done = _lines_with(good, "move", [f"takeover {to_move} easy"])
    damaged(_lines_with(done, "move", [f"hint {to_move}"], before=False), first + 2,
            f"seat {to_move} is played by a computer since line {first}")
    # The players line must agree with a takeover.
    with_players = _lines_with(done, "round", ["players human human"])
    damaged(with_players, first + 1, "taken over by 'easy'")


def test_damage_hints_and_takebacks_used_where_the_table_has_them_off(good: str) -> None:
    off = _lines_with(good, "round", ["table hints=off takebacks=off"])
    first = line_no(off, "move")
    to_move = int(lines_of(off)[first - 1].split()[1])
    damaged(_lines_with(off, "move", [f"hint {to_move}"]), first,
            "the table has hints=off \\(line 6\\), yet seat")
    damaged(_lines_with(off, "move", [f"undo {to_move} 1"], before=False), first + 1,
            "the table has takebacks=off")


def test_damage_around_a_resignation(good: str) -> None:
    first = line_no(good, "move")
    ended = _lines_with(good, "move", ["resign 0"])
    damaged(ended, first + 1, "the game ended when seat 0 resigned \\(line "
            f"{first}\\): only 'winner' and 'end' may follow, not 'move'")
    cut = "\n".join(lines_of(ended)[:first]) + "\nwinner 0\nend\n"
    damaged(cut, first + 1, "seat 1 won the game, not 0")
    assert read_record(cut.replace("winner 0", "winner 1")).winner == 1
    damaged("\n".join(lines_of(ended)[:first]) + "\nend\n", first + 1, "expected 'winner'")
    # A round whose last card is played: its result line comes before any note.
    last_move = line_no(good, "result") - 2  # the comment line is before the result
    damaged(_lines_with(good, "# ", ["resign 0"]), last_move + 1,
            "round 1 is over: its 'result' line comes before 'resign'")
    damaged(_lines_with(good, "result", ["hint 0"], before=False), last_move + 3,
            "round 1 is over: a hint is asked for on one's turn")
    damaged(_lines_with(good, "winner", ["resign 0"]), line_no(good, "winner"),
            "the game is over \\(seat 1 won round 3\\): no 'resign' can follow it")


def test_damage_last_person_resigning_leaves_no_winner() -> None:
    g = _table("classic", 3, people=1)
    _step(g)
    g.resign(0, "easy")
    text = g.record_text()
    n = len(lines_of(text.rstrip("\n")))
    damaged(text.replace("\nend\n", "\nwinner 1\nend\n"), n,
            "nobody won: the game ended when seat 0, the last person at the table")


def test_an_undo_is_checked_against_the_moves_it_takes_back() -> None:
    g = _table("classic", 3)
    deal = g.match.position.deal
    while g.match.position.deal == deal:
        _step(g)
    text = g.record_text()
    n = len(lines_of(text.rstrip("\n")))
    mover = g.match.current.movers[-1]
    # Taking back the last move of the first deal from the second deal reaches across.
    bad = text.replace("\nend\n", f"\nundo {mover} 1\nend\n")
    damaged(bad, n, "reaches back into deal 1: moves are taken back within the current deal")
    # Within a deal: a take-back must start with the seat's own move, and be its last.
    for _ in range(4):
        _step(g)
    text = g.record_text()
    movers = g.match.current.movers
    n = len(lines_of(text.rstrip("\n")))
    damaged(text.replace("\nend\n", f"\nundo {movers[-1]} 4\nend\n"), n,
            "takes back more than seat")


def test_transcript_refuses_notes_that_do_not_fit_the_moves() -> None:
    g = _table()
    _step(g)
    moves = list(zip(g.match.current.movers, g.match.current.moves, strict=True))
    with pytest.raises(ValueError, match="after 5 moves of round 1, which had 1 moves"):
        transcript(moves, [Note("hint", 0, 1, 5)])
    with pytest.raises(ValueError, match="round 3, which was not played"):
        write_record(g.match, notes=[Note("hint", 0, 3, 0)])
