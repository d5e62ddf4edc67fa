"""``raw_env(..., infos=False)``: the same game, arrays, masks and rewards, empty infos."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from casino.env import raw_env


@pytest.mark.parametrize("name", ["casino", "krypkasino"])
def test_lean_env_plays_the_same_episode_with_empty_infos(name: str) -> None:
    full, lean = raw_env(name), raw_env(name, infos=False)
    full.reset(seed=5)
    lean.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in full.agent_iter():
        assert lean.agent_selection == agent
        a, b = full.last(), lean.last()
        assert np.array_equal(a[0]["observation"], b[0]["observation"])
        assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
        assert a[1:4] == b[1:4] and b[4] == {}
        done = a[2] or a[3]
        action = None if done else int(rng.choice(np.flatnonzero(a[0]["action_mask"])))
        full.step(action)
        lean.step(action)
    assert lean.agents == []
