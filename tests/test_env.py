"""casino.env: the PettingZoo environment and the Gymnasium wrapper (docs/research.md).

PettingZoo's and Gymnasium's own checkers pass; an observation (the array and the
infos) never holds a card its seat may not see; the mask allows exactly the encoded
legal moves; a seed deals the same game; and the env's games are the engine's,
move for move.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from casino.engine.match import Match
from casino.engine.moves import BUILD, CAPTURE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.rules import PRESET_NAMES
from casino.env import SingleAgentEnv, env, raw_env
from casino.env.actions import ACTIONS, SLOTS, action_table, keep
from casino.env.observation import FIELDS, SIZE, encode, field

#: One table of each preset family, with the player counts that change the game:
#: three players, and four (partnerships in classic and Tablić, none in Mulle).
TABLES = [(name, 2) for name in PRESET_NAMES] + [
    ("kasino", 3), ("classic", 4), ("mulle", 4), ("tablic", 3), ("tablic", 4)]

_CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][schd])(?![A-Za-z0-9])")
_CARD_FIELDS = ("hand", "loose", "builds", "piles", "set_aside")


def _random_game(e: raw_env, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Play ``e`` to its end with random allowed actions; each step's agent and
    observation."""
    rng = np.random.default_rng(seed)
    seen: list[tuple[str, dict[str, Any]]] = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seen.append((agent, obs))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


# The observation is a dict of the array and the action mask, as in PettingZoo's own
# card and board games; api_test only notes that it is not a plain array.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_pettingzoo_api_test_passes(rules: str, players: int) -> None:
    api_test(env(rules, players), num_cycles=40)


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("classic", 4), ("tablic", 3)])
def test_gymnasium_check_env_passes_on_the_single_agent_wrapper(rules: str,
                                                                 players: int) -> None:
    check_env(SingleAgentEnv(rules, players, seat=1, level="beginner"),
              skip_render_check=True)


def _visible(pos: Position, seat: int) -> Counter[int]:
    """Every card ``seat`` may see in ``pos``, with its copies."""
    seen: Counter[int] = Counter(pos.hand(seat))
    seen.update(pos.loose)
    for b in pos.builds:
        seen.update(b.cards)
    for pile in pos.piles:
        seen.update(pile)
    seen.update(pos.set_aside)
    return seen


def _array_cards(array: np.ndarray[Any, Any]) -> Counter[int]:
    counts: Counter[int] = Counter()
    for name in _CARD_FIELDS:
        values = field(array, name)
        if name == "builds":
            slots = values.reshape(-1, 57)[:, :52]
            values = slots.sum(axis=0)
        elif name == "piles":
            values = values.reshape(-1, 52).sum(axis=0)
        for c in np.flatnonzero(values):
            counts[int(c)] += int(values[c])
    return counts


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("krypkasino", 2),
                                                ("kasino", 4), ("classic", 4), ("mulle", 3)])
def test_observations_never_hold_another_seat_s_hidden_cards(rules: str,
                                                             players: int) -> None:
    e = raw_env(rules, players)
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    while not all(e.terminations.values()):
        pos = e.position
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            visible = _visible(pos, seat)
            obs = e.observe(agent)
            array = obs["observation"]
            # The array's cards are exactly the cards the seat sees.
            assert _array_cards(array) == visible
            assert field(array, "hand").sum() == len(pos.hand(seat))
            # It is a function of the observation's JSON alone, which the agent to act
            # gets in its info (the others' infos stay empty until they are to act).
            info = e.infos[agent]
            if agent == e.agent_selection:
                assert info["observation"] == pos.observation(seat)
            else:
                assert info == {}
                info = {"observation": pos.observation(seat)}
            assert np.array_equal(encode(info["observation"], seat), array)
            # No card text in the infos that the seat cannot see.
            named = Counter(_card_id(t) for t in _CARD.findall(json.dumps(info)))
            assert set(named) <= set(visible), set(named) - set(visible)
            hidden = [h for s, h in enumerate(info["observation"]["hands"]) if s != seat]
            assert all(isinstance(h, int) for h in hidden)
            assert isinstance(info["observation"]["stock"], int)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def _card_id(text: str) -> int:
    from casino.engine.cards import parse_card

    return parse_card(text)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_the_mask_allows_exactly_the_encoded_legal_moves(rules: str, players: int) -> None:
    e = raw_env(rules, players)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while not all(e.terminations.values()):
        pos = e.position
        agent = e.agent_selection
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        mask = e.observe(agent)["action_mask"]
        table = e.legal_actions(agent)
        assert set(np.flatnonzero(mask)) == set(table)
        assert len(set(table.values())) == len(table)
        assert all(pos.is_legal(m) for m in table.values())
        assert all(a // SLOTS == m.card for a, m in table.items())
        counts = Counter(m.card for m in pos.candidate_moves().moves)
        if pos.candidate_moves().complete and max(counts.values()) <= SLOTS:
            assert set(table.values()) == set(pos.legal_moves())
        assert e.infos[agent]["moves"] == {a: str(m) for a, m in table.items()}
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_a_card_with_more_moves_than_slots_keeps_its_trail_and_every_kind() -> None:
    captures = [Move(CAPTURE, 36, (*range(i % 9 + 1), 100 + i)) for i in range(80)]
    builds = [Move(BUILD, 36, (4 * v,), (), v + 10) for v in range(3)]
    trail = Move(TRAIL, 36)
    kept = keep([trail, *captures, *builds])
    assert len(kept) == SLOTS
    assert trail in kept and all(b in kept for b in builds)
    # Captures taking the most cards are the ones kept.
    dropped = [m for m in captures if m not in kept]
    assert max(len(m.loose) for m in dropped) <= min(len(m.loose) for m in kept
                                                      if m.kind == CAPTURE)
    assert keep(kept) == kept
    assert kept[-1] == trail and kept[0].kind == CAPTURE


def test_a_seed_deals_the_same_game_and_another_seed_another() -> None:
    def run(seed: int) -> list[tuple[str, bytes, str]]:
        e = raw_env("kasino", 3)
        e.reset(seed=seed)
        return [(a, o["observation"].tobytes(), json.dumps(e.infos.get(a, {})))
                for a, o in _random_game(e, 3)]

    assert run(8) == run(8)
    assert run(8) != run(9)

    e = raw_env("casino")
    e.reset(seed=4)
    first = e.position
    e.reset()
    second = e.position
    e.reset(seed=4)
    assert e.position == first
    e.reset()
    assert e.position == second


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("krypkasino", 2),
                                                ("classic", 4), ("tablic", 3)])
def test_the_env_s_game_is_the_engine_s_move_for_move(rules: str, players: int) -> None:
    e = raw_env(rules, players, episode="game")
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    played: list[tuple[Move, Position]] = []
    while not all(e.terminations.values()):
        table = e.legal_actions(e.agent_selection)
        action = int(rng.choice(sorted(table)))
        e.step(action)
        played.append((table[action], e.position))
    assert e.match is not None and e.match.seed is not None
    match = Match(e.rules, seed=e.match.seed)
    for move, after in played:
        match.play(move)
        if match.position.result is not None and not match.is_over:
            match.next_round()  # the env deals the next round without an action
        assert match.position == after
    assert match.is_over and match.winner == e.match.winner
    assert [r.moves for r in match.rounds] == [r.moves for r in e.match.rounds]


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("krypkasino", 2),
                                                ("classic", 4), ("mulle", 3)])
def test_a_round_rewards_each_side_its_margin(rules: str, players: int) -> None:
    e = raw_env(rules, players)
    e.reset(seed=2)
    total: dict[str, float] = dict.fromkeys(e.agents, 0.0)
    rng = np.random.default_rng(2)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, reward in e.rewards.items():
            total[a] += reward
    result = e.position.result
    assert result is not None
    r = e.rules
    points = result.points_by_seat(r.players)
    sign = -1 if rules == "krypkasino" else 1
    for seat in r.seats:
        side = r.team_of(seat)
        others = [points[t] for t in r.teams if t != side]
        assert total[f"player_{seat}"] == pytest.approx(
            sign * (points[side] - sum(others) / len(others)))
    assert sum(total[f"player_{t}"] for t in r.teams) == pytest.approx(0)


def test_a_whole_game_rewards_the_winning_side() -> None:
    e = raw_env("classic", 4, episode="game")
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    total: dict[str, float] = dict.fromkeys(e.agents, 0.0)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in e.rewards.items():
            total[a] += r
    assert e.match is not None and e.match.is_over and e.match.position.round > 1
    winner = e.match.winner
    assert total == {f"player_{s}": 1.0 if e.rules.team_of(s) == winner else -1.0
                     for s in range(4)}


def test_the_single_agent_wrapper_plays_the_learner_s_seat_against_bots() -> None:
    g = SingleAgentEnv("classic", 4, seat=2, level="beginner")
    obs, info = g.reset(seed=3)
    rng = np.random.default_rng(3)
    total = 0.0
    done = False
    while not done:
        assert g.aec.agent_selection == "player_2"
        assert obs["observation"].shape == (SIZE,)
        obs, reward, done, truncated, info = g.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += float(reward)
        assert not truncated
    result = g.aec.position.result
    assert result is not None
    points = result.points_by_seat(4)
    assert total == pytest.approx(points[0] - points[1])  # seat 2 sits with seat 0

    again = SingleAgentEnv("classic", 4, seat=2, level="beginner")
    first, _ = again.reset(seed=3)
    assert np.array_equal(first["observation"], g.reset(seed=3)[0]["observation"])

    # An action the mask does not allow ends the episode with the penalty.
    obs, _ = g.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = g.step(bad)
    assert done and reward == -1.0 and info["illegal"]


def test_render_prints_the_position_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env("casino", render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == str(e.position)
    human = raw_env("casino", render_mode="human")
    human.reset(seed=1)
    human.render()
    assert capsys.readouterr().out.strip() == str(human.position).strip()


def test_the_layout_is_documented_and_fixed() -> None:
    assert SIZE == sum(f.size for f in FIELDS.values()) == 1094
    assert ACTIONS == 52 * SLOTS
    pos = Match("casino", seed=1).position
    assert set(action_table(pos.observe(pos.to_move))) <= set(range(ACTIONS))


def test_a_table_of_more_builds_than_slots_keeps_the_lowest_twelve() -> None:
    """A table of 13 builds (only possible in theory) is encoded, not refused: the 12 of
    lowest value fill the slots, the 13th is left out and counted."""
    import dataclasses

    from casino.engine.builds import Build
    from casino.engine.match import Match
    from casino.env.observation import MAX_BUILDS, builds_left_out, encode_position, field

    pos = Match("casino", seed=1).position
    builds = tuple(Build(value, value % 2, (value - 1, value + 12))
                   for value in range(2, 2 + MAX_BUILDS + 1))
    crowded = dataclasses.replace(pos, table=builds)
    array = encode_position(crowded, 0)
    assert builds_left_out(crowded) == 1
    slots = field(array, "builds").reshape(MAX_BUILDS, -1)
    assert [int(slot[52]) for slot in slots] == list(range(2, 2 + MAX_BUILDS))
