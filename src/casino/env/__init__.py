"""Casino for AI research: a PettingZoo AEC environment and a Gymnasium wrapper.

Needs the ``research`` extra (``pip install 'casino[research]'``); docs/research.md
says how to use them. ``env`` and ``raw_env`` follow PettingZoo's conventions;
:class:`SingleAgentEnv` puts one learner at a table of the project's bots.
"""

from __future__ import annotations

from casino.env.aec import allowed_actions, env, raw_env
from casino.env.single import SingleAgentEnv

__all__ = ["SingleAgentEnv", "allowed_actions", "env", "raw_env"]
