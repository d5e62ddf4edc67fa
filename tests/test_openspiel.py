"""casino.env.openspiel: the game through OpenSpiel's Python API (docs/research.md).

OpenSpiel's own consistency check (``pyspiel.random_sim_test``) passes; random games
end with the returns the engine's scoring gives the same decks and moves (replayed
through ``Match``); what a seat is told (strings and tensors) holds no card it may
not see; the legal actions are the PettingZoo env's. Skipped where pyspiel is not
installed (the ``openspiel`` extra).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from casino.engine.match import Match  # noqa: E402
from casino.engine.rules import Rules  # noqa: E402
from casino.env.actions import action_table  # noqa: E402
from casino.env.aec import round_margins  # noqa: E402
from casino.env.observation import SIZE, encode_position  # noqa: E402
from casino.env.openspiel import CasinoState  # noqa: E402
from tests.test_env import _CARD, _array_cards, _card_id, _visible  # noqa: E402

TABLES = [("casino", 2), ("krypkasino", 2), ("kasino", 3), ("classic", 4), ("mulle", 2),
          ("tablic", 3), ("spade", 2)]


def _load(rules: str, players: int, episode: str = "round") -> object:
    return pyspiel.load_game(f"python_casino(rules={rules},players={players},"
                             f"episode={episode})")


def _play(game: object, seed: int) -> Iterator[CasinoState]:
    """A random episode: chance by its probabilities, players uniformly; each state
    before an action is yielded."""
    rng = random.Random(seed)
    state: CasinoState = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    yield state


class _Dealt(Match):
    """A Match whose decks are the ones given (those OpenSpiel's chance drew)."""

    def __init__(self, rules: Rules, dealer: int, decks: list[tuple[int, ...]]) -> None:
        self._decks = iter(decks)
        super().__init__(rules, seed=0, first_dealer=dealer)

    def shuffled_deck(self) -> tuple[int, ...]:
        return next(self._decks)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_openspiel_s_random_sim_test_passes(rules: str, players: int) -> None:
    game = _load(rules, players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_loads_with_its_parameters_and_type() -> None:
    game = _load("kasino", 3, "game")
    assert game.num_players() == 3  # type: ignore[attr-defined]
    assert game.num_distinct_actions() == 3328  # type: ignore[attr-defined]
    assert game.observation_tensor_shape() == [SIZE]  # type: ignore[attr-defined]
    t = game.get_type()  # type: ignore[attr-defined]
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    default = pyspiel.load_game("python_casino")
    assert default.num_players() == 2
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_casino(rules=casino,players=3)")


@pytest.mark.parametrize("episode", ["round", "game"])
@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_returns_are_the_engine_s_scoring_of_the_same_decks_and_moves(
        rules: str, players: int, episode: str) -> None:
    game = _load(rules, players, episode)
    *_, end = _play(game, seed=hash((rules, players, episode)) % 1000)
    assert end.is_terminal()
    returns = end.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(game.min_utility() <= r <= game.max_utility()  # type: ignore[attr-defined]
               for r in returns)
    assert end.first_dealer is not None and end.position is not None
    match = _Dealt(end.position.rules, end.first_dealer, end.decks)
    for i, moves in enumerate(end.moves):
        if i:
            match.next_round()
        for move in moves:
            match.play(move)
    assert match.position == end.position
    if episode == "round":
        assert returns == round_margins(match.rules, match.position)
    else:
        assert match.is_over
        won = [s for s in match.rules.seats if match.rules.team_of(s) == match.winner]
        assert [s for s, r in enumerate(returns) if r == 1.0] == won


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("krypkasino", 2),
                                                ("kasino", 4), ("classic", 4), ("mulle", 3)])
def test_what_a_seat_is_told_holds_no_card_it_may_not_see(rules: str, players: int) -> None:
    # The information state recalls earlier rounds' moves: cards the seat saw then.
    game = _load(rules, players, "game")
    seen: list[set[int]] = [set() for _ in range(players)]
    for state in _play(game, seed=7):
        pos = state.position
        for seat in range(players):
            obs = state.observation_string(seat)
            info = state.information_state_string(seat)
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            if pos is None:
                assert not _CARD.findall(obs + info) and not tensor.any()
                continue
            visible = _visible(pos, seat)
            seen[seat] |= set(visible)
            named = {_card_id(t) for t in _CARD.findall(obs)}
            assert named <= set(visible), named - set(visible)
            recalled = {_card_id(t) for t in _CARD.findall(info)}
            assert recalled <= seen[seat], recalled - seen[seat]
            assert _array_cards(tensor) == visible
            assert np.array_equal(tensor, encode_position(pos.observe(seat), seat))
        if state.is_terminal():
            break


def test_the_information_state_adds_the_public_moves_to_the_observation() -> None:
    game = _load("casino", 2)
    state = next(s for s in _play(game, 3) if s.is_player_node())
    seat = state.current_player()
    action = state.legal_actions()[0]
    text = state.action_to_string(seat, action)
    after = state.child(action)
    for s in range(2):
        info = after.information_state_string(s)
        assert info.startswith(after.observation_string(s))
        assert info.endswith(f"moves: round 1: {text}")


@pytest.mark.parametrize(("rules", "players"), [("casino", 2), ("tablic", 3), ("classic", 4)])
def test_legal_actions_are_the_pettingzoo_env_s(rules: str, players: int) -> None:
    game = _load(rules, players)
    for state in _play(game, seed=5):
        if not state.is_player_node():
            continue
        pos = state.position
        assert pos is not None
        seat = state.current_player()
        assert state.legal_actions() == sorted(action_table(pos.observe(seat)))
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == []
        move = action_table(pos.observe(seat))[state.legal_actions()[0]]
        assert state.action_to_string(seat, state.legal_actions()[0]) == str(move)
