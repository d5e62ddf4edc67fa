"""Draw ``docs/images/terminal-game.svg``: the terminal game in progress, for docs/usage.md.

Run it from the repository's root with ``.venv/bin/python docs/images/make_terminal_screenshot.py``.
The game is seeded, the computer plays at the rule-based ``easy`` level and
the person's moves follow a fixed rule, so the picture changes only when the
screen's design does. It stops at a turn where a build is on the table and a
card of the hand has several options, picks that card and a table card as a
person would, and saves the screen.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from casino.engine.moves import Move
from casino.engine.rules import preset
from casino.play.session import GameSession
from casino.tui.app import CasinoApp
from casino.tui.screens import RoundOverScreen
from casino.tui.widgets import HAND_KEYS, TABLE_KEYS

OUT = Path(__file__).with_name("terminal-game.svg")
SEED = 33
SIZE = (120, 40)


def choose(moves: list[Move]) -> Move:
    """The person's rule: build when possible, else take the most cards, else trail."""
    builds = [m for m in moves if m.kind == "build"]
    if builds:
        return builds[0]
    captures = [m for m in moves if m.kind == "capture"]
    if captures:
        return max(captures, key=lambda m: len(m.loose) + sum(len(b.cards) for b in m.builds))
    return moves[0]


def good_moment(session: GameSession) -> int | None:
    """The hand card to pick when the table is worth a picture, else None."""
    view = session.view
    if not view.builds or len(view.table) < 4 or len(session.log) < 6:
        return None
    hand = view.hands[session.human]
    assert isinstance(hand, tuple)
    counts = [len(session.moves_with(c)) for c in hand]
    best = max(range(len(hand)), key=lambda i: counts[i])
    return best if counts[best] >= 3 else None


async def main() -> None:
    session = GameSession.new(preset("casino"), level="easy", seed=SEED, autosave=False)
    app = CasinoApp(session, None, pause=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, RoundOverScreen):
                sys.exit("the round ended before a good moment: change SEED")
            if app.game.phase != "human":
                continue
            pick = good_moment(app.session)
            if pick is not None:
                await pilot.press(HAND_KEYS[pick])
                # Choose a table card of the first option, as a person would next.
                first = app.game.options[0]
                table = app.game.view.table
                if first.loose:
                    await pilot.press(TABLE_KEYS[table.index(first.loose[0])])
                break
            ok = await app.game.play(choose(app.session.legal_moves()))
            assert ok, app.game.message
        else:
            sys.exit("no good moment found: change SEED")
        await pilot.pause()
        app.save_screenshot(OUT.name, str(OUT.parent))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
