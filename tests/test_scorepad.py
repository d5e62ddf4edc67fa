"""The score pad (issue 6): what the table counted gives exactly the engine's points.

The central property: for finished rounds of the engine, the counts players
would enter (cards, spades, who took each scoring card, sweeps, ...) give the
same items, totals and winner as the engine's own Result, for every preset and
player count. Then: every impossible entry is refused with its reason and the
pad unchanged; corrections rescore what follows; undo; the JSON file round
trips and bad files are refused; and the terminal pad (``casino score``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from casino import Match, Position
from casino.cli.scorepad import score_command
from casino.engine.cards import card_symbol, card_text, parse_cards
from casino.engine.rules import PRESET_NAMES, Rules, player_counts, preset
from casino.engine.scoring import Carry, next_carry, round_items, settle
from casino.tools.scorepad import (
    FORMAT,
    RoundEntry,
    ScorePad,
    ScorePadError,
    _card_counts_for_most,
    _check_cards_for_sweeps_and_mulles,
    _check_copies_taken,
    _check_counts_entered,
    _check_named_spades_fit,
    _check_piles_within_counts,
    _check_scoring_takers,
    _check_seats,
    _check_spades_within_cards,
    _check_sweep_limit,
    _deal,
    _deal_cards,
    _deal_spades,
    _due,
    _every_card_taken,
    _free_cards,
    _refuse_counts_and_most,
    _refuse_unasked,
    _refuse_unscored_spades,
    _require_answers,
    _scoring_card_piles,
    _Sides,
    _spade_counts,
    _spade_counts_for_most,
    _spades_in,
    apply_json,
    fields,
    representative_piles,
    scoring_cards,
    setup_choices,
)

CONFIGS: list[tuple[str, int]] = [
    (name, n) for name in PRESET_NAMES for n in player_counts(name)
]
CONFIG_IDS = [f"{name}-{n}p" for name, n in CONFIGS]
NAMES = ("Ann", "Bob", "Cid", "Dee")


def side_piles(rules: Rules, piles: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {t: [] for t in rules.teams}
    for seat, pile in enumerate(piles):
        out[rules.team_of(seat)].extend(pile)
    return out


def entry_from_piles(rules: Rules, piles: Sequence[Sequence[int]], sweeps: Sequence[int],
                     mulles: Sequence[int], last_capture: int | None,
                     most: bool = False) -> RoundEntry:
    """What players count at the table from the real piles: per side counts (or only
    who had most), who took each scoring card, the sweeps, mulles and last capture."""
    by_side = side_piles(rules, piles)
    sides = rules.teams
    cards = [len(by_side[t]) for t in sides]
    spades = [sum(1 for c in by_side[t] if c & 3 == 0) for t in sides]
    named = set(scoring_cards(rules))
    takers: dict[str, list[int]] = {}
    for t in sides:
        for c in by_side[t]:
            if c in named:
                takers.setdefault(card_text(c), []).append(t)
    kw: dict[str, Any] = {}
    keys = {f.key: f for f in fields(rules)}
    if "cards" in keys:
        if most:
            kw["most_cards"] = [t for t in sides if cards[t] == max(cards)]
        else:
            kw["cards"] = cards
    if "spades" in keys:
        if most and keys["spades"].kind == "counts-or-most":
            kw["most_spades"] = [t for t in sides if spades[t] == max(spades)]
        else:
            kw["spades"] = spades
    if "other_spades" in keys:
        kw["other_spades"] = [sum(1 for c in by_side[t] if c & 3 == 0 and c not in (0, 4))
                              for t in sides]
    if "sweeps" in keys:
        kw["sweeps"] = list(sweeps)
    if "mulles" in keys:
        kw["mulles"] = list(mulles)
    if "last_capture" in keys:
        kw["last_capture"] = last_capture
    return RoundEntry.make(takers=takers, **kw)


def entry_of(pos: Position, most: bool = False) -> RoundEntry:
    return entry_from_piles(pos.rules, pos.piles, pos.sweeps, pos.mulles, pos.last_capture,
                            most)


def play_round(match: Match, rng: random.Random) -> Position:
    while match.position.result is None:
        match.play(rng.choice(match.legal_moves()))
    return match.position


def check_game(name: str, players: int, seed: int, max_rounds: int = 30) -> None:
    rng = random.Random(seed)
    match = Match(name, seed=seed, players=players)
    names = NAMES[:players]
    pads = [ScorePad(match.rules, names), ScorePad(match.rules, names)]
    for _ in range(max_rounds):
        pos = play_round(match, rng)
        assert pos.result is not None
        for k, most in enumerate((False, True)):
            pads[k] = pads[k].add_round(entry_of(pos, most))
            got = pads[k].results[-1]
            assert got.items == pos.result.items, (name, players, seed, most)
            assert got.scores == pos.result.scores
            assert got.winner == pos.result.winner
            assert got.carry_out == pos.next_carry()
        if match.is_over:
            break
        match.next_round()
    for pad in pads:
        assert pad.winner == match.winner
        assert pad.totals == match.scores


# ----------------------------------------------------------------------
# The property: the pad scores like the engine


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_entries_from_engine_rounds_score_exactly_as_the_engine(name: str,
                                                                players: int) -> None:
    for seed in range(2):
        check_game(name, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_entries_from_engine_rounds_many_seeds(name: str, players: int) -> None:
    for seed in range(2, 22):
        check_game(name, players, seed)


@st.composite
def random_round(draw: st.DrawFn) -> tuple[Rules, list[list[int]], list[int], list[int],
                                           int | None]:
    """Any way a round can end: the whole deck split among the seats (ties included),
    sweeps and mulles by any seat."""
    name, players = draw(st.sampled_from(CONFIGS))
    rules = preset(name, players=players)
    deck = list(range(52)) * rules.decks
    order = draw(st.permutations(deck))
    cuts = sorted(draw(st.lists(st.integers(0, len(deck)), min_size=players - 1,
                                max_size=players - 1)))
    bounds = [0, *cuts, len(deck)]
    piles = [list(order[bounds[i]:bounds[i + 1]]) for i in range(players)]
    seat = st.integers(0, players - 1)
    sweeps = draw(st.lists(seat, max_size=4)) if rules.sweep_points else []
    mulles = draw(st.lists(seat, max_size=3)) if rules.mulle_points else []
    last = draw(seat) if rules.last_capture_points else None
    if rules.sweep_limit is not None:
        sweeps = sweeps if draw(st.booleans()) else []
    return rules, piles, sweeps, mulles, last


@settings(max_examples=300, deadline=None)
@given(random_round(), st.booleans(), st.integers(0, 30), st.integers(0, 1))
def test_any_split_of_the_deck_scores_as_the_scoring_code(
        case: tuple[Rules, list[list[int]], list[int], list[int], int | None], most: bool,
        start: int, carried: int) -> None:
    rules, piles, sweeps, mulles, last = case
    # Sweeps and mulles need cards: a seat that made k of them took at least 2k.
    by_side = side_piles(rules, piles)
    for s in list(sweeps) + list(mulles):
        if len(by_side[rules.team_of(s)]) < 2 * (len(sweeps) + len(mulles)):
            sweeps, mulles = [], []
            break
    carry = Carry(cards=carried) if rules.scoring == "kasino" else Carry()
    scores = tuple([min(start, 10)] * rules.players)
    entry = entry_from_piles(rules, piles, sweeps, mulles, last, most)
    names = NAMES[:rules.players]
    rep = representative_piles(rules, names, entry, scores)
    assert (round_items(rules, rep, sweeps, mulles, last, carry)
            == round_items(rules, piles, sweeps, mulles, last, carry))
    assert next_carry(rules, rep, carry) == next_carry(rules, piles, carry)
    items = round_items(rules, piles, sweeps, mulles, last, carry)
    assert (settle(rules, round_items(rules, rep, sweeps, mulles, last, carry), scores, 2)
            == settle(rules, items, scores, 2))


def test_worked_example_of_rules_2_9() -> None:
    """30 cards, 6 spades, Td, three Aces, 1 sweep: 9 points; 22 cards, 7 spades, 2s,
    one Ace, 2 sweeps: 5 points."""
    pad = ScorePad(preset("casino"), ("Ann", "Bob")).add_round(RoundEntry.make(
        cards=[30, 22], spades=[6, 7],
        takers={"Td": 0, "As": 0, "Ac": 0, "Ah": 0, "2s": 1, "Ad": 1}, sweeps=[1, 0, 1]))
    assert pad.totals == (9, 5)
    r = pad.results[0]
    assert [i.item for i in r.items] == ["cards", "spades", "Td", "2s", "As", "Ac", "Ah",
                                         "Ad", "sweep", "sweep", "sweep"]
    assert [ln.totals for ln in r.lines][:3] == [(3, 0), (3, 1), (5, 1)]
    assert r.lines[-1].totals == (9, 5)


def test_counting_order_decides_who_reached_21_first() -> None:
    """Both pass 21 in round 3; Ann gets there first in counting order and wins, though
    Bob ends the round with more."""
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    everything = {"Td": 0, "2s": 0, "As": 0, "Ac": 0, "Ah": 0, "Ad": 0}
    pad = pad.add_round(RoundEntry.make(cards=[40, 12], spades=[10, 3], takers=everything,
                                        sweeps=[0] * 5))
    pad = pad.add_round(RoundEntry.make(cards=[12, 40], spades=[3, 10],
                                        takers={k: 1 for k in everything}, sweeps=[1] * 5))
    assert pad.totals == (16, 16)
    pad = pad.add_round(RoundEntry.make(
        cards=[30, 22], spades=[3, 10],
        takers={"Td": 1, "2s": 0, "As": 0, "Ac": 1, "Ah": 1, "Ad": 1}, sweeps=[1, 1]))
    assert pad.totals == (21, 24)
    assert pad.winner == 0
    r = pad.results[-1]
    first = next(ln for ln in r.lines if ln.totals[0] >= 21)
    assert first.item.item == "As"


def test_most_cards_only_and_ties() -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    takers = {"Td": 0, "2s": 1, "As": 0, "Ac": 0, "Ah": 0, "Ad": 1}
    tied = pad.add_round(RoundEntry.make(most_cards=[0, 1], most_spades=0, takers=takers))
    assert tied.results[0].items[0].item == "spades"  # 26-26: no card points
    with pytest.raises(ScorePadError, match="cannot tie for the most spades"):
        pad.add_round(RoundEntry.make(most_cards=0, most_spades=[0, 1], takers=takers))


# ----------------------------------------------------------------------
# Ruleset by ruleset


def test_kasino_tied_cards_carry_to_the_next_round() -> None:
    rules = preset("kasino", players=3)
    pad = ScorePad(rules, ("Ann", "Bob", "Cid"))
    takers = {"As": 0, "Ac": 1, "Ah": 2, "Ad": 0, "Td": 1, "2s": 2}
    pad = pad.add_round(RoundEntry.make(cards=[20, 20, 12], spades=[6, 5, 2],
                                        takers=takers))
    assert pad.carry == Carry(cards=1)
    assert "cards" not in [i.item for i in pad.results[0].items]
    pad = pad.add_round(RoundEntry.make(cards=[10, 30, 12], spades=[4, 4, 5],
                                        takers=takers))
    cards = next(i for i in pad.results[1].items if i.item == "cards")
    assert (cards.seat, cards.points) == (1, 2)
    assert pad.results[1].carry_in == Carry(cards=1)
    # Two of three tied for spades: one point each.
    pad = pad.add_round(RoundEntry.make(cards=[10, 30, 12], spades=[5, 5, 3],
                                        takers=takers))
    assert [(i.seat, i.points) for i in pad.results[2].items if i.item == "spades"] == [
        (0, 1), (1, 1)]


def test_kasino_sweeps_refused_once_someone_passed_10() -> None:
    rules = preset("kasino")
    pad = ScorePad(rules, ("Ann", "Bob"))
    takers = {"As": 0, "Ac": 0, "Ah": 0, "Ad": 0, "Td": 0, "2s": 0}
    pad = pad.add_round(RoundEntry.make(cards=[40, 12], spades=[10, 3], takers=takers,
                                        sweeps=[0, 0, 0]))
    assert pad.totals[0] == 1 + 2 + 4 + 2 + 1 + 3
    entry = RoundEntry.make(cards=[40, 12], spades=[10, 3], takers=takers, sweeps=[1])
    with pytest.raises(ScorePadError, match="no sweeps count this round: Ann had more "
                                            "than 10") as err:
        pad.add_round(entry)
    assert err.value.field == "sweeps"


def test_kasino_winner_is_the_higher_total_past_16() -> None:
    rules = preset("kasino")
    pad = ScorePad(rules, ("Ann", "Bob"))
    all_ann = {"As": 0, "Ac": 0, "Ah": 0, "Ad": 0, "Td": 0, "2s": 0}
    pad = pad.add_round(RoundEntry.make(cards=[40, 12], spades=[10, 3], takers=all_ann,
                                        sweeps=[0]))
    assert pad.totals == (11, 0) and pad.winner is None
    pad = pad.add_round(RoundEntry.make(cards=[40, 12], spades=[10, 3], takers=all_ann))
    assert pad.winner == 0 and pad.totals == (21, 0)


def test_krypkasino_penalties_double_sweeps_and_the_two_game_match() -> None:
    rules = preset("krypkasino")
    pad = ScorePad(rules, ("Ann", "Bob"))
    takers = {"Td": [0, 1], "2s": [0, 0], "As": [1, 1], "Ac": [0, 1], "Ah": [0, 0],
              "Ad": [1, 1]}
    entry = RoundEntry.make(other_spades=[12, 10], takers=takers, sweeps=[0, 1, 1])
    pad = pad.add_round(entry)
    # Ann: Td 3 + 2s 2+2 + Ac 1 + Ah 1+1 + 12 spades = 22; Bob: 3 + 2+2 + 1 + 1+1 + 10 = 20.
    # Sweeps: Ann +5 -10, Bob -5 +10.
    assert pad.totals == (22 + 5 - 10, 20 - 5 + 10)
    assert sum(pad.totals) == 42
    assert pad.winner is None  # one game of two
    same = pad.add_round(RoundEntry.make(other_spades=[10, 12], takers=takers,
                                         sweeps=[1, 0, 0]))
    assert same.totals == (42, 42) and same.winner is None  # a tie: two more games
    more = same.add_round(entry)
    assert more.winner is None
    done = more.add_round(entry)
    assert done.winner == 0


def test_mulle_two_decks_mulles_and_last_capture() -> None:
    rules = preset("mulle")
    pad = ScorePad(rules, ("Ann", "Bob"))
    takers = {"Td": [0, 0], "2s": [1, 1], "As": [0, 1], "Ac": [0, 1], "Ah": [0, 1],
              "Ad": [0, 1]}
    pad = pad.add_round(RoundEntry.make(spades=[14, 12], takers=takers, sweeps=[1],
                                        mulles=[0, 0, 1], last_capture=1))
    items = [(i.item, i.seat, i.points) for i in pad.results[0].items]
    assert items[0] == ("spades", 0, 1)
    assert items[-4:] == [("mulle", 0, 5), ("mulle", 0, 5), ("mulle", 1, 5), ("last", 1, 1)]
    with pytest.raises(ScorePadError, match="last capture") as err:
        pad.add_round(RoundEntry.make(spades=[14, 12], takers=takers))
    assert err.value.field == "last_capture"


def test_spade_casino_every_spade_and_the_jack() -> None:
    rules = preset("spade")
    pad = ScorePad(rules, ("Ann", "Bob"))
    takers = {"Js": 0, "Td": 1, "2s": 0, "As": 0, "Ac": 1, "Ah": 1, "Ad": 1}
    pad = pad.add_round(RoundEntry.make(cards=[27, 25], spades=[9, 4], takers=takers))
    assert pad.totals == (3 + 9 + 1 + 1 + 1, 4 + 2 + 3)
    with pytest.raises(ScorePadError, match="every spade counts"):
        pad.add_round(RoundEntry.make(cards=[27, 25], most_spades=0, takers=takers))


def test_classic_partnerships_count_by_side() -> None:
    rules = preset("classic", players=4)
    pad = ScorePad(rules, NAMES)
    assert pad.side_name(0) == "Ann & Cid" and pad.side_name(1) == "Bob & Dee"
    takers = {"Td": 0, "2s": 1, "As": 0, "Ac": 0, "Ah": 1, "Ad": 1}
    pad = pad.add_round(RoundEntry.make(cards=[28, 24], spades=[7, 6], takers=takers,
                                        sweeps=[2, 3]))  # Cid and Dee sweep
    assert pad.totals == (3 + 1 + 2 + 2 + 1, 1 + 2 + 1) * 2
    with pytest.raises(ScorePadError, match="2 sides"):
        pad.add_round(RoundEntry.make(cards=[13, 13, 13, 13], spades=[7, 6],
                                      takers=takers))


def test_tablic_counting_cards() -> None:
    rules = preset("tablic")
    pad = ScorePad(rules, ("Ann", "Bob"))
    named = [card_text(c) for c in scoring_cards(rules)]
    assert len(named) == 21 and named[-1] == "2c"
    takers = {t: (0 if k % 2 else 1) for k, t in enumerate(named)}
    pad = pad.add_round(RoundEntry.make(cards=[30, 22], takers=takers, sweeps=[0]))
    ann = sum(1 for t, s in takers.items() if s == 0) + (1 if takers["Td"] == 0 else 0)
    bob = sum(1 for t, s in takers.items() if s == 1) + (1 if takers["Td"] == 1 else 0)
    assert pad.totals == (3 + ann + 1, bob)
    with pytest.raises(ScorePadError, match="tablic does not score spades"):
        pad.add_round(RoundEntry.make(cards=[30, 22], spades=[6, 7], takers=takers))


def test_fields_follow_the_preset() -> None:
    keys = {name: [f.key for f in fields(preset(name))] for name in PRESET_NAMES}
    assert keys["casino"] == ["cards", "spades", "takers", "sweeps"]
    assert keys["krypkasino"] == ["other_spades", "takers", "sweeps"]
    assert keys["mulle"] == ["spades", "takers", "sweeps", "mulles", "last_capture"]
    assert keys["tablic"] == ["cards", "takers", "sweeps"]
    spade = {f.key: f for f in fields(preset("spade"))}
    assert spade["spades"].kind == "counts"
    takers = {f.key: f for f in fields(preset("mulle"))}["takers"]
    assert takers.copies == 2 and takers.cards == ("10♦", "2♠", "A♠", "A♣", "A♥", "A♦")
    assert all(f.to_json()["key"] for name in PRESET_NAMES for f in fields(preset(name)))


# ----------------------------------------------------------------------
# Refusals: each with its reason, the pad unchanged

T = {"Td": 0, "2s": 1, "As": 0, "Ac": 0, "Ah": 0, "Ad": 1}

BAD: list[tuple[str, dict[str, Any], str, str]] = [
    ("more cards than the deck", dict(cards=[30, 23], spades=[6, 7], takers=T), "cards",
     "add up to 53, more than the 52"),
    ("fewer cards than the deck", dict(cards=[30, 20], spades=[6, 7], takers=T), "cards",
     "add up to 50, but all 52 are taken"),
    ("a count for a player who does not exist", dict(cards=[30, 12, 10], spades=[6, 7],
                                                     takers=T), "cards",
     "one number for each of the 2 players"),
    ("two holders of the 10♦", dict(cards=[30, 22], spades=[6, 7],
                                    takers={**T, "Td": [0, 1]}), "takers",
     "the 10♦ is given to both Ann and Bob, but there is only one"),
    ("the 10♦ twice for one player", dict(cards=[30, 22], spades=[6, 7],
                                          takers={**T, "Td": [0, 0]}), "takers",
     "entered 2 times for Ann"),
    ("a scoring card nobody took", dict(cards=[30, 22], spades=[6, 7],
                                        takers={k: v for k, v in T.items() if k != "Ad"}),
     "takers", "who took the A♦?"),
    ("a card that scores nothing", dict(cards=[30, 22], spades=[6, 7],
                                        takers={**T, "Kd": 0}), "takers",
     "the K♦ scores nothing by itself"),
    ("a taker who does not exist", dict(cards=[30, 22], spades=[6, 7],
                                        takers={**T, "Ad": 2}), "takers",
     "there is no player 2"),
    ("14 spades", dict(cards=[30, 22], spades=[14, 0], takers=T), "spades",
     "cannot have 14: there are only 13"),
    ("spades that add up to 14", dict(cards=[30, 22], spades=[7, 7], takers=T), "spades",
     "add up to 14, more than the 13"),
    ("more spades than cards", dict(cards=[47, 5], spades=[7, 6], takers=T), "spades",
     "Bob cannot have 6 spades among 5 cards"),
    ("fewer spades than the spades named", dict(cards=[30, 22], spades=[13, 0], takers=T),
     "spades", "Bob took 2♠, so at least 1 spade, not 0"),
    ("a scoring card but too few cards", dict(cards=[51, 1], spades=[12, 1], takers=T),
     "cards", "Bob captured 1 card, but the scoring cards and spades entered for them "
              "make 2"),
    ("a sweep by a seat that does not exist", dict(cards=[30, 22], spades=[6, 7],
                                                   takers=T, sweeps=[0, 2]), "sweeps",
     "seat 2 does not exist"),
    ("more sweeps than cards allow", dict(cards=[49, 3], spades=[12, 1],
                                          takers={**T, "Ad": 0}, sweeps=[1, 1]), "sweeps",
     "Bob made 2 sweeps but captured only 3 cards"),
    ("counts and most both", dict(cards=[30, 22], most_cards=0, spades=[6, 7], takers=T),
     "cards", "not both"),
    ("nothing about the cards", dict(spades=[6, 7], takers=T), "cards",
     "enter the cards each side captured"),
    ("nothing about the spades", dict(cards=[30, 22], takers=T), "spades",
     "enter the spades"),
    ("an impossible tie", dict(most_cards=0, most_spades=[0, 1], takers=T), "spades",
     "Ann and Bob cannot tie for the most spades"),
    ("a most-cards side that does not exist", dict(most_cards=3, spades=[6, 7], takers=T),
     "cards", "there is no player 3"),
    ("mulles in casino", dict(cards=[30, 22], spades=[6, 7], takers=T, mulles=[0]),
     "mulles", "casino does not score mulles"),
    ("a negative count", dict(cards=[-1, 53], spades=[6, 7], takers=T), "cards",
     "Ann cannot have -1"),
]


@pytest.mark.parametrize(("what", "entry", "field", "reason"), BAD,
                         ids=[b[0] for b in BAD])
def test_bad_entries_are_refused_with_their_reason(what: str, entry: dict[str, Any],
                                                   field: str, reason: str) -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob")).add_round(
        RoundEntry.make(cards=[30, 22], spades=[6, 7], takers=T))
    before = pad.to_json()
    with pytest.raises(ScorePadError) as err:
        pad.add_round(RoundEntry.make(**entry))
    assert reason in str(err.value)
    assert err.value.field == field
    assert pad.to_json() == before
    with pytest.raises(ScorePadError):
        pad.replace_round(0, RoundEntry.make(**entry))
    assert pad.to_json() == before


# ----------------------------------------------------------------------
# Leftovers to nobody (docs/rules.md §2.6, F3): only in a round without a capture


def test_rules_F3_leftovers_to_nobody_with_every_card_counted_asks_the_takers() -> None:
    """``leftovers_no_capture="nobody"`` (docs/rules.md §2.6, F3) leaves the leftovers
    to nobody only when nobody captured: 26 and 26 cards counted, 6 and 7 spades, and
    no takers cannot be scored (the pad used to make piles of 26 and 20 cards, giving
    Ann most cards and most spades), so the pad asks who took the scoring cards."""
    rules = preset("casino", leftovers_no_capture="nobody")
    pad = ScorePad(rules, ("Ann", "Bob"))
    before = pad.to_json()
    with pytest.raises(ScorePadError) as err:
        pad.add_round(RoundEntry.make(cards=[26, 26], spades=[6, 7]))
    assert (str(err.value), err.value.field) == ("who took the 10♦?", "takers")
    assert pad.to_json() == before
    scored = pad.add_round(RoundEntry.make(cards=[26, 26], spades=[6, 7], takers=T))
    assert [(i.item, i.seat) for i in scored.results[0].items][:2] == [("spades", 1),
                                                                       ("Td", 0)]


def nobody(name: str, players: int) -> Rules:
    """The preset with the leftovers of a round without a capture left to nobody (F3)."""
    return preset(name, players=players, leftovers_no_capture="nobody")


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_rules_F3_leftovers_to_nobody_a_round_with_captures_is_counted_in_full(
        name: str, players: int) -> None:
    """Two decks, partnerships, every preset: with the leftovers left to nobody, a round
    in which anyone captured still ends with every card in a pile (the last capturer
    takes the leftovers), so a split of the whole deck scores as the scoring code reads
    it, and the same entry with a scoring card's taker left out is asked for it, never
    scored with that card left to nobody."""
    rules = nobody(name, players)
    names = NAMES[:players]
    rng = random.Random(players)
    deck = list(range(52)) * rules.decks
    rng.shuffle(deck)
    cuts = sorted(rng.sample(range(1, len(deck)), players - 1))
    bounds = [0, *cuts, len(deck)]
    piles = [deck[bounds[i]:bounds[i + 1]] for i in range(players)]
    last = 0 if rules.last_capture_points else None
    for most in (False, True):
        entry = entry_from_piles(rules, piles, [], [], last, most)
        rep = representative_piles(rules, names, entry)
        assert (round_items(rules, rep, [], [], last, Carry())
                == round_items(rules, piles, [], [], last, Carry()))
        dropped = entry.takers[0]
        short = dataclasses.replace(entry, takers=entry.takers[1:])
        with pytest.raises(ScorePadError) as err:
            representative_piles(rules, names, short)
        assert err.value.field == "takers"
        assert str(err.value).startswith(f"who took the {card_symbol(dropped[0])}")


# Mulle scores the last capture, and the pad asks who made it: a round without one
# cannot be entered there, whoever takes its leftovers.
NO_LAST = [(name, n) for name, n in CONFIGS if not preset(name).last_capture_points]


@pytest.mark.parametrize(("name", "players"), NO_LAST,
                         ids=[f"{name}-{n}p" for name, n in NO_LAST])
def test_rules_F3_leftovers_to_nobody_a_round_without_a_capture_scores_empty_piles(
        name: str, players: int) -> None:
    """The one round whose cards go to nobody: nobody captured, every count is 0, no
    taker, sweep or mulle; its piles are empty, as the engine's are. The same entry is
    refused where the dealer takes the leftovers."""
    rules = nobody(name, players)
    names = NAMES[:players]
    counts = (0,) * len(rules.teams)
    keys = {f.key for f in fields(rules)}
    kw: dict[str, Any] = {k: counts for k in ("cards", "spades", "other_spades")
                          if k in keys}
    rep = representative_piles(rules, names, RoundEntry(**kw))
    assert rep == [[] for _ in rules.seats]
    if "cards" in keys:
        tied = RoundEntry(most_cards=rules.teams,
                          **{k: v for k, v in kw.items() if k != "cards"})
        assert representative_piles(rules, names, tied) == rep
    with pytest.raises(ScorePadError, match="count again"):
        representative_piles(preset(name, players=players), names, RoundEntry(**kw))


NOBODY_CAPTURED: list[tuple[str, Rules, dict[str, Any], str, str]] = [
    ("all cards, spades tied by most, takers given: Bob had 12 spades",
     nobody("casino", 2), dict(cards=[26, 26], most_spades=[0, 1], takers=T), "spades",
     "Ann and Bob cannot tie for the most spades"),
    ("all cards but 6 spades: Bob had 10", nobody("casino", 2),
     dict(cards=[26, 26], spades=[3, 3], takers=T), "spades",
     "the spades captured add up to 6, but all 13 are taken"),
    ("cards short of the deck", nobody("casino", 2),
     dict(cards=[20, 20], spades=[6, 7], takers=T), "cards",
     "the cards captured add up to 40, but all 52 are taken"),
    ("cards short of the deck, no takers", nobody("casino", 2),
     dict(cards=[20, 20], spades=[6, 5]), "cards",
     "the cards captured add up to 40, but all 52 are taken"),
    ("one side ahead on cards, no takers", nobody("casino", 2),
     dict(most_cards=[0], spades=[0, 0]), "spades",
     "the spades captured add up to 0, but all 13 are taken"),
    ("partnerships: every card, no takers", nobody("classic", 4),
     dict(cards=[26, 26], spades=[6, 7]), "takers", "who took the 10♦?"),
    ("two decks: every spade, no takers (Ann had 13, Bob 9)", nobody("mulle", 2),
     dict(spades=[13, 13], last_capture=0), "takers", "who took the 10♦ (both copies)?"),
    ("two decks: spades short with a last capture", nobody("mulle", 2),
     dict(spades=[10, 10], last_capture=0), "spades",
     "the spades captured add up to 20, but all 26 are taken"),
    ("Krypkasino: every other spade, no takers", nobody("krypkasino", 2),
     dict(other_spades=[11, 11]), "takers", "who took the 10♦ (both copies)?"),
    ("Krypkasino: a sweep, no takers", nobody("krypkasino", 2),
     dict(other_spades=[0, 0], sweeps=[0]), "other_spades",
     "the spades other than 2♠ and A♠ add up to 0, but all 22 are taken"),
    ("Tablić: every card, one taker missing", nobody("tablic", 2),
     dict(cards=[26, 26], takers={card_text(c): 0 for c in scoring_cards(preset("tablic"))
                                  if card_text(c) != "2c"}), "takers", "who took the 2♣?"),
]


@pytest.mark.parametrize(("what", "rules", "entry", "field", "reason"), NOBODY_CAPTURED,
                         ids=[b[0] for b in NOBODY_CAPTURED])
def test_rules_F3_leftovers_to_nobody_an_entry_with_captures_is_checked_as_all_taken(
        what: str, rules: Rules, entry: dict[str, Any], field: str, reason: str) -> None:
    """Entries that show a capture but not every card taken, which the pad used to turn
    into piles scoring otherwise than counted (noted in ``what``), or scoring cards left
    to nobody although a side captured: each is refused with its reason."""
    pad = ScorePad(rules, NAMES[:rules.players])
    with pytest.raises(ScorePadError) as err:
        pad.add_round(RoundEntry.make(**entry))
    assert reason in str(err.value)
    assert err.value.field == field


def test_rules_F3_every_card_is_taken_unless_the_entry_shows_no_capture() -> None:
    assert _every_card_taken(preset("casino"), RoundEntry())
    three = nobody("classic", 3)
    assert not _every_card_taken(three, RoundEntry())
    assert not _every_card_taken(three, RoundEntry(cards=(0, 0, 0), spades=(0, 0, 0)))
    assert not _every_card_taken(three, RoundEntry(most_cards=(0, 1, 2),
                                                   most_spades=(2, 1, 0)))
    for shown in (RoundEntry(cards=(0, 1, 0)), RoundEntry(spades=(0, 0, 1)),
                  RoundEntry(most_cards=(0, 1)), RoundEntry(most_spades=(2,)),
                  RoundEntry.make(takers={"Td": 2}), RoundEntry(sweeps=(1,)),
                  RoundEntry(mulles=(0,)), RoundEntry(last_capture=0)):
        assert _every_card_taken(three, shown), shown
    kryp = nobody("krypkasino", 2)
    assert not _every_card_taken(kryp, RoundEntry(other_spades=(0, 0)))
    assert _every_card_taken(kryp, RoundEntry(other_spades=(0, 3)))


def test_bad_set_ups() -> None:
    with pytest.raises(ScorePadError, match="give 2 names, not 3"):
        ScorePad(preset("casino"), ("Ann", "Bob", "Cid"))
    with pytest.raises(ScorePadError, match="same name"):
        ScorePad(preset("casino"), ("Ann", "ann"))
    with pytest.raises(ScorePadError, match="every player needs a name"):
        ScorePad(preset("casino"), ("Ann", " "))
    with pytest.raises(ScorePadError, match="casino is a game for 2 players"):
        ScorePad.new("casino", ["Ann", "Bob", "Cid"])
    pad = ScorePad.new("classic", NAMES)
    assert pad.rules.partnerships


def test_no_round_after_the_game_is_over() -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    win = RoundEntry.make(cards=[40, 12], spades=[10, 3],
                          takers={"Td": 0, "2s": 0, "As": 0, "Ac": 0, "Ah": 0, "Ad": 0},
                          sweeps=[0] * 10)
    pad = pad.add_round(win)
    assert pad.winner == 0
    with pytest.raises(ScorePadError, match="the game is over: Ann won"):
        pad.add_round(win)


# ----------------------------------------------------------------------
# The reconstruction step by step: what each part of representative_piles decides


def refusal(call: Any, *args: Any) -> tuple[str, str | None] | None:
    """The message and field a check refuses with, or None when it lets the entry by."""
    try:
        call(*args)
    except ScorePadError as exc:
        return str(exc), exc.field
    return None


def test_a_missing_answer_is_due_in_a_whole_entry_or_once_answered() -> None:
    assert _due("cards", None)
    assert _due("cards", {"cards", "spades"})
    assert not _due("spades", {"cards"})


def test_spades_in_a_form_the_ruleset_does_not_score_are_refused() -> None:
    most = RoundEntry(most_spades=(0,))
    counts = RoundEntry(spades=(6, 7))
    assert refusal(_refuse_unscored_spades, preset("tablic"), counts) == (
        "tablic does not score spades", "spades")
    assert refusal(_refuse_unscored_spades, preset("krypkasino"), most) == (
        "krypkasino does not score most spades: give each player's spades other than "
        "2♠ and A♠ instead", "spades")
    assert refusal(_refuse_unscored_spades, preset("spade"), most) == (
        "in spade every spade counts: give the spades each player took, not just who "
        "had most", "spades")
    assert refusal(_refuse_unscored_spades, preset("spade"), counts) is None
    assert refusal(_refuse_unscored_spades, preset("casino"), most) is None
    assert refusal(_refuse_unscored_spades, preset("tablic"), RoundEntry()) is None


def test_fields_the_ruleset_does_not_score_are_refused_not_dropped() -> None:
    casino = preset("casino")
    asked = {f.key for f in fields(casino)}
    assert refusal(_refuse_unasked, casino, RoundEntry(mulles=(0,)), asked) == (
        "casino does not score mulles", "mulles")
    assert refusal(_refuse_unasked, casino, RoundEntry(last_capture=1), asked) == (
        "casino does not score the last capture", "last_capture")
    assert refusal(_refuse_unasked, casino, RoundEntry(other_spades=(3, 4)), asked) == (
        "casino does not score other spades", "other_spades")
    assert refusal(_refuse_unasked, casino, RoundEntry(sweeps=(0,)), asked) is None
    quiet = preset("casino", sweep_points=0)
    assert refusal(_refuse_unasked, quiet, RoundEntry(sweeps=(0,)),
                   {f.key for f in fields(quiet)}) == ("casino does not score sweeps",
                                                       "sweeps")
    assert refusal(_refuse_unasked, quiet, RoundEntry(), {f.key for f in fields(quiet)}) is None
    mulle = preset("mulle")
    mulle_asked = {f.key for f in fields(mulle)}
    assert refusal(_refuse_unasked, mulle, RoundEntry(most_cards=(0,)), mulle_asked) == (
        "mulle does not score most cards", "cards")
    assert refusal(_refuse_unasked, mulle, RoundEntry(mulles=(0,), last_capture=1),
                   mulle_asked) is None


def test_counts_and_who_had_most_are_not_both_given() -> None:
    assert refusal(_refuse_counts_and_most, RoundEntry(cards=(30, 22), most_cards=(0,))) == (
        "give the cards each side took or who had the most, not both", "cards")
    assert refusal(_refuse_counts_and_most, RoundEntry(spades=(6, 7), most_spades=(1,))) == (
        "give the spades each side took or who had the most, not both", "spades")
    assert refusal(_refuse_counts_and_most,
                   RoundEntry(cards=(30, 22), most_spades=(1,))) is None


def test_each_count_the_ruleset_scores_is_required_once_due() -> None:
    casino = preset("casino")
    asked = {f.key for f in fields(casino)}
    spades_only = RoundEntry(spades=(6, 7))
    assert refusal(_require_answers, casino, spades_only, asked, None) == (
        "enter the cards each side captured, or who had the most", "cards")
    assert refusal(_require_answers, casino, spades_only, asked, {"spades"}) is None
    assert refusal(_require_answers, casino, RoundEntry(most_cards=(0,)), asked, None) == (
        "enter the spades each side captured, or who had the most", "spades")
    spade = preset("spade")
    assert refusal(_require_answers, spade, RoundEntry(cards=(30, 22)),
                   {f.key for f in fields(spade)}, None) == (
        "enter the spades each side captured", "spades")
    kryp = preset("krypkasino")
    kryp_asked = {f.key for f in fields(kryp)}
    assert refusal(_require_answers, kryp, RoundEntry(), kryp_asked, None) == (
        "enter each player's spades other than 2♠ and A♠", "other_spades")
    assert refusal(_require_answers, kryp, RoundEntry(), kryp_asked, {"takers"}) is None
    mulle = preset("mulle")
    mulle_asked = {f.key for f in fields(mulle)}
    assert refusal(_require_answers, mulle, RoundEntry(spades=(13, 13)), mulle_asked,
                   None) == ("enter who made the last capture", "last_capture")
    assert refusal(_require_answers, mulle, RoundEntry(most_spades=(0,), last_capture=0),
                   mulle_asked, None) is None


def test_each_count_is_checked_on_its_own_cards_first() -> None:
    casino = _Sides(preset("casino"), ("Ann", "Bob"))
    assert refusal(_check_counts_entered, casino,
                   RoundEntry(cards=(30, 23), spades=(14, 0)), True) == (
        "the cards captured add up to 53, more than the 52 there are in casino", "cards")
    assert refusal(_check_counts_entered, casino,
                   RoundEntry(cards=(30, 22), spades=(14, 0)), True) == (
        "the spades captured: Ann cannot have 14: there are only 13 in casino", "spades")
    assert refusal(_check_counts_entered, casino, RoundEntry(most_cards=(0, 0)), True) == (
        "most cards: a side is named twice", "cards")
    assert refusal(_check_counts_entered, casino, RoundEntry(most_spades=(2,)), True) == (
        "most spades: there is no player 2 (the players are 0, 1)", "spades")
    assert refusal(_check_counts_entered, casino, RoundEntry(cards=(30, 20)), True) == (
        "the cards captured add up to 50, but all 52 are taken by the end of a round of "
        "casino: count again", "cards")
    assert refusal(_check_counts_entered, casino, RoundEntry(cards=(30, 20)), False) is None
    kryp = _Sides(preset("krypkasino"), ("Ann", "Bob"))
    assert refusal(_check_counts_entered, kryp, RoundEntry(other_spades=(12, 11)), True) == (
        "the spades other than 2♠ and A♠ add up to 23, more than the 22 there are in "
        "krypkasino", "other_spades")
    assert refusal(_check_counts_entered, kryp, RoundEntry(other_spades=(12, 10)),
                   True) is None


def test_a_side_cannot_have_more_spades_than_cards() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    assert refusal(_check_spades_within_cards, sides,
                   RoundEntry(cards=(47, 5), spades=(7, 6))) == (
        "Bob cannot have 6 spades among 5 cards", "spades")
    assert refusal(_check_spades_within_cards, sides,
                   RoundEntry(cards=(47, 5), spades=(8, 5))) is None
    assert refusal(_check_spades_within_cards, sides,
                   RoundEntry(most_cards=(0,), spades=(7, 6))) is None


def test_takers_are_given_for_scoring_cards_and_real_sides_only() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    assert refusal(_check_scoring_takers, sides, RoundEntry.make(takers={"Kd": 0})) == (
        "the K♦ scores nothing by itself in casino; the scoring cards are "
        "10♦ 2♠ A♠ A♣ A♥ A♦", "takers")
    assert refusal(_check_scoring_takers, sides, RoundEntry.make(takers={"Ad": 2})) == (
        "the A♦: there is no player 2 (the players are 0, 1)", "takers")
    assert refusal(_check_scoring_takers, sides, RoundEntry.make(takers=T)) is None
    teams = _Sides(preset("classic", players=4), NAMES)
    assert refusal(_check_scoring_takers, teams, RoundEntry.make(takers={"Ad": 3})) == (
        "the A♦: there is no side 3 (the sides are 0, 1)", "takers")


def test_each_copy_of_a_scoring_card_has_exactly_one_taker() -> None:
    casino = _Sides(preset("casino"), ("Ann", "Bob"))

    def copies(sides: _Sides, takers: dict[str, Any], exact: bool = True,
               answered: set[str] | None = None) -> tuple[str, str | None] | None:
        return refusal(_check_copies_taken, sides, RoundEntry.make(takers=takers), exact,
                       answered)

    assert copies(casino, {**T, "Td": [0, 0]}) == (
        "the 10♦ is entered 2 times for Ann, but there is only one", "takers")
    assert copies(casino, {**T, "Td": [0, 1]}) == (
        "the 10♦ is given to both Ann and Bob, but there is only one", "takers")
    assert copies(casino, {k: v for k, v in T.items() if k != "Ad"}) == (
        "who took the A♦?", "takers")
    assert copies(casino, {}, exact=False) is None
    assert copies(casino, {}, answered={"cards"}) is None
    assert copies(casino, T) is None
    mulle = _Sides(preset("mulle"), ("Ann", "Bob"))
    both = {c: [0, 1] for c in ("Td", "2s", "As", "Ac", "Ah", "Ad")}
    assert copies(mulle, {**both, "Td": [0, 1, 1]}) == (
        "the 10♦ is given to Ann and Bob and Bob, but there are only 2", "takers")
    assert copies(mulle, {k: v for k, v in both.items() if k != "Td"}) == (
        "who took the 10♦ (both copies)?", "takers")
    assert copies(mulle, {**both, "Td": [1]}) == (
        "who took the 10♦ (the other copy)?", "takers")
    assert copies(mulle, both) is None


def test_sweeps_mulles_and_the_last_capture_are_made_by_seats_at_the_table() -> None:
    mulle = _Sides(preset("mulle", players=3), NAMES[:3])
    assert refusal(_check_seats, mulle, RoundEntry(sweeps=(0, 3))) == (
        "a sweep: seat 3 does not exist (seats are 0 to 2)", "sweeps")
    assert refusal(_check_seats, mulle, RoundEntry(mulles=(-1,))) == (
        "a mulle: seat -1 does not exist (seats are 0 to 2)", "mulles")
    assert refusal(_check_seats, mulle, RoundEntry(last_capture=3)) == (
        "the last capture: seat 3 does not exist (seats are 0 to 2)", "last_capture")
    assert refusal(_check_seats, mulle, RoundEntry(sweeps=(2,), mulles=(1,),
                                                   last_capture=0)) is None
    teams = _Sides(preset("classic", players=4), NAMES)
    assert refusal(_check_seats, teams, RoundEntry(sweeps=(3,))) is None


def test_no_sweeps_once_someone_began_the_round_past_the_limit() -> None:
    kasino = _Sides(preset("kasino", players=3), NAMES[:3])
    sweeps = RoundEntry(sweeps=(0,))
    assert refusal(_check_sweep_limit, kasino, sweeps, (5, 11, 12)) == (
        "no sweeps count this round: Bob had more than 10 points when it began", "sweeps")
    assert refusal(_check_sweep_limit, kasino, sweeps, (10, 10, 10)) is None
    assert refusal(_check_sweep_limit, kasino, sweeps, None) is None
    assert refusal(_check_sweep_limit, kasino, RoundEntry(), (5, 11, 12)) is None
    casino = _Sides(preset("casino"), ("Ann", "Bob"))
    assert refusal(_check_sweep_limit, casino, sweeps, (15, 20)) is None


def cards(text: str) -> list[int]:
    return list(parse_cards(text))


def test_spades_in_a_pile_are_counted() -> None:
    assert _spades_in(cards("As Ad 2s Kc")) == 2
    assert _spades_in([]) == 0


def test_the_scoring_cards_go_to_their_takers_first_seat() -> None:
    classic = preset("classic", players=4)
    entry = RoundEntry.make(takers={"Td": 1, "As": 0, "2s": 1})
    assert _scoring_card_piles(classic, entry) == [cards("As"), cards("2s Td"), [], []]
    mulle = preset("mulle", players=3)
    assert _scoring_card_piles(mulle, RoundEntry.make(takers={"Td": [2, 2]})) == [
        [], [], cards("Td Td")]


def test_the_free_cards_are_every_card_but_the_scoring_cards() -> None:
    spades, others = _free_cards(preset("casino"))
    assert spades == cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    assert len(others) == 35 and others == sorted(others)
    assert not set(others) & set(cards("Td Ac Ah Ad")) and not set(others) & set(spades)
    two_decks, _ = _free_cards(preset("mulle"))
    assert two_decks == sorted(spades * 2)


def test_a_spade_count_holds_the_named_spades() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    piles = [cards("Td"), cards("As 2s")]
    assert refusal(_check_named_spades_fit, sides, (12, 1), piles) == (
        "Bob took A♠ 2♠, so at least 2 spades, not 1", "spades")
    assert refusal(_check_named_spades_fit, sides, (11, 2), piles) is None


def test_spades_for_who_had_most_make_exactly_those_sides_lead() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    empty: list[list[int]] = [[], []]
    assert _spade_counts_for_most(sides, (0,), None, empty, True) == [7, 6]
    assert _spade_counts_for_most(sides, (1,), None, empty, True) == [6, 7]
    assert _spade_counts_for_most(sides, (0,), None, empty, False) == [1, 0]
    assert _spade_counts_for_most(sides, (1,), None, [cards("As 2s"), []], True) == [6, 7]
    assert _spade_counts_for_most(sides, (1,), None, [cards("As 2s"), []], False) == [2, 3]
    assert refusal(_spade_counts_for_most, sides, (0, 1), None, empty, True) == (
        "Ann and Bob cannot tie for the most spades: the 13 spades do not split that way "
        "with the other counts entered", "spades")
    assert refusal(_spade_counts_for_most, sides, (1,), (50, 3), [[], cards("Td")],
                   True) == (
        "Bob cannot have had the most spades with the other counts entered", "spades")


def test_the_spade_counts_follow_the_form_given() -> None:
    casino = _Sides(preset("casino"), ("Ann", "Bob"))
    piles = [cards("2s"), cards("As")]
    assert _spade_counts(casino, RoundEntry(spades=(6, 7)), piles, True) == [6, 7]
    assert _spade_counts(casino, RoundEntry(most_spades=(0,)), piles, True) == [7, 6]
    assert _spade_counts(casino, RoundEntry(cards=(26, 26)), piles, True) is None
    assert refusal(_spade_counts, casino, RoundEntry(spades=(13, 0)), piles, True) == (
        "Bob took A♠, so at least 1 spade, not 0", "spades")
    kryp = _Sides(preset("krypkasino"), ("Ann", "Bob"))
    assert _spade_counts(kryp, RoundEntry(other_spades=(10, 12)),
                         [cards("2s 2s As"), cards("As")], True) == [13, 13]


def test_dealing_takes_the_pool_in_order_side_by_side() -> None:
    sides = _Sides(preset("casino", players=2), ("Ann", "Bob"))
    piles = [cards("As"), []]
    assert _deal(sides, piles, [2, 1], cards("2c 3c 4c 5c")) == cards("5c")
    assert piles == [cards("As 2c 3c"), cards("4c")]


def test_spades_are_dealt_to_their_counts_and_any_left_come_last() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    piles = [cards("2s"), []]
    rest = _deal_spades(sides, piles, [2, 1], cards("3s 4s 5s 6s"), cards("2c 3c"))
    assert piles == [cards("2s 3s"), cards("4s")]
    assert rest == cards("2c 3c 5s 6s")
    piles = [cards("2s"), []]
    assert _deal_spades(sides, piles, None, cards("3s 4s"), cards("2c 3c")) == cards(
        "2c 3s 3c 4s")
    assert piles == [cards("2s"), []]


def test_the_piles_are_topped_up_to_the_card_counts() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    piles = [cards("As"), cards("2s Td")]
    pool = cards("2c 3c 4c 5c")
    _deal_cards(sides, piles, (3, 3), pool)
    assert piles == [cards("As 2c 3c"), cards("2s Td 4c")]
    assert pool == cards("5c")


def test_cards_for_who_had_most_make_exactly_those_sides_lead() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    assert _card_counts_for_most(sides, (1,), [cards("As 2s Td"), []], True) == (25, 27)
    assert _card_counts_for_most(sides, (0, 1), [[], []], True) == (26, 26)
    assert _card_counts_for_most(sides, (0,), [[], cards("Td")], False) == (2, 1)
    assert refusal(_card_counts_for_most, sides, (1,), [list(range(30)), []], True) == (
        "Bob cannot have had the most cards with the scoring cards and spades entered",
        "cards")


def test_a_card_count_holds_the_cards_already_in_its_pile() -> None:
    sides = _Sides(preset("casino"), ("Ann", "Bob"))
    piles = [cards("As 2s"), cards("Td 3s 4s")]
    assert refusal(_check_piles_within_counts, sides, (50, 2), piles) == (
        "Bob captured 2 cards, but the scoring cards and spades entered for them make 3",
        "cards")
    assert refusal(_check_piles_within_counts, sides, (49, 3), piles) is None


def test_each_sweep_and_mulle_needs_cards_captured() -> None:
    casino = _Sides(preset("casino"), ("Ann", "Bob"))
    assert refusal(_check_cards_for_sweeps_and_mulles, casino,
                   RoundEntry(cards=(49, 3), sweeps=(1, 1))) == (
        "Bob made 2 sweeps but captured only 3 cards", "sweeps")
    assert refusal(_check_cards_for_sweeps_and_mulles, casino,
                   RoundEntry(cards=(48, 4), sweeps=(1, 1))) is None
    assert refusal(_check_cards_for_sweeps_and_mulles, casino,
                   RoundEntry(most_cards=(0,), sweeps=(1, 1, 1))) is None
    doubles = _Sides(preset("casino", double_sweep=True), ("Ann", "Bob"))
    assert refusal(_check_cards_for_sweeps_and_mulles, doubles,
                   RoundEntry(cards=(49, 3), sweeps=(1, 1, 1))) is None
    mulles = _Sides(preset("casino", mulle_points=1), ("Ann", "Bob"))
    assert refusal(_check_cards_for_sweeps_and_mulles, mulles,
                   RoundEntry(cards=(51, 1), mulles=(1,))) == (
        "Bob made 1 mulle but captured only 1 card", "mulles")
    teams = _Sides(preset("classic", players=4), NAMES)
    assert refusal(_check_cards_for_sweeps_and_mulles, teams,
                   RoundEntry(cards=(49, 3), sweeps=(1, 3))) == (
        "Bob & Dee made 2 sweeps but captured only 3 cards", "sweeps")


# ----------------------------------------------------------------------
# Corrections and undo

ROUND_A = RoundEntry.make(cards=[30, 22], spades=[6, 7], takers=T, sweeps=[1])
ROUND_B = RoundEntry.make(cards=[22, 30], spades=[7, 6],
                          takers={"Td": 1, "2s": 0, "As": 1, "Ac": 1, "Ah": 1, "Ad": 0})


def three_rounds() -> ScorePad:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    for e in (ROUND_A, ROUND_B, ROUND_A):
        pad = pad.add_round(e)
    return pad


def test_replace_round_rescores_everything_after() -> None:
    pad = three_rounds()
    assert pad.totals == (8 + 3 + 8, 4 + 8 + 4)
    fixed = pad.replace_round(1, ROUND_A)
    assert fixed.totals == (24, 12)
    assert fixed.winner == 0  # Ann now reaches 21 in round 3
    assert [r.scores for r in fixed.results] == [(8, 4), (16, 8), (24, 12)]
    assert pad.totals == (19, 16)  # the old pad is unchanged
    assert fixed.undo().to_json()["rounds"] == pad.to_json()["rounds"]


def test_a_correction_that_ends_the_game_earlier_is_refused() -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    pad = pad.add_round(ROUND_A).add_round(ROUND_A)
    win = RoundEntry.make(cards=[40, 12], spades=[10, 3],
                          takers={"Td": 0, "2s": 0, "As": 0, "Ac": 0, "Ah": 0, "Ad": 0},
                          sweeps=[0] * 10)
    with pytest.raises(ScorePadError, match="game was over after round 1") as err:
        pad.replace_round(0, win)
    assert err.value.round == 2
    shorter = pad.remove_round(1).replace_round(0, win)
    assert shorter.winner == 0


def test_kasino_correction_that_makes_a_later_sweep_impossible_is_refused() -> None:
    rules = preset("kasino")
    takers = {"As": 0, "Ac": 1, "Ah": 0, "Ad": 1, "Td": 0, "2s": 1}
    low = RoundEntry.make(cards=[26 + 1, 25], spades=[7, 6], takers=takers)
    pad = ScorePad(rules, ("Ann", "Bob")).add_round(low).add_round(
        RoundEntry.make(cards=[27, 25], spades=[7, 6], takers=takers, sweeps=[1]))
    high = RoundEntry.make(cards=[40, 12], spades=[10, 3],
                           takers={k: 0 for k in takers}, sweeps=[0])
    with pytest.raises(ScorePadError, match="round 2: no sweeps count this round") as err:
        pad.replace_round(0, high)
    assert err.value.round == 2 and err.value.field == "sweeps"


def test_undo_steps_back_through_every_change() -> None:
    pad = three_rounds()
    states = [pad]
    pad = pad.replace_round(0, ROUND_B)
    states.append(pad)
    pad = pad.remove_round(2)
    assert len(pad.rounds) == 2
    assert pad.undo().rounds == states[1].rounds
    assert pad.undo().undo().rounds == states[0].rounds
    empty = ScorePad(preset("casino"), ("Ann", "Bob"))
    with pytest.raises(ScorePadError, match="nothing to undo"):
        empty.undo()
    with pytest.raises(ScorePadError, match="there is no round 4: the pad has rounds 1 to 3"):
        states[0].replace_round(3, ROUND_A)


# ----------------------------------------------------------------------
# JSON


def test_json_round_trip_keeps_rounds_and_undo() -> None:
    pad = three_rounds().replace_round(0, ROUND_B)
    text = pad.dumps()
    back = ScorePad.from_json(text)
    assert back.to_json() == pad.to_json()
    assert back.totals == pad.totals
    assert back.undo().totals == pad.undo().totals
    assert json.loads(text)["format"] == FORMAT
    for name, n in CONFIGS:
        blank = ScorePad(preset(name, players=n), NAMES[:n])
        assert ScorePad.from_json(blank.to_json()).rules == blank.rules


def _good() -> dict[str, Any]:
    return three_rounds().to_json()


def _with(**changes: Any) -> dict[str, Any]:
    obj = _good()
    obj.update(changes)
    return obj


BAD_FILES: list[tuple[str, Any, str]] = [
    ("not JSON", "{oops", "not valid JSON"),
    ("not an object", [], "a score pad is a JSON object"),
    ("another format", _with(format="casino-position/1"), "format must be"),
    ("an unknown key", _with(extra=1), "unknown key 'extra'"),
    ("no rounds", {k: v for k, v in _good().items() if k != "rounds"}, "needs 'rounds'"),
    ("an unknown ruleset", _with(rules="poker"), "rules: unknown ruleset 'poker'"),
    ("names that do not fit", _with(names=["Ann"]), "give 2 names, not 1"),
    ("an impossible round", _with(rounds=[{"cards": [30, 30], "spades": [6, 7],
                                           "takers": {"Td": [0]}}]),
     "round 1: the cards captured add up to 60"),
    ("a round that is not an object", _with(rounds=[3]), "rounds[0]: a round is a JSON"),
    ("a bad card", _with(rounds=[{"takers": {"Xx": [0]}}]), "rounds[0].takers"),
    ("a count that is not a number", _with(rounds=[{"cards": ["30", 22]}]),
     "rounds[0].cards: '30' is not a whole number"),
    ("an unknown round key", _with(rounds=[{"points": 3}]), "unknown key 'points'"),
    ("bad history", _with(history=[[{"cards": [60, 0]}]]), "history[0]: round 1"),
]


@pytest.mark.parametrize(("what", "obj", "reason"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_imports_are_refused_with_their_reason(what: str, obj: Any, reason: str) -> None:
    with pytest.raises(ScorePadError) as err:
        ScorePad.from_json(obj if isinstance(obj, str) else json.dumps(obj))
    assert reason in str(err.value)


def test_json_api_for_pages() -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    obj = apply_json(pad.to_json(), {"op": "add", "round": ROUND_A.to_json()})
    obj = apply_json(obj, {"op": "add", "round": ROUND_B.to_json()})
    obj = apply_json(obj, {"op": "replace", "index": 1, "round": ROUND_A.to_json()})
    assert ScorePad.from_json(obj).totals == (16, 8)
    obj = apply_json(obj, {"op": "undo"})
    assert ScorePad.from_json(obj).totals == (11, 12)
    obj = apply_json(obj, {"op": "remove", "index": 0})
    assert len(obj["rounds"]) == 1
    with pytest.raises(ScorePadError, match="unknown action"):
        apply_json(obj, {"op": "explode"})
    with pytest.raises(ScorePadError, match="the cards captured add up to 53"):
        apply_json(obj, {"op": "add", "round": {"cards": [30, 23], "spades": [6, 7],
                                                "takers": {"Td": [0]}}})
    view = ScorePad.from_json(obj).view_json()
    assert view["sides"] == [{"side": 0, "name": "Ann"}, {"side": 1, "name": "Bob"}]
    assert view["rounds"][0]["items"][0]["words"] == "most cards"
    assert view["rounds"][0]["items"][-1]["totals"] == view["totals"]
    assert view["fields"][0]["key"] == "cards"
    choices = {c["name"]: c for c in setup_choices()}
    assert choices["classic"]["players"] == [2, 3, 4]
    assert choices["classic"]["partnerships"] == [4]
    assert choices["casino"]["players"] == [2] and choices["kasino"]["target"] == 16


# ----------------------------------------------------------------------
# casino score (the terminal pad)

runner = CliRunner()
score_app = typer.Typer()
score_app.command("score")(score_command)
score_app.command("noop")(lambda: None)  # two commands: "score" stays a subcommand


def score(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(score_app, ["score", *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


GAME = "\n".join([
    "round", "30 22", "6 7", "Td As Ac Ah", "Ann Bob Bob",
    "round", "20 32", "Bob", "Td 2s As Ac Ah Ad", "",
    "round", "30 22", "6 7", "Td", "Ann",
    "quit", ""])


def test_score_a_whole_game_with_a_file(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    code, out, err = score("--rules", "casino", "--names", "Ann,Bob", "--file", str(path),
                           input=GAME)
    assert code == 0, err
    assert "Bob took the rest: 2♠ A♦" in out
    assert "most cards    +3  Ann   [Ann 3, Bob 0]" in out
    assert "Ann reached 21 first, with 10♦" in out
    assert "Winner: Ann." in out
    pad = ScorePad.from_json(path.read_text(encoding="utf-8"))
    assert pad.totals == (22, 15) and pad.winner == 0
    # Opened again, the pad is as it was; print shows the sheet.
    code, out, _ = score("--file", str(path), "--print")
    assert code == 0
    assert "Players: Ann vs Bob" in out and "Winner: Ann." in out
    assert "    3    +6 = 22    +6 = 15" in out


def test_score_refuses_each_impossible_answer_as_it_is_typed(tmp_path: Path) -> None:
    """Issue 16: an impossible answer is refused at once, with its reason, and the same
    question asked again (not after the whole round was typed)."""
    path = tmp_path / "pad.json"
    lines = ["round", "30 23", "30 22", "6 7", "Td Td", "Td As Ac Ah", "", "quit", ""]
    code, out, _ = score("--rules", "casino", "--names", "Ann,Bob", "--file", str(path),
                         input="\n".join(lines))
    assert code == 0
    cards, spades = "Cards captured: numbers", "Spades captured: numbers"
    refused = "  Refused: the cards captured add up to 53, more than the 52"
    # Refused right after the cards, before the spades are asked; then asked again.
    assert out.index(refused) < out.index(spades)
    assert out.count(cards) == 2
    took = "Scoring cards Ann took"
    refused = "  Refused: the 10♦ is entered 2 times for Ann, but there is only one"
    assert out.index(took) < out.index(refused) < out.index(took, out.index(refused))
    assert out.count("Sweeps: who made each") == 1
    assert ScorePad.from_json(path.read_text(encoding="utf-8")).totals == (8, 3)


def test_score_checks_an_answer_against_the_earlier_ones() -> None:
    """Spades that cannot fit the cards just given, a scoring spade that does not fit
    the spades, and a card that scores nothing: each refused when typed."""
    lines = ["round", "2 50", "6 7", "0 13", "As 2s", "5h", "Td", "", "quit", ""]
    code, out, _ = score("--rules", "casino", "--names", "Ann,Bob", input="\n".join(lines))
    assert code == 0
    assert "  Refused: Ann cannot have 6 spades among 2 cards" in out
    assert "  Refused: Ann took A♠ 2♠, so at least 2 spades, not 0" in out
    assert "  Refused: the 5♥ scores nothing by itself in casino" in out
    assert "Round 1, in counting order:" in out
    assert out.count("Scoring cards Ann took") == 3


def test_score_a_correction_is_checked_as_it_is_typed(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    code, _, _ = score("--rules", "casino", "--names", "Ann,Bob", "--file", str(path),
                       input=GAME)
    assert code == 0
    code, out, _ = score("--file", str(path), input="\n".join(
        ["fix 1", "40 22", "", "", "", "", "quit", ""]))
    assert code == 0
    assert "  Refused: the cards captured add up to 62" in out
    assert "Round 1, in counting order:" in out


def test_score_file_errors_are_words(tmp_path: Path) -> None:
    """A pad file in a folder that does not exist: said in words, no errno, no .tmp."""
    path = tmp_path / "nowhere" / "pad.json"
    code, out, err = score("--rules", "casino", "--names", "Ann,Bob", "--file", str(path),
                           input="quit\n")
    assert code == 0
    assert f"cannot write {path}: the folder {tmp_path / 'nowhere'}/ does not exist" in out
    assert "Errno" not in out + err and ".tmp" not in out + err
    code, out, err = score("--file", str(path), "--print")
    assert code == 2
    assert err.strip() == (f"casino: no such file: {path} (the folder "
                           f"{tmp_path / 'nowhere'}/ does not exist)")


def test_score_fix_undo_and_remove(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    code, _, _ = score("--rules", "casino", "--names", "Ann,Bob", "--file", str(path),
                       input=GAME)
    assert code == 0
    fix = "\n".join(["fix 2", "", "", "", "Ann Bob", "show", "undo", "remove 3", "show 1",
                     "quit", ""])
    code, out, _ = score("--file", str(path), input=fix)
    assert code == 0
    assert "Later rounds rescored:" in out
    assert "Undone." in out and "Round 3 removed." in out
    pad = ScorePad.from_json(path.read_text(encoding="utf-8"))
    assert len(pad.rounds) == 2 and pad.winner is None
    assert len(pad.undo().rounds) == 3


def test_score_setup_asks_for_ruleset_players_and_names() -> None:
    lines = ["kasino", "3", "Ann, Bob", "Ann, Bob, Cid", "round", "20 20 12", "6 5 2",
             "As Ad", "Ac Td", "", "show", "quit", ""]
    code, out, _ = score(input="\n".join(lines))
    assert code == 0
    assert "give 3 names, not 2" in out
    assert "Cid took the rest: A♥ 2♠" in out
    assert "Carried to the next round: 1 for most cards" in out


def test_score_bad_options() -> None:
    code, _, err = score("--rules", "poker")
    assert code == 2 and "unknown ruleset 'poker'" in err
    code, _, err = score("--print")
    assert code == 2 and "--print needs --file" in err


# ----------------------------------------------------------------------
# Fuzzing: bad input raises ScorePadError, never anything else

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 120) | st.text(max_size=6)
    | st.sampled_from(["Td", "2s", "As", "Ad", "casino", "mulle", FORMAT]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["cards", "most_cards", "spades", "most_spades", "other_spades",
                         "takers", "sweeps", "mulles", "last_capture", "Td", "As", "x"]),
        inner, max_size=5),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fuzz_round_entries(obj: Any) -> None:
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    with contextlib.suppress(ScorePadError):
        pad.add_round(RoundEntry.from_json(obj))


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"format": st.just(FORMAT) | json_values,
                              "rules": st.sampled_from(["casino", "mulle", "kasino"])
                              | json_values,
                              "names": st.just(["Ann", "Bob"]) | json_values,
                              "rounds": st.lists(json_values, max_size=3)},
                             optional={"history": json_values}))
def test_fuzz_pad_files(obj: dict[str, Any]) -> None:
    with contextlib.suppress(ScorePadError):
        ScorePad.from_json(json.dumps(obj))
