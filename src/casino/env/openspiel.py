"""Casino as an OpenSpiel game: ``pyspiel.load_game("python_casino(rules=kasino,players=3)")``.

Importing this module registers the game ``python_casino`` with OpenSpiel's Python
API (pyspiel, from the ``openspiel`` extra). It follows the shape of OpenSpiel's own
Python games (``open_spiel/python/games/kuhn_poker.py``): a ``pyspiel.Game``, its
``pyspiel.State`` and an observer object. The game is the engine's
(:mod:`casino.engine`): the rounds start with ``Position.start_round`` from the decks
that chance draws, and every move is ``Position.play``.

**Parameters.** ``rules`` (a preset name, default ``casino``), ``players`` (default
2) and ``episode`` (``round``, the default, or ``game``), as for
:class:`casino.env.raw_env`.

**Chance.** Explicit (``EXPLICIT_STOCHASTIC``): a shuffle has 52! orders (104!/2^52
for two decks), far too many outcomes for one chance node, so chance draws the deck
one card at a time. The game starts with the cut (one node, the first dealer, each
seat with probability 1/players); then, before each round, one node per card of the
deck, top first, each outcome a card id (0 to 51) with probability copies left /
cards left. A uniform draw without replacement gives every order the probability a
uniform shuffle gives it, and each node has at most 52 outcomes, so OpenSpiel's
algorithms may enumerate or sample them (``chance_outcomes()``). The deck then deals
as ``Match`` deals its own (``Position.start_round``); with ``episode=game`` the next
round's deck is drawn when a round has been scored, and the deal passes on as in
``Match.next_round``.

**Players and actions.** OpenSpiel's player ``p`` is seat ``p``. The actions are
:mod:`casino.env.actions`' (``card * 64 + slot``, 3,328 in all), the same as the
PettingZoo environment's, so a policy moves between the two unchanged.

**What a player is told.** ``observation_string`` is the JSON of
``Position.observation(seat)`` (docs/position.md §1.4); ``observation_tensor`` is
:mod:`casino.env.observation`'s 1,094 numbers, made from that observation alone.
``information_state_string`` (perfect recall) adds to the observation the public
history: the text of every move played in every round of the episode, which every
seat saw. No hidden card of another seat and no chance outcome appear in any of
them (the drawn decks are in ``history()``, as in every OpenSpiel game with chance).
There is no information-state tensor: a history of moves has no fixed size.

**Returns** (terminal only, ``ZERO_SUM``): with ``episode=round``, each seat's
side's margin in the round (its points less the mean of the other sides'; the sign
turned in Krypkasino), as in the PettingZoo environment. With ``episode=game``, +1
to each seat of the winning side and -1/(sides - 1) to each other seat, so the
returns sum to 0 (with two sides it is the environment's +1 and -1).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from numpy.typing import NDArray

from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.presets import DEFAULT
from casino.engine.rules import Rules, preset
from casino.engine.scheme import LastCapture, Majority, Mulles, SpadesAbove, Sweeps, scheme
from casino.env.actions import ACTIONS, action_table, describe
from casino.env.aec import round_margins
from casino.env.observation import FIELDS, SIZE, encode_position

#: The registered name.
NAME = "python_casino"
#: The parameters and their defaults.
DEFAULTS: dict[str, Any] = {"rules": DEFAULT.name, "players": 2, "episode": "round"}
#: Distinct chance outcomes: a card id (or, for the cut, a seat).
CHANCE_OUTCOMES = 52
#: The most rounds ``max_game_length`` allows for with ``episode=game``. The rules
#: themselves bound no game's rounds; OpenSpiel asks for a figure.
ROUNDS_BOUND = 100

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Casino (the casino package's engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def utility_bound(rules: Rules) -> float:
    """A bound on a seat's margin in one round (not the extreme, which no one has
    computed): twice everything a side could score, with a sweep or a mulle on every
    card of the deck."""
    sch = scheme(rules)
    total = sum(abs(sch.points_of(c)) for c in range(52)) * rules.decks
    for item in sch.items:
        if isinstance(item, Majority | LastCapture):
            total += abs(item.points)
        elif isinstance(item, Sweeps | Mulles):
            total += abs(item.points) * rules.deck_size
        elif isinstance(item, SpadesAbove):
            total += 13 * rules.decks
    return 2.0 * total


class CasinoGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one ruleset, player count and episode (OpenSpiel's parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        rules = preset(str(given["rules"]), players=int(given["players"]))
        episode = str(given["episode"])
        if episode not in ("round", "game"):
            raise ValueError(f"episode must be 'round' or 'game', not {episode!r}")
        bound = utility_bound(rules) if episode == "round" else 1.0
        rounds = 1 if episode == "round" else ROUNDS_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            # Every move plays a card from a hand, and each card is dealt once a round.
            max_game_length=rules.deck_size * rounds)
        super().__init__(GAME_TYPE, info, params or {})
        self.rules = rules
        self.episode = episode

    def new_initial_state(self) -> CasinoState:
        """The state before the cut: chance picks the first dealer, then draws the deck card
        by card."""
        return CasinoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CasinoObserver:
        """The observer of one seat's view; observations (``perfect_recall=False``) unless
        OpenSpiel asks for information states."""
        return CasinoObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


@dataclass
class _Progress:
    """Everything a state holds. Positions are immutable and shared between copies, so
    cloning a state (OpenSpiel deep-copies its attributes) copies only the lists."""

    rules: Rules
    episode: str
    first_dealer: int | None = None
    drawn: list[int] = field(default_factory=list)
    decks: list[tuple[int, ...]] = field(default_factory=list)
    moves: list[list[Move]] = field(default_factory=list)
    position: Position | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        return _Progress(self.rules, self.episode, self.first_dealer, list(self.drawn),
                         list(self.decks), [list(r) for r in self.moves], self.position)


class CasinoState(pyspiel.State):  # type: ignore[misc]
    """A point of the episode: chance's cut or deck draws, or a seat to move."""

    def __init__(self, game: CasinoGame) -> None:
        super().__init__(game)
        self._p = _Progress(game.rules, game.episode)

    # -- what tools and tests read --------------------------------------------------

    @property
    def position(self) -> Position | None:
        """The full position of the round being played (or last scored); ``None``
        before the first deal. For tools and tests: players get their observation."""
        return self._p.position

    @property
    def first_dealer(self) -> int | None:
        """The seat the cut made the first dealer (None before the cut)."""
        return self._p.first_dealer

    @property
    def decks(self) -> list[tuple[int, ...]]:
        """Each round's deck (top first), as chance drew it."""
        return list(self._p.decks)

    @property
    def moves(self) -> list[list[Move]]:
        """Each round's moves."""
        return [list(r) for r in self._p.moves]

    # -- OpenSpiel's API ------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move; chance while a deck is being drawn or a scored round awaits the
        next; terminal at the episode's end."""
        p = self._p
        if self._terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if p.position is None or p.position.result is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return p.position.to_move

    def is_terminal(self) -> bool:
        """Whether the episode is over: the round scored, or with ``episode=game`` the game
        won."""
        return self._terminal()

    def _terminal(self) -> bool:
        pos = self._p.position
        if pos is None or pos.result is None:
            return False
        return self._p.episode == "round" or pos.result.winner is not None

    def _legal_actions(self, player: int) -> list[int]:
        pos = self._p.position
        if pos is None or pos.result is not None or player != pos.to_move:
            return []
        return sorted(action_table(pos.observe(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At the cut every seat with probability 1/players; then each card id with the
        copies left over the cards left, as a draw without replacement."""
        p = self._p
        if p.first_dealer is None:
            n = p.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        left = Counter(dict.fromkeys(range(52), p.rules.decks))
        left.subtract(p.drawn)
        total = p.rules.deck_size - len(p.drawn)
        return [(card, left[card] / total) for card in range(52) if left[card] > 0]

    def _apply_action(self, action: int) -> None:
        p = self._p
        if self.is_chance_node():
            self._draw(int(action))
            return
        pos = p.position
        assert pos is not None
        move = action_table(pos.observe(pos.to_move)).get(int(action))
        if move is None:
            raise ValueError(f"{describe(int(action))} is not a legal move now")
        p.position = pos.play(move)
        p.moves[-1].append(move)

    def _draw(self, outcome: int) -> None:
        p = self._p
        if p.first_dealer is None:
            p.first_dealer = outcome
            return
        p.drawn.append(outcome)
        if len(p.drawn) < p.rules.deck_size:
            return
        deck = tuple(p.drawn)
        p.drawn = []
        last = p.position
        if last is None:
            pos = Position.start_round(p.rules, deck, p.first_dealer)
        else:
            assert last.result is not None
            pos = Position.start_round(p.rules, deck, p.rules.next_seat(last.dealer),
                                       round=last.round + 1, scores=last.result.scores,
                                       carry=last.next_carry())
        p.decks.append(deck)
        p.moves.append([])
        p.position = pos

    def _action_to_string(self, player: int, action: int) -> str:
        from casino.engine.cards import card_text

        if player == pyspiel.PlayerId.CHANCE:
            if self._p.first_dealer is None:
                return f"cut: seat {action} deals"
            return f"draw {card_text(int(action))}"
        pos = self._p.position
        if pos is not None and pos.result is None and player == pos.to_move:
            move = action_table(pos.observe(player)).get(int(action))
            if move is not None:
                return str(move)
        return describe(int(action))

    def returns(self) -> list[float]:
        """Each seat's return at the end (0 before): its side's margin in the round, or with
        ``episode=game`` +1 for the winners and -1/(sides - 1) for the others, so that they
        sum to 0."""
        p = self._p
        n = p.rules.players
        if not self._terminal():
            return [0.0] * n
        pos = p.position
        assert pos is not None and pos.result is not None
        if p.episode == "round":
            margins = round_margins(p.rules, pos)
            return [margins[seat] for seat in range(n)]
        winner = pos.result.winner
        others = len(p.rules.teams) - 1
        return [1.0 if p.rules.team_of(seat) == winner else -1.0 / others
                for seat in range(n)]

    def __str__(self) -> str:
        pos = self._p.position
        if pos is None:
            return f"shuffling: {len(self._p.drawn)} cards drawn"
        return str(pos)

    # -- what a seat is told ----------------------------------------------------------

    def observation_text(self, seat: int) -> str:
        """The seat's observation as JSON text; before the first deal, the cards drawn
        so far (a count: chance's outcomes are nobody's to see)."""
        pos = self._p.position
        if pos is None:
            cut = "" if self._p.first_dealer is None else f", dealer {self._p.first_dealer}"
            return f"seat {seat}: shuffling, {len(self._p.drawn)} cards drawn{cut}"
        return json.dumps(pos.observation(seat), separators=(",", ":"), sort_keys=True)

    def history_text(self) -> str:
        """Every move of the episode, round by round: public, since every seat saw it."""
        return " / ".join(f"round {i + 1}: " + " | ".join(str(m) for m in moves)
                          for i, moves in enumerate(self._p.moves))

    def observed(self, seat: int) -> Position | None:
        """What ``seat`` sees now (None before the first deal)."""
        pos = self._p.position
        return None if pos is None else pos.observe(seat)


class CasinoObserver:
    """OpenSpiel's Python observer (``open_spiel/python/observation.py``): the tensor
    and string of one seat's view.

    With ``perfect_recall=False`` (observations): the tensor is
    :mod:`casino.env.observation`'s array, also in ``dict`` by field name, and the
    string the observation's JSON. With ``perfect_recall=True`` (information states):
    the string adds the episode's public moves; there is no tensor. Only what the
    seat itself may see is offered (``private_info`` single player, public info on)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("python_casino observes what one seat sees: private_info "
                             "SINGLE_PLAYER with public_info")
        self._recall = bool(iig_obs_type.perfect_recall)
        self.tensor: NDArray[np.float32] | None
        self.dict: dict[str, NDArray[np.float32]] = {}
        if self._recall:
            self.tensor = None
        else:
            self.tensor = np.zeros(SIZE, np.float32)
            for f in FIELDS.values():
                self.dict[f.name] = self.tensor[f.offset:f.offset + f.size]

    def set_from(self, state: CasinoState, player: int) -> None:
        """Fill the tensor with ``player``'s observation array (zeros before the first
        deal); information states have no tensor."""
        if self.tensor is None:
            return
        seen = state.observed(player)
        if seen is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = encode_position(seen, player)

    def string_from(self, state: CasinoState, player: int) -> str:
        """The JSON of ``player``'s observation, and for information states the episode's
        public moves after it."""
        text = state.observation_text(player)
        if self._recall:
            return f"{text}\nmoves: {state.history_text()}"
        return text


pyspiel.register_game(GAME_TYPE, CasinoGame)
