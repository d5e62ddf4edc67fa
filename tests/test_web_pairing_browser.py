"""Pairing in a real browser (headless Debian Chromium, as tests/test_web_browser.py):
two people press "Play someone now" in the lobby, each in a browser context of their
own, and both come to one table. The first waits in its seek, asking again every few
seconds, and is taken to the table once the second has joined it.

Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_harness import serving, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser  # noqa: E402

from casino.web.app import create_app  # noqa: E402

pytestmark = pytest.mark.timeout(120)
#: How long a page may take to get where it goes (the waiting lobby asks every 5 s).
WAIT_MS = 20_000
GAME_URL = re.compile(r".*/game/([0-9a-f]+)$")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("web") / "casino.db"
    app = create_app(f"sqlite:///{db}", pool_workers=0, hint_level="beginner")
    with serving(app) as (url, _loop):
        yield url


def test_two_people_pressing_play_someone_now_sit_at_one_table(base: str,
                                                                browser: Browser) -> None:
    first_ctx, second_ctx = browser.new_context(), browser.new_context()
    try:
        first, second = first_ctx.new_page(), second_ctx.new_page()
        errors = watch(first) + watch(second)
        first.goto(base + "/")
        first.click("#pair-button")
        first.wait_for_selector("#pair-status:not([hidden])", timeout=WAIT_MS)
        assert first.url.endswith("/")  # waiting in the lobby, its seek listed
        first.wait_for_selector("#open-games li", timeout=WAIT_MS)
        assert "casual" in first.inner_text("#open-games")
        second.goto(base + "/")
        second.click("#pair-button")
        second.wait_for_url(GAME_URL, timeout=WAIT_MS)
        first.wait_for_url(GAME_URL, timeout=WAIT_MS)
        assert first.url == second.url
        for page in (first, second):
            page.wait_for_function(
                "() => document.getElementById('game').dataset.status === 'playing'",
                timeout=WAIT_MS)
        assert errors == []
    finally:
        first_ctx.close()
        second_ctx.close()
