"""Casino as a PettingZoo AEC environment (docs/research.md).

``raw_env(rules, players, **options)`` is the environment itself, ``env(...)`` the
same wrapped in PettingZoo's standard wrappers (an illegal action ends the episode
with a penalty of -1 for its agent, actions outside the space are refused, and the
API's order is enforced), as PettingZoo's own card games are.

The agents are ``player_0`` .. ``player_{n-1}``, seat for seat. The game itself is a
:class:`casino.engine.match.Match`, which deals and scores; an agent is told only what
``Position.observation(seat)`` shows it (:mod:`casino.env.observation`), and its
action is decoded against that same observation (:mod:`casino.env.actions`).

**Episodes and rewards.** By default (``episode="round"``) an episode is one round (in
Krypkasino, one game of the match), and at its end each agent is rewarded with its
side's **margin**: the points its side made in the round, less the mean of the
other sides' points; in Krypkasino, whose points are penalties (the lower total
wins), the sign is turned, so fewer penalties are better. With ``episode="game"`` an
episode is the whole game (rounds follow one another without an action), and the
only reward comes at its end: +1 to each agent of the winning side, -1 to every
other agent. Partners share their side's reward in both.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from casino.engine.cards import CARD_TEXTS
from casino.engine.codec import observation_json
from casino.engine.match import Match
from casino.engine.moves import TRAIL, Move, move_text
from casino.engine.position import Position
from casino.engine.presets import DEFAULT
from casino.engine.rules import Rules, preset
from casino.env.actions import ACTIONS, action_table, describe
from casino.env.observation import SIZE, Encoded, bounds, encode_bytes, to_array

Episode = Literal["round", "game"]
ObsDict = dict[str, NDArray[Any]]


def observation_space() -> spaces.Dict:
    """The space of one agent's observation: the encoded view and the action mask."""
    low, high = bounds()
    return spaces.Dict({
        "observation": spaces.Box(low=low, high=high, shape=(SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
    })


def round_margins(rules: Rules, pos: Position) -> list[float]:
    """Each seat's reward for the scored round ``pos``: its side's points less the mean
    of the other sides' points, the sign turned where points are penalties (Krypkasino).
    The margins sum to 0 over the sides (and, sides being of one size, over the seats)."""
    assert pos.result is not None
    points = pos.result.points_by_seat(rules.players)
    sign = -1.0 if rules.win_rule == "lower-after-games" else 1.0
    out: list[float] = []
    for seat in rules.seats:
        side = rules.team_of(seat)
        others = [points[t] for t in rules.teams if t != side]
        out.append(sign * (points[side] - sum(others) / len(others)))
    return out


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``: ``player_0``, ``player_1``..."""
    return f"player_{seat}"


#: The mask of an agent that is not to move (read only; each mask starts as its copy).
_NO_ACTION = np.zeros(ACTIONS, dtype=np.int8)
_NO_ACTION.flags.writeable = False


def allowed_actions(mask: NDArray[Any]) -> list[int]:
    """The actions an ``action_mask`` allows, in increasing order.

    The same list as ``np.flatnonzero(mask).tolist()``, found about four times faster:
    an int8 mask of 0s and 1s is read as booleans, and numpy finds the nonzero entries
    of a boolean array far faster than of an int8 one (about 2 µs against 9 for the
    3,328 entries, a sixth of a step of the environment)."""
    if mask.dtype == np.int8 and mask.ndim == 1:
        return list(mask.view(np.bool_).nonzero()[0].tolist())
    return list(np.flatnonzero(mask).tolist())


class _Now:
    """What the env has derived from one position for its agents, each part made when
    first asked: the mover's action table, each seat's array (as bytes), and from them
    the masks and arrays each learner gets.

    The env keeps it for its position now (one attribute read a step) rather than in
    ``Position.memo`` (a call and a closure per part and step; the action table itself
    is still kept there, where :func:`action_table` finds it). The actions are listed
    from the whole position, which gives the mover exactly the moves of its own
    observation (a mover's moves read only its hand, the table and the rules;
    tests/test_env.py checks the masks against the observation's legal moves): so the
    position keeps the moves it lists, and the move an action plays is then checked as
    legal by a look-up in them, not judged again."""

    __slots__ = ("arrays", "mover", "pos", "table")

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        #: The seat whose actions there are: the seat to move, -1 once the round is over.
        self.mover = pos.to_move if pos.result is None else -1
        self.table: dict[int, Move] | None = None
        self.arrays: dict[int, Encoded] = {}

    def actions(self, seat: int) -> dict[int, Move]:
        """The allowed actions of ``seat`` (empty unless it is to move) with their
        moves (the dict kept: do not change it)."""
        if seat != self.mover:
            return {}
        table = self.table
        if table is None:
            table = self.table = action_table(self.pos)
        return table

    def action_mask(self, seat: int) -> NDArray[np.int8]:
        """The mask of ``seat``, a new array at each call: a copy of the empty mask with
        the allowed actions set one by one, which costs less than keeping a mask and
        copying it for each learner (a step's few actions against numpy's per-call
        costs)."""
        mask = _NO_ACTION.copy()
        if seat == self.mover:
            for action in self.actions(seat):
                mask[action] = 1
        return mask

    def array(self, seat: int) -> NDArray[np.float32]:
        """The array of ``seat``, a new one at each call. Its entries are kept as bytes
        (``observation.encode_bytes``), from which one numpy call makes the array: a
        learner gets an array of its own without a copy of a kept one. Read from the
        whole position: the encoding reads only what the seat sees (its hand, the
        others' hand sizes), so no observed position is made."""
        encoded = self.arrays.get(seat)
        if encoded is None:
            encoded = self.arrays[seat] = encode_bytes(self.pos, seat)
        return to_array(encoded)


def _move_texts(table: dict[int, Move]) -> dict[int, str]:
    """Each action's move text, ``str(move)``, for the infos.

    A trail's text is its card's. Any other move's text
    (:func:`casino.engine.moves.move_text`) is written from its kind, card, groups and
    value, and the text of the build it takes or changes, which is written from the
    build's groups and, where it has a twin, its owner. The same move comes back turn
    after turn while the table and the hand hold it (over half the moves of random
    play, in every preset, and nearly all of them once a learner has played a while):
    so its text is kept per those, and written once. A capture of several builds is
    written each time. ``tests/test_env_fast.py`` checks the texts against
    ``str(move)``."""
    out: dict[int, str] = {}
    texts = _TEXTS
    for action, m in table.items():
        if m.kind == TRAIL:  # a trail is written as its card (docs/notation.md)
            out[action] = CARD_TEXTS[m.card]
            continue
        builds = m.builds
        if not builds:
            key: tuple[object, ...] = (m.kind, m.card, m.groups, m.value)
        elif len(builds) == 1:
            b = builds[0]
            key = (m.kind, m.card, m.groups, m.value, b.groups,
                   b.owner if b.owner_shown else -1)
        else:
            out[action] = move_text(m)
            continue
        text = texts.get(key)
        if text is None:
            if len(texts) >= _TEXTS_KEPT:
                texts.clear()
            text = texts[key] = move_text(m)
        out[action] = text
    return out


_TEXTS: dict[tuple[object, ...], str] = {}
#: Texts kept at most before the store starts afresh (a few MB).
_TEXTS_KEPT = 1 << 15


# PettingZoo's AECEnv is untyped (Any) to mypy; the class name is PettingZoo's convention.
class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped environment: ``raw_env("kasino", players=3, episode="game")``.

    ``rules`` is a preset name (options as keywords, as for ``Rules.preset``) or a
    :class:`Rules` value; ``players`` the number of seats (the preset's own when
    ``None``); ``render_mode`` ``"human"`` (print) or ``"ansi"`` (return the text).
    The agent to act gets its info (its JSON observation and its moves' texts), the
    others an empty one until they are to act, and every agent its final observation
    once the episode is over; ``infos=False`` leaves every info empty, for learners
    that read only the array and the mask (a step about a quarter cheaper)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"],
                                          "name": "casino_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules | str = DEFAULT.name, players: int | None = None, *,
                 episode: Episode = "round", render_mode: str | None = None,
                 infos: bool = True,
                 **options: Any) -> None:
        super().__init__()
        if isinstance(rules, Rules):
            if options or players not in (None, rules.players):
                raise ValueError("give options either in the Rules value or as keywords")
            self.rules = rules
        else:
            if players is not None:
                options["players"] = players
            self.rules = preset(rules, **options)
        if episode not in ("round", "game"):
            raise ValueError(f"episode must be 'round' or 'game', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.episode: Episode = episode
        self.render_mode = render_mode
        self.json_infos = infos
        self.possible_agents = [agent_name(s) for s in self.rules.seats]
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._agent_of = tuple(self.possible_agents)  # seat -> agent
        self._rng: random.Random | None = None
        self.match: Match | None = None
        self._now: _Now | None = None

    # -- PettingZoo's API -----------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same for every agent): the array and the
        action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: ``card * 64 + slot`` (:mod:`casino.env.actions`), legal
        ones given by the mask."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: with ``seed``, the first dealer and every deck are those of
        ``Match(rules, seed=...)`` for a seed drawn from ``seed``, so the same seed deals
        the same cards; later resets without a seed go on from that generator."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.match = Match(self.rules, seed=self._rng.randrange(2**63))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self._agent_of[self.match.position.to_move]
        self._update_infos(False)

    def observe(self, agent: str) -> ObsDict:
        """What ``agent`` sees now: the array of its observation and its action mask, new
        arrays each call, so that a learner may change them."""
        seat = self._seat[agent]
        now = self._derived()
        # New arrays: a learner may change what it gets.
        return {"observation": now.array(seat), "action_mask": now.action_mask(seat)}

    def step(self, action: int | None) -> None:
        """Play the action of the agent to move; an agent that is done steps with None. An
        action the mask does not allow is refused with a ValueError that names it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents that are done")
        move = self._derived().actions(self._seat[agent]).get(int(action))
        if move is None:
            raise ValueError(f"{describe(int(action))} is not a legal move of {agent} now")
        self._play(move, listed=True)

    def play_move(self, move: Move) -> None:
        """Play ``move`` (legal for the agent to move; checked) as a step: what
        :meth:`step` does once it has decoded its action. The Gymnasium wrapper's bots
        play through it, since a bot may pick a move the action encoding does not
        number."""
        self._play(move, listed=False)

    def _play(self, move: Move, *, listed: bool) -> None:
        """A step; a ``listed`` move comes from the position's own action table, so the
        engine does not check it again (``Match.play_listed``)."""
        match = self._match()
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if listed:
            match.play_listed(move)
        else:
            match.play(move)
        pos = match.position
        over = False
        if pos.result is not None:
            if self.episode == "round":
                self._reward_round(pos)
                over = True
            elif match.is_over:
                self._reward_game(match)
                over = True
            else:
                pos = match.next_round()
        self.agent_selection = self._agent_of[pos.to_move]
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            # Only an episode's end rewards; before it every reward and cumulative
            # reward is 0.0, which adding would leave as it is.
            self._accumulate_rewards()
        self._update_infos(over)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The whole position as text (every hand shown: it is for the person watching,
        never given to an agent)."""
        if self.render_mode is None:
            return None
        text = str(self.position)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""
        pass

    # -- what the env adds -------------------------------------------------------

    @property
    def position(self) -> Position:
        """The full position now (for tools and tests; agents see their observation)."""
        return self._match().position

    def legal_actions(self, agent: str) -> dict[int, Move]:
        """The allowed actions of ``agent`` with the moves they play (empty when it is
        not the agent's turn)."""
        return dict(self._derived().actions(self._seat[agent]))

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _derived(self) -> _Now:
        """What is derived from the position now (made afresh once the position
        changes, however it changed)."""
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        pos = self.match.position
        now = self._now
        if now is None or now.pos is not pos:
            now = self._now = _Now(pos)
        return now

    def _update_infos(self, over: bool | None = None) -> None:
        """The info of the agent to act: its JSON observation and its moves' texts; every
        other agent's info is empty until it is to act (PettingZoo's ``last()`` reads the
        selected agent's). Once the episode is ``over`` (``None``: every agent is
        terminated), every agent gets its final JSON observation. Writing the JSON of
        every seat at every step cost a quarter of a step (docs/benchmarks.md, "The
        research environment")."""
        if over is None:  # tools that set a position and ask for its infos (an audit's)
            over = all(self.terminations.values())
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:  # a loop: a comprehension is a call more
            infos[agent] = {}
        self.infos = infos
        if not self.json_infos:
            return
        now = self._derived()
        pos = now.pos
        for agent in self.agents if over else (self.agent_selection,):
            seat = self._seat[agent]
            info: dict[str, Any] = {"observation": observation_json(pos, seat)}
            if seat == now.mover:
                info["moves"] = _move_texts(now.actions(seat))
            infos[agent] = info

    def _reward_round(self, pos: Position) -> None:
        margins = round_margins(self.rules, pos)
        for agent in self.agents:
            self.rewards[agent] = margins[self._seat[agent]]

    def _reward_game(self, match: Match) -> None:
        winner = match.winner
        for agent in self.agents:
            won = self.rules.team_of(self._seat[agent]) == winner
            self.rewards[agent] = 1.0 if won else -1.0


def env(rules: Rules | str = DEFAULT.name, players: int | None = None, **options: Any
        ) -> Any:
    """:class:`raw_env` in PettingZoo's standard wrappers (an illegal action ends the
    episode, -1 to its agent; out-of-space actions are refused; the API order is
    enforced)."""
    e = raw_env(rules, players, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
