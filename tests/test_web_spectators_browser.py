"""A spectator in a real browser (headless Debian Chromium, as tests/test_web_browser.py):
Ann makes a room that may be watched from the lobby's form, Bob joins by the invite,
and Carl, a third browser, finds the game under the lobby's Live games, follows its
Watch link and watches it to its end, never shown a hand (issue 47).

The two players' moves are played on the server (the first listed move of each turn),
so the whole game passes in seconds; their pages stay open and are told that someone
watches. Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

from casino.engine.cards import card_symbol, card_text, parse_card  # noqa: E402
from casino.web.store import OVER  # noqa: E402

pytestmark = pytest.mark.timeout(180)
WAIT_MS = 20_000
#: Moves and deals the players make before the test gives up on the game ending.
MAX_STEPS = 2000
#: Parts of the game page that show history: a card named there was seen by everyone.
HISTORY = ("#log", "#last-move", "#toasts", "#round-end", "#scores")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


async def _step(server: LiveServer, game_id: str) -> bool:
    """One move of the seat to move (its first listed move), or the next round's deal;
    False once the game is over."""
    service = server.app.state.service
    game = await service.live.get(game_id)
    if game.status == OVER:
        return False
    pos = game.session.match.position
    if pos.result is not None:
        await service.turns.next_round(game, 0)
    else:
        seat = pos.to_move
        await service.turns.play(game, seat, str(pos.observe(seat).candidate_moves().moves[0]))
    return True


async def _hidden(server: LiveServer, game_id: str) -> tuple[int, list[str]]:
    """The game's version and every card held or still to be dealt now."""
    game = await server.app.state.service.live.get(game_id)
    pos = game.session.match.position
    cards = [c for h in pos.hands if isinstance(h, tuple) for c in h]
    cards += list(pos.stock) if isinstance(pos.stock, tuple) else []
    return game.version, [card_text(c) for c in cards]


def assert_no_hand_shown(page: Page, server: LiveServer, game_id: str) -> None:
    """Once the page shows the game's version now, no card of a hand or of the stock is in
    its HTML or text (its history parts aside: they name cards played long ago)."""
    version, hidden = server.run(_hidden(server, game_id))
    page.wait_for_function(
        f"() => Number(document.getElementById('game').dataset.version) >= {version}",
        timeout=WAIT_MS)
    html, text = page.evaluate(
        """(history) => {
             const doc = document.documentElement.cloneNode(true);
             for (const sel of history) doc.querySelectorAll(sel).forEach((e) => e.remove());
             return [doc.outerHTML, doc.textContent]; }""", list(HISTORY))
    for t in hidden:
        assert f"/svg/card/{t}.svg" not in html and f'"{t}"' not in html, t
        symbol = card_symbol(parse_card(t))
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(symbol)}", text), t


def test_a_spectator_watches_a_live_game_to_its_end(server: LiveServer,
                                                    browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850})
                for _ in range(3)]
    try:
        ann, bob, carl = (ctx.new_page() for ctx in contexts)
        errors = watch(ann) + watch(bob) + watch(carl)
        ann.goto(server.base + "/")
        ann.check("input[name=mode][value=friends]")
        ann.fill("#name-input", "Ann")
        assert not ann.is_checked("#spectators-check")  # a casual room: off by default
        ann.check("#spectators-check")
        ann.click("#start-button")
        ann.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
        game_id = ann.url.rsplit("/", 1)[1]
        ann.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        bob.goto(ann.input_value("#invite-link"))
        bob.fill("#join-name", "Bob")
        bob.click("#join-button")
        bob.wait_for_url(re.compile(rf".*/game/{game_id}$"), timeout=WAIT_MS)
        # Carl finds the game in the lobby's live games.
        carl.goto(server.base + "/")
        carl.wait_for_selector(f"#live-games a[href='/watch/{game_id}']", timeout=WAIT_MS)
        carl.click(f"#live-games a[href='/watch/{game_id}']")
        carl.wait_for_url(re.compile(rf".*/watch/{game_id}$"), timeout=WAIT_MS)
        carl.wait_for_function(
            "() => document.getElementById('game').dataset.status === 'playing'",
            timeout=WAIT_MS)
        assert carl.is_hidden("#me") and carl.is_hidden(".controls")
        assert carl.locator("#hand .hand-card").count() == 0
        assert "You are watching Ann and Bob play" in carl.inner_text("#status")
        assert carl.locator(".opponents .seat-box").count() == 2
        for page in (ann, bob, carl):
            page.wait_for_function(
                "() => document.getElementById('spectators-info').textContent === '1 watching'",
                timeout=WAIT_MS)
        steps = 0
        while server.run(_step(server, game_id)):
            steps += 1
            assert steps < MAX_STEPS, "the game did not end"
            if steps % 15 == 0:
                assert_no_hand_shown(carl, server, game_id)
        carl.wait_for_function(
            "() => document.getElementById('game').dataset.status === 'over'",
            timeout=WAIT_MS)
        assert carl.is_visible("#round-end")
        assert carl.locator("#rematch-button").count() == 0  # nothing to do but watch
        assert carl.locator("#log .log-entry").count() > 40
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
