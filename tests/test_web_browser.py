"""The web game in a real browser: headless Debian Chromium driven by Playwright.

A real uvicorn server runs in a thread on 127.0.0.1 (a free port, a SQLite
file in a temporary folder); the browser plays by clicking and typing as a
person would. Every time the page is checked, no card it must not know (the
other hands, the stock) may appear in its HTML, its text or its JavaScript
globals: the server sends each seat only its observation.

Chromium comes from Debian (``/usr/bin/chromium``), never from ``playwright
install``. Without it these tests are skipped, except in CI (``CI=true``),
where they fail.

Set ``CASINO_SCREENSHOT=docs/images/web-game.png`` to save the README's
screenshot of a game in progress.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, serving, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from casino.engine.cards import card_symbol, card_text, parse_card  # noqa: E402
from casino.web.app import create_app  # noqa: E402

pytestmark = pytest.mark.timeout(120)

#: How long to wait for the server or the computer (generous: two shared cores).
WAIT_MS = 20_000


class Server(LiveServer):
    def drop_connections(self, game_id: str) -> None:
        """Drop the game from the server's memory and close its sockets (as a restart would)."""
        service = self.app.state.service
        done = threading.Event()

        def drop() -> None:
            service.live.drop(service.live.games[game_id])
            done.set()

        self.loop.call_soon_threadsafe(drop)
        assert done.wait(10)

    def hidden_from(self, game_id: str, seat: int) -> list[int]:
        """The cards ``seat`` must not see: every other hand and the stock (server side)."""
        game = self.app.state.service.live.games[game_id]
        pos = game.session.match.position
        hidden: list[int] = []
        for s, hand in enumerate(pos.hands):
            if s != seat and not isinstance(hand, int):
                hidden += hand
        if not isinstance(pos.stock, int):
            hidden += pos.stock
        return hidden

    def seen_in_moves(self, game_id: str) -> set[str]:
        """Every card some move of the game showed: played, or taken from the table."""
        seen: set[str] = set()
        for entry in self.app.state.service.live.games[game_id].session.log:
            m = entry.move
            seen.add(card_text(m.card))
            seen.update(card_text(c) for c in m.loose)
            seen.update(card_text(c) for b in m.builds for c in b.cards)
        return seen


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("web") / "casino.db"
    app = create_app(f"sqlite:///{db}", pool_workers=0, hint_level="beginner")
    with serving(app) as (base, loop):
        yield Server(base, app, loop)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


# ----------------------------------------------------------------------
# Helpers: what a person does, and what the page must never contain


#: Steps of a whole game against the computer (moves, round ends, undo) before the
#: test gives up on it ending; about a hundred are needed.
MAX_GAME_STEPS = 1000
#: Looks at two players' pages (50 ms apart) before the friend game counts as stalled.
MAX_POLLS = 2000


def start_game(page: Page, base: str, *, mode: str = "computer", level: str = "beginner",
               name: str | None = None) -> str:
    page.goto(base + "/")
    page.select_option("#level-select", level)
    page.check(f"input[name=mode][value={mode}]")
    if name:
        page.fill("#name-input", name)
    page.click("#start-button")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
    return page.url.rsplit("/", 1)[1]


def version(page: Page) -> int:
    return int(page.get_attribute("#game", "data-version") or 0)


def wait_ready(page: Page) -> str:
    """Wait until the player can act: their turn, a round's end, or the game's end."""
    page.wait_for_function(
        """() => { const g = document.getElementById('game');
                   return g.dataset.yourTurn === 'true' || g.dataset.status === 'round_over'
                       || g.dataset.status === 'over'; }""", timeout=WAIT_MS)
    if page.get_attribute("#game", "data-your-turn") == "true":
        return "turn"
    return page.get_attribute("#game", "data-status") or ""


def wait_version_after(page: Page, before: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('game').dataset.version) > {before}",
        timeout=WAIT_MS)


def play_first_option(page: Page) -> None:
    """Click the first playable hand card, then the first legal way to play it."""
    before = version(page)
    page.locator("#hand .hand-card:not(.blocked)").first.click()
    page.locator("#option-buttons button.option").first.click()
    wait_version_after(page, before)


#: Parts of the game page that show history (earlier moves, earlier rounds' results):
#: a card named there was seen by everyone, though a later round may deal it again.
HISTORY = ("#log", "#last-move", "#toasts", "#round-end", "#scores")


def assert_nothing_hidden(page: Page, server: Server, game_id: str) -> None:
    """No card of another hand or of the stock in the DOM, the text or the JS globals.

    The page without its history parts may name no hidden card at all; the
    whole page may name only hidden cards that earlier moves showed to everyone.
    """
    seat = int(page.get_attribute("#game", "data-seat") or -1)
    assert seat >= 0
    hidden = [card_text(c) for c in server.hidden_from(game_id, seat)]
    seen = server.seen_in_moves(game_id)
    whole_html = page.content()
    present = page.evaluate(
        """(history) => {
             const doc = document.documentElement.cloneNode(true);
             for (const sel of history) doc.querySelectorAll(sel).forEach((e) => e.remove());
             return [doc.outerHTML, doc.textContent]; }""", list(HISTORY))
    globals_json = page.evaluate(
        """() => { const out = [];
                   for (const k of Object.keys(window)) {
                     try { const v = JSON.stringify(window[k]); if (v) out.push(k + '=' + v); }
                     catch (e) { /* not serialisable: DOM nodes, functions */ }
                   }
                   return out.join('\\n'); }""")
    for t in hidden:
        symbol = card_symbol(parse_card(t))
        named = [f"/svg/card/{t}.svg", f'"{t}"', f"'{t}'", f"={t}", f">{t}<"]
        for where, blob in (("HTML", present[0]), ("JS globals", globals_json)):
            for form in named:
                assert form not in blob, f"hidden {t} in the page's {where} ({form})"
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(symbol)}", present[1]), (
            f"hidden {symbol} in the page's text")
        if t not in seen:
            assert f"/svg/card/{t}.svg" not in whole_html and f'"{t}"' not in whole_html, (
                f"hidden {t}, never played, in the page's history")


# ----------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["first-round", "whole-game"])
def test_a_complete_game_against_the_computer_played_by_clicking(
        server: Server, context: BrowserContext, whole: bool) -> None:
    """The whole game (slow) or, in the fast suite, its first round up to the round's
    result: the same clicks, keys, hint, undo and hidden-card scans on the way; the game's
    end, its replay, record and rematch come with the whole game only."""
    page = context.new_page()
    errors = watch(page)
    game_id = start_game(page, server.base)
    checked = {"illegal": False, "keyboard": False, "hint": False, "undo": False}
    shot = os.environ.get("CASINO_SCREENSHOT")
    moves = rounds = 0
    # Every step below waits for the page, never for the clock: a game of a few rounds
    # takes about a hundred steps, and a game that does not end fails at the cap.
    for _ in range(MAX_GAME_STEPS):
        state = wait_ready(page)
        if state == "over":
            break
        if state == "round_over":
            rounds += 1
            box = page.locator("#round-end")
            assert box.is_visible()
            assert box.locator(".result-items li").count() >= 1
            assert "counting order" in box.inner_text()
            if not whole:
                break
            before = version(page)
            page.click("#next-round-button")
            wait_version_after(page, before)
            continue
        if moves % 6 == 0:
            assert_nothing_hidden(page, server, game_id)
        if shot and (moves >= 12 or (page.locator("#table .build").count()
                                     and page.locator("#hand .hand-card").count() >= 3)):
            save_screenshot(page, shot)
            shot = None
        if not checked["illegal"] and try_an_illegal_selection(page):
            checked["illegal"] = True
        elif not checked["hint"]:
            page.click("#hint-button")
            page.wait_for_selector(".status-line.hint", timeout=WAIT_MS)
            status = page.inner_text("#status")
            assert status.startswith("Hint:") and not status.startswith("Hint: Hint"), status
            # Its reason is shown under the status line while the hint stands.
            assert page.is_visible("#hint-reason")
            assert page.inner_text("#hint-reason").startswith("It takes")
            # The hint selects its move: Enter plays it.
            before = version(page)
            page.keyboard.press("Enter")
            wait_version_after(page, before)
            assert not page.is_visible("#hint-reason")  # the game moved on: no reason
            checked["hint"] = True
            moves += 1
            continue
        elif not checked["keyboard"]:
            before = version(page)
            key = page.get_attribute("#hand .hand-card:not(.blocked) >> nth=0", "data-key")
            page.keyboard.press(key or "1")
            page.wait_for_selector("#option-buttons button.option", timeout=WAIT_MS)
            page.keyboard.press("Enter")
            wait_version_after(page, before)
            checked["keyboard"] = True
            moves += 1
            continue
        elif not checked["undo"] and page.is_enabled("#undo-button"):
            hand_before = page.locator("#hand .hand-card").count()
            before = version(page)
            page.click("#undo-button")
            wait_version_after(page, before)
            wait_ready(page)
            assert page.locator("#hand .hand-card").count() > hand_before
            checked["undo"] = True
            continue
        play_first_option(page)
        moves += 1
    else:
        raise AssertionError(f"the game did not end in {MAX_GAME_STEPS} steps")
    if not whole:
        assert rounds == 1 and all(checked.values()), checked
        assert_nothing_hidden(page, server, game_id)
        assert errors == []
        return
    # The end: the winner, the itemized last round, a rematch, the replay and the record.
    box = page.locator("#round-end")
    assert box.is_visible()
    assert "Game over" in box.inner_text()
    assert page.locator("#rematch-button").is_visible()
    # "Review my play" opens the replay page's review of this player's seat.
    seat = page.get_attribute("#game", "data-seat")
    assert page.get_attribute("#review-link", "href") == f"/records/{game_id}?seat={seat}#review"
    assert page.locator("#scores .round-row").count() >= 1
    assert all(checked.values()), checked
    assert errors == []

    page.goto(f"{server.base}/records/{game_id}")
    page.wait_for_selector("#replay-table .table-item", timeout=WAIT_MS)
    assert page.inner_text("#step-info").startswith("0 /")
    page.click("#next-button")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step-info").startswith("2 /")
    assert page.inner_text("#replay-move").strip() != ""
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-info").startswith("1 /")
    href = page.get_attribute("#download-link", "href")
    assert href is not None
    with urllib.request.urlopen(server.base + href) as r:
        assert "casino-record" in r.read().decode()

    # A rematch: the same seats in a new game.
    page.go_back()
    page.wait_for_selector("#rematch-button", timeout=WAIT_MS)
    page.click("#rematch-button")
    page.wait_for_url(re.compile(rf".*/game/(?!{game_id})[0-9a-f]+$"), timeout=WAIT_MS)
    assert wait_ready(page) == "turn"
    assert errors == []


def save_screenshot(page: Page, path: str) -> None:
    """The README's picture: a card picked, the table items it can use lit, its options."""
    page.set_viewport_size({"width": 1200, "height": 800})
    hand = page.locator("#hand .hand-card")
    for k in range(hand.count()):
        page.keyboard.press(str(k + 1))
        if page.locator("#option-buttons button.option").count() >= 2:
            break
    page.wait_for_timeout(1300)  # let the last move's animation finish
    page.screenshot(path=path)
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 900})


def try_an_illegal_selection(page: Page) -> bool:
    """Pick a hand card and a table item it cannot use: the page explains, nothing changes."""
    before = version(page)
    page.locator("#hand .hand-card:not(.blocked)").first.click()
    unusable = page.locator("#table .table-item:not(.usable)")
    if unusable.count() == 0:
        page.keyboard.press("Escape")
        return False
    unusable.first.click()
    explain = page.locator("#explain.illegal")
    explain.wait_for(timeout=WAIT_MS)
    assert "cannot be played with" in explain.inner_text()
    # The server's reason arrives (an illegal move is explained and changes nothing).
    page.wait_for_function(
        "() => /cannot be played with [^:]+: /.test(document.getElementById('explain')"
        ".textContent)", timeout=WAIT_MS)
    assert page.locator("#option-buttons button").count() == 0
    assert version(page) == before
    page.keyboard.press("Escape")
    assert page.locator("#table .table-item.selected").count() == 0
    return True


def crowded_game(server: Server, rules: str, loose: int) -> tuple[str, str]:
    """A room of two for ``rules`` (dealt from seed 1) where both people trailed until
    ``loose`` cards lie loose and the one to move has most of a hand: (the game, the
    browser token of the seat to move)."""
    service = server.app.state.service

    async def make() -> tuple[str, str]:
        created = service.rooms.create(rules=rules, players=2, level="beginner", mode="friends",
                                 name="Ann", seed=1)
        bob, _ = await service.rooms.join(created.game, created.invite.rsplit("/", 1)[1], "Bob")
        game = await service.live.get(created.game)
        s = game.session
        for _ in range(200):
            pos = s.match.position
            if len(pos.loose) >= loose and pos.hand_size(0) == pos.hand_size(1) >= 3:
                break
            await service.turns.play(game, s.to_move, card_text(pos.hand(s.to_move)[0]))
        return created.game, (created.token, bob)[s.to_move]

    return asyncio.run_coroutine_threadsafe(make(), server.loop).result(60)


def test_a_crowded_table_is_played_by_picking_cards(
        server: Server, context: BrowserContext) -> None:
    """27 and more loose cards (Finnish Kasino): each card shows a few ways and says there
    are others; picking a table card asks the server, whose answer is played."""
    from casino.web.views import MOVES_PER_CARD

    game_id, token = crowded_game(server, "kasino", 27)
    context.add_cookies([{"name": "casino", "value": token, "url": server.base}])
    page = context.new_page()
    errors = watch(page)
    page.goto(f"{server.base}/game/{game_id}")
    assert wait_ready(page) == "turn"
    assert page.locator("#table .table-item").count() >= 27
    assert page.locator("#hand .hand-card.blocked").count() == 0  # each can be trailed
    assert_nothing_hidden(page, server, game_id)
    # A card with a listed capture: its few ways, and a word that there are others.
    hand = page.locator("#hand .hand-card")
    chosen = None
    for k in range(hand.count()):
        hand.nth(k).click()
        buttons = page.locator("#option-buttons button.option")
        assert 1 <= buttons.count() <= MOVES_PER_CARD
        assert "Pick table cards to see other ways" in page.inner_text("#option-buttons")
        if page.locator("#option-buttons button.option[data-kind=capture]").count():
            chosen = hand.nth(k).get_attribute("data-card")
            break
    assert chosen is not None, "no card of the hand captures anything"
    # Pick a table card that capture takes: the server answers with ways using it.
    item = page.locator("#table .table-item.usable").first
    picked = item.get_attribute("data-text")
    item.click()
    page.wait_for_selector("#option-buttons button.option[data-kind=capture]", timeout=WAIT_MS)
    moves = page.eval_on_selector_all("#option-buttons button.option",
                                      "bs => bs.map(b => b.dataset.move)")
    assert moves and all(m.startswith(f"{chosen} ") for m in moves), moves
    before = version(page)
    page.locator("#option-buttons button.option[data-kind=capture]").first.click()
    wait_version_after(page, before)
    played = server.app.state.service.live.games[game_id].session.log[-1].move
    assert card_text(played.card) == chosen and picked in [card_text(c) for c in played.loose]
    assert errors == []


def test_a_friend_game_across_two_browser_contexts(server: Server, browser: Browser) -> None:
    creator_ctx = browser.new_context(viewport={"width": 1100, "height": 850})
    friend_ctx = browser.new_context(viewport={"width": 900, "height": 800})
    try:
        creator = creator_ctx.new_page()
        friend = friend_ctx.new_page()
        errors = watch(creator) + watch(friend)
        game_id = start_game(creator, server.base, mode="friends", name="Ann")
        creator.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        link = creator.input_value("#invite-link")
        assert f"/join/{game_id}/" in link
        creator.click("#copy-invite")
        friend.goto(link)
        friend.fill("#join-name", "Bob")  # the invite asks the friend's name first
        friend.click("#join-button")
        friend.wait_for_url(re.compile(rf".*/game/{game_id}$"), timeout=WAIT_MS)
        creator.wait_for_selector("#invite", state="hidden", timeout=WAIT_MS)
        made = {"creator": 0, "friend": 0}
        pages = {"creator": creator, "friend": friend}
        for _ in range(MAX_POLLS):
            if min(made.values()) >= 2:
                break
            for who, page in pages.items():
                if page.get_attribute("#game", "data-your-turn") == "true":
                    assert_nothing_hidden(page, server, game_id)
                    other = pages["friend" if who == "creator" else "creator"]
                    other_before = version(other)
                    play_first_option(page)
                    made[who] += 1
                    # The other player sees the move at once, in the log and the banner.
                    wait_version_after(other, other_before)
            time.sleep(0.05)
        assert min(made.values()) >= 2, f"the friend game stalled: {made}"
        assert "Ann" in friend.inner_text(".opponents")
        assert "Bob" in creator.inner_text(".opponents")
        assert creator.locator("#log .log-entry").count() >= 4
        assert errors == []
    finally:
        creator_ctx.close()
        friend_ctx.close()


def test_the_phone_viewport_shows_hand_and_table_without_horizontal_scroll(
        server: Server, browser: Browser) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    try:
        page = ctx.new_page()
        errors = watch(page)
        start_game(page, server.base)
        assert wait_ready(page) == "turn"
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width} px wide on a 375 px phone"
        # The computer moves first and may have swept the table; the hand is never empty.
        assert page.locator("#hand .hand-card").count() > 0
        for selector in ("#hand .hand-card", "#table .table-item"):
            items = page.locator(selector)
            for i in range(items.count()):
                box = items.nth(i).bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, (
                    selector, box)
                assert box["width"] >= 40, "cards too small to read or tap"
        # The hand is in the first screenful whatever the table holds (on a phone the
        # player's seat sticks to the bottom), and it covers no card of the table's first row.
        hand_box = page.locator("#hand").bounding_box()
        me_box = page.locator("#me").bounding_box()
        assert hand_box is not None and hand_box["y"] + hand_box["height"] <= 667, hand_box
        assert me_box is not None
        if page.locator("#table .table-item").count():
            first = page.locator("#table .table-item").first.bounding_box()
            assert first is not None and first["y"] + first["height"] <= me_box["y"], (
                first, me_box)
        # Tapping plays as clicking does.
        before = version(page)
        page.locator("#hand .hand-card:not(.blocked)").first.tap()
        page.locator("#option-buttons button.option").first.tap()
        wait_version_after(page, before)
        assert errors == []
    finally:
        ctx.close()


def test_a_refresh_or_a_dropped_connection_resumes_the_game(
        server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    errors = watch(page)
    game_id = start_game(page, server.base)
    assert wait_ready(page) == "turn"
    play_first_option(page)
    assert wait_ready(page) == "turn"

    def snapshot() -> tuple[int, list[str], list[str | None]]:
        hand = page.eval_on_selector_all("#hand .hand-card", "es => es.map(e => e.dataset.card)")
        table = page.eval_on_selector_all("#table .table-item", "es => es.map(e => e.dataset.text)")
        return version(page), hand, table

    before = snapshot()
    page.reload()
    assert wait_ready(page) == "turn"
    assert snapshot() == before
    assert page.locator("#log .log-entry").count() >= 2

    # The server drops the game and its sockets: the page reconnects on its own,
    # says hello with the version it has, and goes on where it was.
    server.drop_connections(game_id)
    page.wait_for_function(
        "() => document.getElementById('conn').dataset.state !== 'ok'", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.getElementById('conn').dataset.state === 'ok'", timeout=WAIT_MS)
    assert wait_ready(page) == "turn"
    assert snapshot() == before
    play_first_option(page)
    assert errors == []


def test_the_lobby_offers_each_rulesets_player_counts_and_links_its_rules(
        server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    errors = watch(page)
    page.goto(server.base + "/")
    page.select_option("#rules-select", "classic")
    counts = page.eval_on_selector_all("#players-select option", "os => os.map(o => o.value)")
    assert counts == ["2", "3", "4"]
    page.select_option("#rules-select", "casino")
    counts = page.eval_on_selector_all("#players-select option", "os => os.map(o => o.value)")
    assert counts == ["2"]
    # A room for friends can leave seats to the computer and be listed publicly.
    page.select_option("#rules-select", "classic")
    page.select_option("#players-select", "4")
    page.check("input[name=mode][value=friends]")
    assert page.is_visible("#people-select") and page.is_visible("#public-check")
    page.click("#rules-link")
    page.wait_for_url(re.compile(r".*/rules/classic$"))
    assert "Classic" in page.inner_text("h1")
    assert page.locator(".rules-lines li").count() >= 5
    page.goto(server.base + "/game/0123456789abcdef")
    assert "no such game" in page.inner_text(".error-message")
    assert errors == []


def test_every_page_keeps_to_a_content_security_policy_in_force(
        server: Server, browser: Browser) -> None:
    """No page breaks the policy (no inline script, style or handler; the WebSocket is
    allowed), and the policy is really enforced: an injected inline script never runs."""
    ctx = browser.new_context()
    friend_ctx = browser.new_context()
    try:
        page = ctx.new_page()
        friend = friend_ctx.new_page()
        errors = watch(page) + watch(friend)
        game_id = start_game(page, server.base, mode="friends", name="Ann")
        page.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        assert page.get_attribute("#conn", "data-state") == "ok"  # the WebSocket is allowed
        friend.goto(page.input_value("#invite-link"))  # the invite page
        assert friend.is_visible("#join-name")
        for url in ("/", "/rules/classic", "/guide/classic", "/glossary", "/scorepad",
                    "/helper", f"/records/{game_id}", "/game/0123456789abcdef"):
            response = page.goto(server.base + url)
            assert response is not None
            assert "script-src 'self'" in response.headers["content-security-policy"], url
        assert errors == []

        injected = """() => {
            const s = document.createElement('script');
            s.textContent = 'window.inlineRan = true';
            document.body.append(s);
            const d = document.createElement('div');
            d.setAttribute('style', 'width: 123px');
            document.body.append(d);
            return [window.inlineRan === true, d.getBoundingClientRect().width]; }"""
        with page.expect_console_message(
                lambda m: "Content Security Policy" in m.text, timeout=WAIT_MS) as refused:
            ran, width = page.evaluate(injected)
        assert ran is False and width != 123
        assert "script-src" in refused.value.text or "style-src" in refused.value.text
    finally:
        ctx.close()
        friend_ctx.close()


def test_a_friends_room_shows_its_settings_hides_the_hint_button_and_offers_resigning(
        server: Server, browser: Browser) -> None:
    """The lobby's fair-play settings reach the table: a room between people has hints
    and take-backs off by default, every player sees so and has no hint or undo button;
    a player resigns with a confirmation, and both see who won."""
    creator_ctx = browser.new_context(viewport={"width": 1100, "height": 850})
    friend_ctx = browser.new_context(viewport={"width": 900, "height": 800})
    try:
        creator = creator_ctx.new_page()
        friend = friend_ctx.new_page()
        errors = watch(creator) + watch(friend)
        creator.goto(server.base + "/")
        assert creator.is_checked("#hints-check") and creator.is_checked("#takebacks-check")
        creator.check("input[name=mode][value=friends]")  # between people: off by default
        assert not creator.is_checked("#hints-check")
        assert not creator.is_checked("#takebacks-check")
        creator.fill("#name-input", "Ann")
        creator.click("#start-button")
        creator.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
        game_id = creator.url.rsplit("/", 1)[1]
        creator.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        friend.goto(creator.input_value("#invite-link"))
        friend.fill("#join-name", "Bob")
        friend.click("#join-button")
        friend.wait_for_url(re.compile(rf".*/game/{game_id}$"), timeout=WAIT_MS)
        for page in (creator, friend):
            page.wait_for_function(
                "() => document.getElementById('game').dataset.status === 'playing'",
                timeout=WAIT_MS)
            assert page.inner_text("#table-settings") == "Hints off · Take-backs off"
            assert page.is_hidden("#hint-button") and page.is_hidden("#undo-button")
            assert page.is_visible("#resign-button")
        # Resigning asks first; "No" changes nothing.
        friend.click("#resign-button")
        assert "The other side wins at once." in friend.inner_text("#resign-words")
        friend.click("#resign-no")
        assert friend.is_hidden("#resign-confirm")
        assert friend.get_attribute("#game", "data-status") == "playing"
        friend.click("#resign-button")
        friend.click("#resign-yes")
        for page in (creator, friend):
            page.wait_for_selector("#round-end:not([hidden])", timeout=WAIT_MS)
            assert "Bob resigned: Ann wins" in page.inner_text("#round-end")
            assert page.is_hidden("#resign-button")
        assert "Ann" in creator.inner_text("#round-end h2")
        assert errors == []
    finally:
        creator_ctx.close()
        friend_ctx.close()


def test_the_glossary_is_linked_from_the_rules_and_explains_the_game_s_words(
        server: Server, context: BrowserContext) -> None:
    """A word on the rules page opens its glossary entry (issue 18); in a game, the kind
    of each way to play a card carries the glossary's definition as its title."""
    page = context.new_page()
    errors = watch(page)
    page.goto(server.base + "/rules/casino")
    page.locator("a.term[href='/glossary#build']").first.click()
    page.wait_for_url(re.compile(r".*/glossary#build$"), timeout=WAIT_MS)
    assert page.is_visible("#build") and "announcing a value" in page.inner_text("#build + dd")
    start_game(page, server.base)
    assert wait_ready(page) == "turn"
    page.locator("#hand .hand-card:not(.blocked)").first.click()
    page.wait_for_selector("#option-buttons button.option", timeout=WAIT_MS)
    kinds = page.eval_on_selector_all(
        "#option-buttons button.option span.kind",
        "ks => ks.map(k => [k.textContent, k.getAttribute('title') || ''])")
    assert kinds and all(title.startswith(f"{kind}: ") for kind, title in kinds), kinds
    assert errors == []


def test_learn_to_play_from_the_lobby_shows_the_first_step(
        server: Server, context: BrowserContext) -> None:
    """The lobby's "learn to play" starts a lesson of the chosen rules; the lesson panel
    shows the first step, built from the learner's own cards, with its links."""
    from casino.teach.lesson import lesson_session, session_step

    page = context.new_page()
    errors = watch(page)
    page.goto(server.base + "/")
    page.select_option("#rules-select", "tablic")
    page.check("input[name=mode][value=lesson]")
    assert not page.is_visible("#level-select") and not page.is_visible("#players-select")
    assert page.inner_text("#start-button") == "Start the lesson"
    page.click("#start-button")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"), timeout=WAIT_MS)
    assert wait_ready(page) == "turn"
    first = session_step(lesson_session("tablic"))
    assert page.inner_text("#lesson-title") == f"Lesson: {first.title}"
    assert first.move in page.inner_text("#lesson-text")
    assert page.get_attribute("#lesson-guide", "href") == "/guide/tablic"
    assert page.get_attribute("#lesson-glossary", "href") == first.glossary_url
    assert errors == []
