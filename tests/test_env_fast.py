"""The research env's fast paths give exactly what the plain ways give.

Over random games of every preset (and the player counts that change the game): the
action table against one built by the documented canonical key with
:func:`casino.engine.legality.worth` and :func:`casino.env.actions.keep`, the
observation array against the field-by-field :func:`encode_plain`, and the infos
against the engine's own JSON observation and move texts (docs/research.md), and
the mask reader `allowed_actions` against `np.flatnonzero`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from casino.engine.legality import worth
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.rules import PRESET_NAMES
from casino.env import raw_env
from casino.env.actions import SLOTS, action_table, canonical_key
from casino.env.observation import encode_plain, encode_position, field

TABLES = [(name, 2) for name in PRESET_NAMES] + [
    ("kasino", 3), ("classic", 4), ("mulle", 4), ("tablic", 3), ("tablic", 4)]

_KIND = {CAPTURE: 0, BUILD: 1, ADD: 2, RAISE: 3, TRAIL: 4}


def _plain_key(m: Move) -> tuple[object, ...]:
    """The canonical order as actions.py's docstring states it, computed plainly."""
    taken = len(m.loose) + sum(len(b.cards) for b in m.builds)
    w = sum(worth(c) for c in m.loose) + sum(worth(c) for b in m.builds for c in b.cards)
    return (_KIND[m.kind], -taken, -w, m.value, m.loose,
            tuple((b.value, b.owner, b.cards) for b in m.builds))


def _plain_table(pos: Position) -> dict[int, Move]:
    """Every card's moves sorted by the plain key, at most SLOTS of them kept (keep's
    sharing out is checked on its own in test_env.py; here no card has more)."""
    by_card: dict[int, list[Move]] = {}
    for m in pos.candidate_moves().moves:
        by_card.setdefault(m.card, []).append(m)
    out: dict[int, Move] = {}
    for card in sorted(by_card):
        moves = sorted(dict.fromkeys(by_card[card]), key=_plain_key)
        assert len(moves) <= SLOTS
        for slot, m in enumerate(moves):
            out[card * SLOTS + slot] = m
    return out


def _texts(table: dict[int, Move]) -> list[tuple[int, str, tuple[Any, ...]]]:
    """What an action table shows: each action's move, text and groups."""
    return [(a, str(m), m.groups) for a, m in table.items()]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_the_fast_table_array_and_infos_are_the_plain_ones(rules: str, players: int) -> None:
    """Two rounds (seeds 3 and 7) and most of a whole game (seed 11: later rounds, with
    scores and carries), every position checked for every seat."""
    steps = _check_episode(raw_env(rules, players), 3)
    assert steps > 20
    assert _check_episode(raw_env(rules, players), 7) > 20
    assert _check_episode(raw_env(rules, players, episode="game"), 11, limit=400) > steps


def _check_episode(e: raw_env, seed: int, limit: int | None = None) -> int:
    """Play ``e`` from ``seed`` (at most ``limit`` steps), checking what it gives at each
    step against the plain ways; the number of steps."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        pos = e.position
        seat = int(agent.split("_")[1])
        for s in range(pos.rules.players):
            seen = pos.observe(s)
            plain = encode_plain(seen, s)
            # The whole position and the observation encode alike, and so does the env
            # (from the bytes it keeps); the JSON written straight from the position is
            # the observed position's.
            assert np.array_equal(encode_position(seen, s), plain)
            assert np.array_equal(encode_position(pos, s), plain)
            got = e.observe(f"player_{s}")
            assert got["observation"].dtype == np.float32
            assert np.array_equal(got["observation"], plain)
            if s != seat or term or trunc:
                assert not got["action_mask"].any()
            assert pos.observation(s) == seen.to_json()
        assert np.array_equal(obs["observation"], encode_plain(pos.observe(seat), seat))
        if term or trunc:
            # The episode is over: every agent gets its final observation, no moves.
            assert info == {"observation": pos.observation(seat)}
            e.step(None)
            continue
        table = action_table(pos)
        assert _texts(table) == _texts(_plain_table(pos))
        assert [canonical_key(m) for m in table.values()] == [
            _plain_key(m) for m in table.values()]
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(table)
        assert info == {"observation": pos.observation(seat),
                        "moves": {a: str(m) for a, m in table.items()}}
        assert list(info["moves"]) == list(table)
        assert all(e.infos[a] == {} for a in e.agents if a != agent)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if steps == limit:
            break
    return steps


def test_the_array_of_a_two_deck_table_counts_both_copies() -> None:
    e = raw_env("mulle")
    e.reset(seed=1)
    pos = e.position
    twice = pos.observe(pos.to_move)
    # The same card twice in one pile and in the table: counted, not just marked.
    card = twice.loose[0]
    twin = Position(**{**_fields(twice), "table": (*twice.table, card),
                       "piles": ((card, card), *twice.piles[1:])})
    got = encode_position(twin, pos.to_move)
    assert np.array_equal(got, encode_plain(twin, pos.to_move))
    assert field(got, "loose")[card] == 2
    assert field(got, "piles").max() == 2


def _fields(pos: Position) -> dict[str, Any]:
    return {k: getattr(pos, k) for k in (
        "rules", "round", "deal", "dealer", "to_move", "hands", "table", "piles",
        "sweeps", "last_capture", "stock", "set_aside", "scores", "result", "carry",
        "mulles")}


def test_allowed_actions_reads_a_mask_as_flatnonzero_does() -> None:
    """``allowed_actions`` (a boolean view of the int8 mask) lists exactly the actions
    ``np.flatnonzero`` lists, in the same order, on random masks and the env's own; a
    mask of another dtype is read the plain way."""
    from casino.env import allowed_actions
    from casino.env.actions import ACTIONS

    rng = np.random.default_rng(5)
    for density in (0.0, 0.001, 0.01, 0.5, 1.0):
        mask = (rng.random(ACTIONS) < density).astype(np.int8)
        assert allowed_actions(mask) == np.flatnonzero(mask).tolist()
        assert allowed_actions(mask.astype(np.float32)) == np.flatnonzero(mask).tolist()
    e = raw_env("casino")
    e.reset(seed=3)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        got = allowed_actions(obs["action_mask"])
        assert got == np.flatnonzero(obs["action_mask"]).tolist()
        assert all(isinstance(a, int) for a in got)
        e.step(None if term or trunc else got[len(got) // 2])


def test_scores_that_do_not_fit_in_a_byte_are_encoded_exactly() -> None:
    """A negative or large score (Krypkasino's penalties, a long game) takes the array's
    slow path for numbers that do not fit in a byte: the same array as the plain one,
    also once the round is scored (its points) and with a carry."""
    import dataclasses

    from casino.engine.match import Match
    from casino.engine.scoring import Carry

    pos = Match("krypkasino", seed=2).position
    scored = Match("kasino", seed=2)
    while scored.position.result is None:
        scored.play(scored.position.legal_moves()[0])
    for scores in ((-7, 300), (255, 256), (0, -1), (3, 4)):
        for base in (pos, scored.position):
            for carry in (Carry(), Carry(2, 1), Carry(0, 999)):
                odd = dataclasses.replace(base, scores=scores, carry=carry)
                for seat in (0, 1):
                    got = encode_position(odd, seat)
                    assert np.array_equal(got, encode_plain(odd.observe(seat), seat))
                    mine, theirs = scores[seat], scores[1 - seat]
                    assert field(got, "scores")[:2].tolist() == [float(mine), float(theirs)]
                    assert field(got, "over")[0] == (base.result is not None)


def test_a_position_set_from_outside_is_seen_afresh() -> None:
    """What the env derived from its position is made again once the position changes
    without a step, as a tool that sets the match's position and asks for the infos does
    (as an outside leak audit does): the array, mask and infos are the new one's."""
    import types

    e = raw_env("casino")
    e.reset(seed=1)
    first = e.position
    obs = e.observe(e.agent_selection)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    e.observe(e.agent_selection)  # made for the second position
    # As the tool does: a stand-in holding only the position.
    e.match = types.SimpleNamespace(position=first)  # type: ignore[assignment]
    agent = e.agent_selection = f"player_{first.to_move}"
    e._update_infos()
    got = e.observe(agent)
    assert np.array_equal(got["observation"], encode_plain(first.observe(first.to_move),
                                                           first.to_move))
    assert np.flatnonzero(got["action_mask"]).tolist() == sorted(action_table(first))
    assert e.infos[agent]["observation"] == first.observation(first.to_move)
