"""A Gymnasium single-agent environment: the learner plays one seat, the project's
bots the others.

``SingleAgentEnv("classic", players=4, seat=0, level="easy")`` is a
``gymnasium.Env`` over the AEC environment (:mod:`casino.env.aec`) with the same
observation (a dict of the encoded view and the action mask), the same actions and
the same rewards, the learner's. The other seats are bots of a player level
(``casino.bots.levels.LEVELS``: beginner, easy, medium, hard, expert), each choosing
from its own observation only, exactly as in the games people play; with
``episode="game"`` the rounds follow one another until the game ends. A reset with a
seed deals the same cards and seeds the bots, so with a level whose limit counts
samples rather than seconds (beginner, easy) the whole episode repeats.

Any action of the space may be stepped, as Gymnasium expects: an action the mask does
not allow ends the episode at once with ``illegal_reward`` (-1 unless given) and
``info["illegal"]`` true, as PettingZoo's ``TerminateIllegalWrapper`` does.
"""

from __future__ import annotations

import copy
from typing import Any, SupportsFloat

import gymnasium

from casino.bots.base import Bot, Limit
from casino.bots.levels import make_level
from casino.engine.presets import DEFAULT
from casino.engine.rules import Rules
from casino.env.aec import Episode, ObsDict, agent_name, raw_env


class SingleAgentEnv(gymnasium.Env[ObsDict, int]):
    """One learner at ``seat``, bots of ``level`` elsewhere (partners too)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012

    def __init__(self, rules: Rules | str = DEFAULT.name, players: int | None = None, *,
                 seat: int = 0, level: str = "beginner", episode: Episode = "round",
                 render_mode: str | None = None, illegal_reward: float = -1.0,
                 **options: Any) -> None:
        self.illegal_reward = illegal_reward
        self._illegal = False
        self.aec = raw_env(rules, players, episode=episode, render_mode=render_mode,
                           **options)
        if not 0 <= seat < self.aec.rules.players:
            raise ValueError(f"seat must be from 0 to {self.aec.rules.players - 1}")
        make_level(level)  # an unknown level fails here, not at the first reset
        self.seat = seat
        self.level = level
        self.agent = agent_name(seat)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bots: dict[int, tuple[Bot, Limit]] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[ObsDict, dict[str, Any]]:
        """A new episode: the game dealt from ``seed`` (as the AEC environment's), the bots
        seeded from it too, and played until the learner's first turn."""
        super().reset(seed=seed)
        self._illegal = False
        self.aec.reset(seed=seed)
        base = int(self.np_random.integers(2**31))
        self._bots = {s: make_level(self.level, seed=base + s)
                      for s in self.aec.rules.seats if s != self.seat}
        self._bots_play()
        return self.aec.observe(self.agent), self._info()

    def step(self, action: int) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' moves until its next turn or the end;
        the reward is the learner's over all of them. An illegal action ends the episode
        with :attr:`illegal_reward` instead of raising (PettingZoo's
        ``TerminateIllegalWrapper`` does the same)."""
        if self._illegal or self.aec.terminations[self.agent]:
            raise RuntimeError("the episode is over: call reset()")
        if int(action) not in self.aec.legal_actions(self.agent):
            self._illegal = True
            info = self._info()
            info["illegal"] = True
            return (self.aec.observe(self.agent), self.illegal_reward, True, False, info)
        self.aec.step(int(action))
        reward = self.aec.rewards[self.agent]
        reward += self._bots_play()
        done = self.aec.terminations[self.agent]
        return self.aec.observe(self.agent), reward, done, False, self._info()

    def render(self) -> str | None:
        """The AEC environment's rendering: the whole position as text, in the render mode given."""
        return self.aec.render()

    def _bots_play(self) -> float:
        """Let the bots move until it is the learner's turn or the episode ends; the
        learner's reward meanwhile."""
        reward = 0.0
        aec = self.aec
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            seat = aec.position.to_move
            bot, limit = self._bots[seat]
            move = bot.choose(aec.position.observation(seat), limit)
            aec.play_move(move)
            reward += aec.rewards[self.agent]
        return reward

    def _info(self) -> dict[str, Any]:
        # A fresh copy each time: Gymnasium's users may keep and change what they get.
        return copy.deepcopy(self.aec.infos[self.agent])
