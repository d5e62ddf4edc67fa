"""The chat in a real browser (headless Debian Chromium, as tests/test_web_browser.py):
Ann makes a room from the lobby's form and Bob joins by the invite; they chat with text
and a quick phrase; Ann's hostile text shows as text on Bob's page; Bob reports it and
mutes Ann, whose next line never reaches him; Olga, the server's operator, finds the
report on /admin/reports, escaped, and resolves it (docs/server.md, "Chat").

Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

pytestmark = pytest.mark.timeout(180)
WAIT_MS = 20_000
OPERATOR = "Olga"
#: What Ann says to try Bob's page: markup that would run, were it ever taken as HTML.
HOSTILE = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web"), admins=[OPERATOR]) as server:
        yield server


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")
    shown(page, text)


def shown(page: Page, text: str) -> None:
    """Wait until ``page``'s chat shows a line saying ``text``."""
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some((e) => e.textContent === t)", arg=text, timeout=WAIT_MS)


def lines(page: Page) -> list[str]:
    found: list[str] = page.eval_on_selector_all("#chat-lines .chat-text",
                                                 "(es) => es.map((e) => e.textContent)")
    return found


def test_two_players_chat_mute_and_report(server: LiveServer, browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850})
                for _ in range(3)]
    try:
        ann, bob, olga = (ctx.new_page() for ctx in contexts)
        errors = watch(ann) + watch(bob)
        # Olga signs up (an operator is an account named by --admin).
        olga.goto(server.base + "/signup")
        olga.fill("input[name=name]", OPERATOR)
        olga.fill("input[name=password]", "operator password 1")
        olga.click("form button[type=submit]")
        olga.wait_for_load_state()
        ann.goto(server.base + "/")
        ann.check("input[name=mode][value=friends]")
        ann.fill("#name-input", "Ann")
        assert ann.is_checked("#chat-check")  # a room's chat is on by default
        ann.click("#start-button")
        ann.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
        ann.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        bob.goto(ann.input_value("#invite-link"))
        bob.fill("#join-name", "Bob")
        bob.click("#join-button")
        bob.wait_for_selector("#chat:not([hidden])", timeout=WAIT_MS)
        ann.wait_for_selector("#chat:not([hidden])", timeout=WAIT_MS)
        say(ann, "hello Bob")
        shown(bob, "hello Bob")
        bob.click(".chat-phrase[data-phrase=gg]")
        shown(ann, "Good game!")
        # Hostile text is shown as the characters it is, and nothing of it runs.
        say(ann, HOSTILE)
        shown(bob, HOSTILE)
        for page in (ann, bob):
            assert page.locator("#chat-lines img, #chat-lines script").count() == 0
            assert page.title() != "pwned"
        # Bob reports it, then mutes Ann: her lines go, and her next never comes.
        hostile_line = bob.locator("#chat-lines li", has_text="onerror")
        hostile_line.locator(".chat-report").click()
        bob.wait_for_selector("#chat-lines .chat-report[disabled]", timeout=WAIT_MS)
        assert "reported" in bob.inner_text("#chat-note")
        hostile_line.locator(".chat-mute").click()
        bob.wait_for_selector("#chat-muted:not([hidden])", timeout=WAIT_MS)
        assert "Ann" in bob.inner_text("#chat-muted")
        assert "hello Bob" not in lines(bob)
        say(ann, "you cannot hear this")
        say(bob, "quiet now")
        shown(ann, "quiet now")
        assert "you cannot hear this" not in lines(bob)
        # A reload keeps the mute (it is stored for Bob's browser).
        bob.reload()
        shown(bob, "quiet now")
        assert "you cannot hear this" not in lines(bob) and "hello Bob" not in lines(bob)
        # Olga finds the report, escaped, and resolves it.
        olga.goto(server.base + "/admin/reports")
        olga.wait_for_selector(".report", timeout=WAIT_MS)
        said = olga.inner_text(".report .report-said")
        assert said == HOSTILE and olga.title() != "pwned"
        assert olga.locator(".report img, .report-said script").count() == 0
        assert "hello Bob" in (olga.text_content(".report details") or "")
        olga.click(".report button[type=submit]")
        olga.wait_for_selector("#no-reports", timeout=WAIT_MS)
        # Bob, no operator, is refused the page.
        refused = bob.goto(server.base + "/admin/reports")
        assert refused is not None and refused.status == 403
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
