"""Clocks in a real browser (headless Debian Chromium, as tests/test_web_browser.py): Ann
makes a room with a clock from the lobby's form, Bob joins by the invite, and both pages
show both clocks, the running one highlighted; when the clock of the seat to move runs
low the pages warn (a style and words read out), and when it runs out the table is told:
in a casual game the computer played the move, in a rated game the seat lost.

The server's clock is the real one moved forward by hand (the pages count down from the
milliseconds the server sends, so they follow it), so a 30-second clock runs out a few
seconds into the test. Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_harness import LiveServer, serving, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from casino.web.app import create_app  # noqa: E402
from casino.web.store import now  # noqa: E402
from tests.test_web_accounts_browser import signed_up  # noqa: E402
from tests.web_helpers import ACCOUNTS  # noqa: E402

pytestmark = pytest.mark.timeout(180)
WAIT_MS = 20_000
GAME_URL = re.compile(r".*/game/([0-9a-f]+)$")
#: The clock the rooms are made with, as the lobby's form words it.
CLOCK = "30 s a move"


class Ahead:
    """The server's time: the real one, ``seconds`` ahead."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> dt.datetime:
        return now() + dt.timedelta(seconds=self.seconds)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db: Path = tmp_path_factory.mktemp("web") / "casino.db"
    app = create_app(f"sqlite:///{db}", pool_workers=0, limits=ACCOUNTS,
                     hint_level="beginner")
    app.state.service.clocks.now = Ahead()
    with serving(app) as (url, loop):
        yield LiveServer(url, app, loop)


def timed_room(ann: Page, bob: Page, base: str, *, rated: bool = False) -> str:
    """A room for two made with the clock from Ann's lobby form and joined by Bob."""
    ann.goto(base + "/")
    ann.check("input[name=mode][value=friends]")
    if ann.locator("#name-input").is_editable():
        ann.fill("#name-input", "Ann")
    ann.select_option("#clock-select", label=CLOCK)
    if rated:
        ann.check("#rated-check")
    ann.click("#start-button")
    ann.wait_for_url(GAME_URL, timeout=WAIT_MS)
    game_id = ann.url.rsplit("/", 1)[1]
    ann.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
    bob.goto(ann.input_value("#invite-link"))
    assert CLOCK in bob.inner_text("#join-clock")
    if bob.locator("#join-name").count():
        bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_url(re.compile(rf".*/game/{game_id}$"), timeout=WAIT_MS)
    return game_id


async def _mover(server: LiveServer, game_id: str) -> int:
    game = await server.app.state.service.live.get(game_id)
    return int(game.session.to_move)


async def _ahead(server: LiveServer, game_id: str, seconds: float) -> None:
    """Move the server's clock ``seconds`` on, and send the pages their states again
    (with the clocks as they stand now)."""
    server.app.state.service.clocks.now.seconds += seconds
    game = await server.app.state.service.live.get(game_id)
    for c in game.clients:
        c.refresh()


def clocks_shown(page: Page, running: int) -> None:
    """The page shows both seats' clocks, the ``running`` one highlighted."""
    page.wait_for_selector("#clocks:not([hidden])", timeout=WAIT_MS)
    page.wait_for_selector(f"#clock-list .clock.running[data-seat='{running}']",
                           timeout=WAIT_MS)
    assert page.locator("#clock-list .clock").count() == 2
    assert CLOCK in page.inner_text("#clock-words")


def run_low_then_out(server: LiveServer, game_id: str, pages: dict[int, Page],
                     mover: int) -> None:
    """Bring the mover's clock to a few seconds left: both pages warn; then wait for it
    to run out."""
    for page in pages.values():
        clocks_shown(page, mover)
        assert page.is_hidden("#clock-warning")
    server.run(_ahead(server, game_id, 25))
    for seat, page in pages.items():
        page.wait_for_selector(f"#clock-list .clock.running.warn[data-seat='{mover}']",
                               timeout=WAIT_MS)
        page.wait_for_selector("#clock-warning:not([hidden])", timeout=WAIT_MS)
        warning = page.inner_text("#clock-warning")
        assert warning == ("Less than 10 seconds left on your clock: play now."
                           if seat == mover else
                           f"Less than 10 seconds left on {['Ann', 'Bob'][mover]}'s clock.")
        assert page.get_attribute("#clock-warning", "role") == "alert"


def contexts(browser: Browser) -> list[BrowserContext]:
    return [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(2)]


def test_a_casual_clock_runs_out_and_the_computer_plays_the_move(
        server: LiveServer, browser: Browser) -> None:
    made = contexts(browser)
    try:
        ann, bob = (ctx.new_page() for ctx in made)
        errors = watch(ann) + watch(bob)
        game_id = timed_room(ann, bob, server.base)
        mover = server.run(_mover(server, game_id))
        pages = {0: ann, 1: bob}
        run_low_then_out(server, game_id, pages, mover)
        name = ["Ann", "Bob"][mover]
        for page in pages.values():
            page.wait_for_selector(f"#clock-note >> text={name}'s time ran out",
                                   timeout=WAIT_MS)
            assert "the computer played for them this once" in page.inner_text("#clock-note")
            # The game goes on: the other seat's clock runs now, whole.
            clocks_shown(page, 1 - mover)
        assert pages[1 - mover].is_hidden("#clock-warning")
        assert errors == []
    finally:
        for ctx in made:
            ctx.close()


def test_a_rated_clock_runs_out_and_the_seat_loses(server: LiveServer,
                                                   browser: Browser) -> None:
    made = contexts(browser)
    try:
        signed_up(made[0], server.base, "Ann")
        signed_up(made[1], server.base, "Bob")
        ann, bob = (ctx.new_page() for ctx in made)
        errors = watch(ann) + watch(bob)
        game_id = timed_room(ann, bob, server.base, rated=True)
        mover = server.run(_mover(server, game_id))
        pages = {0: ann, 1: bob}
        run_low_then_out(server, game_id, pages, mover)
        loser, winner = ["Ann", "Bob"][mover], ["Ann", "Bob"][1 - mover]
        words = f"{loser}'s time ran out: {loser} loses, {winner} wins"
        for page in pages.values():
            page.wait_for_selector(f"#round-end >> text={words}", timeout=WAIT_MS)
            page.wait_for_function(
                "() => document.getElementById('game').dataset.status === 'over'",
                timeout=WAIT_MS)
            assert page.is_hidden("#clock-warning")  # no clock runs any more
        assert errors == []
    finally:
        for ctx in made:
            ctx.close()
