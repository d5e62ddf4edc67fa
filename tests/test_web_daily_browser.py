"""The daily deal in a real browser (headless Debian Chromium, as
tests/test_web_browser.py): two guests, Ann and Bob, each in a browser of their own,
choose their names on /daily and play today's Casino deal to the end; each is shown the
results only once they have played, and then both names.

The players' moves are played on the server (the first listed move of each turn; the
expert plays its own), so the round passes in seconds; their pages stay open and show
the round's end. Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

from casino.web.daily import PLAY_FIRST, PLAYER_SEAT  # noqa: E402
from casino.web.store import OVER  # noqa: E402

pytestmark = pytest.mark.timeout(240)
WAIT_MS = 30_000
#: Moves and waits before the test gives up on the round ending.
MAX_STEPS = 4000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


async def _step(server: LiveServer, game_id: str) -> bool:
    """The player's move when it is their turn (the first listed), else a short wait for
    the expert's; False once the game is over."""
    service = server.app.state.service
    game = await service.live.get(game_id)
    if game.status == OVER:
        return False
    pos = game.session.match.position
    if pos.result is None and pos.to_move == PLAYER_SEAT:
        move = pos.observe(PLAYER_SEAT).candidate_moves().moves[0]
        await service.turns.play(game, PLAYER_SEAT, str(move))
    else:
        await asyncio.sleep(0.05)
    return True


def _start(page: Page, server: LiveServer, name: str) -> str:
    """Choose the browser's name on /daily and play today's Casino deal: its game id."""
    page.goto(server.base + "/daily")
    page.fill("#daily-name", name)
    page.click("button.daily-play[data-rules=casino]")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
    return page.url.rsplit("/", 1)[1]


def _play(page: Page, server: LiveServer, game_id: str) -> None:
    steps = 0
    while server.run(_step(server, game_id)):
        steps += 1
        assert steps < MAX_STEPS, "the deal did not end"
    page.wait_for_function(
        "() => document.getElementById('game').dataset.status === 'over'", timeout=WAIT_MS)


def test_two_browsers_play_the_daily_deal_and_see_the_results_after(
        server: LiveServer, browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850})
                for _ in range(2)]
    try:
        ann, bob = (ctx.new_page() for ctx in contexts)
        errors = watch(ann) + watch(bob)
        today = server.app.state.service.daily.today()
        results = f"{server.base}/daily/{today}/casino"
        ann_game = _start(ann, server, "Ann")
        bob_game = _start(bob, server, "Bob")
        assert ann_game != bob_game
        # Nobody has played it to the end: neither is shown the results.
        for page in (ann, bob):
            other = page.context.new_page()
            other.goto(results)
            assert PLAY_FIRST in other.inner_text("main")
            assert other.locator("#daily-guests").count() == 0
            other.close()
        _play(ann, server, ann_game)
        assert "The daily deal is over: your margin is" in ann.inner_text("#round-end")
        assert "The daily deal: one round" in ann.inner_text("#scores")
        assert ann.locator("#rematch-button").count() == 0
        ann.click("#daily-results")
        ann.wait_for_url(results, timeout=WAIT_MS)
        assert ann.locator("#daily-guests .daily-result").all_inner_texts()[0].startswith("Ann")
        assert "not ranked with accounts" in ann.inner_text("main")
        # Bob has not finished: still nothing for him, not even Ann's name.
        bob_results = bob.context.new_page()
        bob_results.goto(results)
        assert PLAY_FIRST in bob_results.inner_text("main")
        assert "Ann" not in bob_results.inner_text("main")
        _play(bob, server, bob_game)
        bob.click("#daily-results")
        bob.wait_for_url(results, timeout=WAIT_MS)
        names = [t.split("\t")[0].strip()
                 for t in bob.locator("#daily-guests .daily-result").all_inner_texts()]
        assert sorted(names) == ["Ann", "Bob"]
        # The other's game is not linked before the day is over; one's own is.
        html = bob.content()
        assert f"/records/{bob_game}" in html and ann_game not in html
        # Back on /daily, each is offered the results, no more a game to play.
        ann.goto(server.base + "/daily")
        assert ann.locator("tr[data-rules=casino] a", has_text="See results").count() == 1
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
