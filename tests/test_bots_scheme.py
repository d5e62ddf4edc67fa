"""The bots choose the same moves now that their card points come from the scoring
scheme (casino.engine.scheme) rather than their own copies.

The choices below were recorded on main before the change, on fixed seeded
positions of every preset (a few random moves into a seeded deal), with seeded bots
and iteration limits (never time limits), so they are reproducible. A change that
moves any of them changed what a bot values, not just where it reads it from.
"""

from __future__ import annotations

import random

import pytest

from casino import Match
from casino.bots import make_bot
from casino.bots.base import Limit

#: Counted limits, with time to spare: a bot's default seconds would let a loaded
#: machine cut its samples short and change its choice (tablic's pimc did, in CI).
LIMITS = {"greedy": None, "careful": None, "expert": Limit(iterations=6, seconds=60),
          "pimc": Limit(iterations=8, seconds=60), "ismcts": Limit(iterations=60, seconds=60)}

RECORDED: dict[str, str] = {
 "casino/1/greedy": "5d",
 "casino/1/careful": "2c+3d =5",
 "casino/1/expert": "2c+3d =5",
 "casino/1/pimc": "2c+3d =5",
 "casino/1/ismcts": "2c+3d =5",
 "casino/2/greedy": "Qc x 8d+4d",
 "casino/2/careful": "Qc x 8d+4d",
 "casino/2/expert": "Qc x 8d+4d",
 "casino/2/pimc": "Qc x 8d+4d",
 "casino/2/ismcts": "Qc x 8d+4d",
 "krypkasino/1/greedy": "9s",
 "krypkasino/1/careful": "8c",
 "krypkasino/1/expert": "3h",
 "krypkasino/1/pimc": "9s",
 "krypkasino/1/ismcts": "9s",
 "krypkasino/2/greedy": "7s",
 "krypkasino/2/careful": "7s",
 "krypkasino/2/expert": "3c",
 "krypkasino/2/pimc": "7s",
 "krypkasino/2/ismcts": "7s",
 "kasino/1/greedy": "4d x 3c+Ah",
 "kasino/1/careful": "4d x 3c+Ah",
 "kasino/1/expert": "4d x 3c+Ah",
 "kasino/1/pimc": "4d x 3c+Ah",
 "kasino/1/ismcts": "4d x 3c+Ah",
 "kasino/2/greedy": "5h x 3c+2d",
 "kasino/2/careful": "5h x 3c+2d",
 "kasino/2/expert": "5h x 3c+2d",
 "kasino/2/pimc": "5h x 3c+2d",
 "kasino/2/ismcts": "5h x 3c+2d",
 "classic/1/greedy": "6h x 3d+3c",
 "classic/1/careful": "6h x 3d+3c",
 "classic/1/expert": "6h x 3d+3c",
 "classic/1/pimc": "6h x 3d+3c",
 "classic/1/ismcts": "2c+3d =5",
 "classic/2/greedy": "5h",
 "classic/2/careful": "5h",
 "classic/2/expert": "5h",
 "classic/2/pimc": "5h",
 "classic/2/ismcts": "5h",
 "royal/1/greedy": "5d",
 "royal/1/careful": "2c+3d =5",
 "royal/1/expert": "2c+3d =5",
 "royal/1/pimc": "2c+3d =5",
 "royal/1/ismcts": "2c+3d =5",
 "royal/2/greedy": "Qc x 8d+4d",
 "royal/2/careful": "Qc x 8d+4d",
 "royal/2/expert": "Qc x 8d+4d",
 "royal/2/pimc": "Qc x 8d+4d",
 "royal/2/ismcts": "Qc x 8d+4d",
 "spade/1/greedy": "6h x 3d+3c",
 "spade/1/careful": "6h x 3d+3c",
 "spade/1/expert": "6h x 3d+3c",
 "spade/1/pimc": "6h x 3d+3c",
 "spade/1/ismcts": "6h x 3d+3c",
 "spade/2/greedy": "5h",
 "spade/2/careful": "5h",
 "spade/2/expert": "5h",
 "spade/2/pimc": "5h",
 "spade/2/ismcts": "5h",
 "faces-all/1/greedy": "6h x 3d+3c",
 "faces-all/1/careful": "6h x 3d+3c",
 "faces-all/1/expert": "6h x 3d+3c",
 "faces-all/1/pimc": "6h x 3d+3c",
 "faces-all/1/ismcts": "2c+3d =5",
 "faces-all/2/greedy": "5h",
 "faces-all/2/careful": "5h",
 "faces-all/2/expert": "5h",
 "faces-all/2/pimc": "5h",
 "faces-all/2/ismcts": "5h",
 "mulle/1/greedy": "9c x 9c",
 "mulle/1/careful": "9c x 9c",
 "mulle/1/expert": "9c x 9c",
 "mulle/1/pimc": "9c x 9c",
 "mulle/1/ismcts": "9c x 9c",
 "mulle/2/greedy": "5d x [5s 5d]",
 "mulle/2/careful": "5d x [5s 5d]",
 "mulle/2/expert": "5d x [5s 5d]",
 "mulle/2/pimc": "5d x [5s 5d]",
 "mulle/2/ismcts": "5d x [5s 5d]",
 "tablic/1/greedy": "Tc x 9s+Ad",
 "tablic/1/careful": "Tc x 9s+Ad",
 "tablic/1/expert": "Tc x 9s+Ad",
 "tablic/1/pimc": "Tc x 9s+Ad",
 "tablic/1/ismcts": "Tc x 9s+Ad",
 "tablic/2/greedy": "Qs x Qc",
 "tablic/2/careful": "Qs x Qc",
 "tablic/2/expert": "Qs x Qc",
 "tablic/2/pimc": "Qs x Qc",
 "tablic/2/ismcts": "Qs x Qc"
}


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_bot_choice_as_recorded(key: str) -> None:
    name, seed_text, bot = key.split("/")
    seed = int(seed_text)
    m = Match(name, seed=seed)
    rng = random.Random(seed)
    for _ in range({1: 3, 2: 14}[seed]):
        if m.position.result is not None:
            break
        m.play(rng.choice(m.legal_moves()))
    p = m.position
    move = make_bot(bot, seed=7).choose(p.observation(p.to_move), LIMITS[bot])
    assert str(move) == RECORDED[key]
