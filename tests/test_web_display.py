"""What the game page shows, in a real browser (headless Debian Chromium, as in
``test_web_browser.py``): numbers, partnerships, a phone's round end, the last move's
banner and who captured last.

Each test reproduces what a player saw: Krypkasino's score pad said "null" and its
penalties "+-5"; four-player Classic cut the computers' names to "Com…", credited a
partnership's points to its first seat alone and showed no team total; on a phone the
hand, stuck to the bottom of the screen, covered "Next round"; the banner of the last
move flashed its background behind white text; nothing said who captured last.

The games are seeded and their moves are played through the server's service (the
first legal move, or the first capture), so every page is in a known state without
waiting for a computer; nothing here waits on the clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser_harness import LiveServer, serving, skip_without_browser, watch
from tests.web_helpers import FAST

skip_without_browser()

from playwright.sync_api import Browser, Page, ViewportSize  # noqa: E402

from casino.engine.moves import CAPTURE  # noqa: E402
from casino.engine.position import Position  # noqa: E402
from casino.web.app import create_app  # noqa: E402
from casino.web.views import points_text, total_text  # noqa: E402

pytestmark = pytest.mark.timeout(120)

WAIT_MS = 20_000
MINUS = "\u2212"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


class Server(LiveServer):
    def position(self, game_id: str) -> Position:
        return self.app.state.service.live.games[game_id].session.match.position  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("display") / "casino.db"
    app = create_app(f"sqlite:///{db}", pool_workers=0, hint_level="beginner", limits=FAST)
    with serving(app) as (base, loop):
        yield Server(base, app, loop)


def round_over(pos: Position) -> bool:
    return pos.result is not None


def played_game(server: Server, rules: str, players: int, names: list[str],
                until: Callable[[Position], bool], *, captures_first: bool = False,
                seed: int = 3) -> tuple[str, str]:
    """A room of ``players`` people named ``names``, dealt from ``seed``, whose moves (the
    first legal one, or the first capture) are played until ``until``: (the game, the
    first seat's browser token)."""
    service = server.app.state.service

    async def make() -> tuple[str, str]:
        created = service.rooms.create(rules=rules, players=players, level="beginner",
                                 mode="friends", name=names[0], seed=seed)
        code = created.invite.rsplit("/", 1)[1]
        for name in names[1:]:
            await service.rooms.join(created.game, code, name)
        game = await service.live.get(created.game)
        s = game.session
        for _ in range(500):
            pos = s.match.position
            if until(pos):
                break
            moves = pos.legal_moves()
            captures = [m for m in moves if m.kind == CAPTURE] if captures_first else []
            await service.turns.play(game, s.to_move, str((captures or moves)[0]))
        else:
            raise AssertionError("the game never reached the state wanted")
        return created.game, created.token

    return server.run(make())  # type: ignore[no-any-return]


def computer_game(server: Server, rules: str, players: int) -> tuple[str, str]:
    """A seeded game of one person ("Ann") against computers: (the game, her token)."""
    created = server.app.state.service.rooms.create(rules=rules, players=players,
                                              level="beginner", mode="computer",
                                              name="Ann", seed=3)
    return created.game, created.token


def open_game(browser: Browser, server: Server, game_id: str, token: str,
              viewport: ViewportSize, **options: Any) -> tuple[Page, list[str]]:
    mobile = viewport["width"] < 600
    ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile,
                              **options)
    ctx.add_cookies([{"name": "casino", "value": token, "url": server.base}])
    page = ctx.new_page()
    errors = watch(page)
    page.goto(f"{server.base}/game/{game_id}")
    page.wait_for_function(
        "() => !['loading', 'waiting'].includes(document.getElementById('game').dataset.status)",
        timeout=WAIT_MS)
    return page, errors


def wait_status(page: Page, status: str) -> None:
    page.wait_for_function(
        f"() => document.getElementById('game').dataset.status === '{status}'",
        timeout=WAIT_MS)


# ----------------------------------------------------------------------
# 1. Numbers and optional values


def test_the_formatters_write_signs_and_never_write_null(
        server: Server, browser: Browser) -> None:
    game_id, token = computer_game(server, "casino", 2)
    page, errors = open_game(browser, server, game_id, token, DESKTOP)
    got = page.evaluate("""() => {
        const D = window.CasinoDom;
        const box = document.createElement('div');
        D.fill(box, null, 'a', undefined, false, [null, 'b']);
        D.add(box, null, 'c');
        return [D.signed(5), D.signed(-5), D.signed(0), D.num(-8), D.num(12),
                D.num(null), D.num(undefined), D.signed(null), D.num(NaN),
                D.text(null), D.text(undefined), D.text(0), box.textContent]; }""")
    assert got == ["+5", f"{MINUS}5", "0", f"{MINUS}8", "12", "–", "–", "–", "–", "", "",
                   "0", "abc"]
    page.context.close()
    assert errors == []


def test_krypkasino_shows_penalties_with_their_sign_and_no_null(
        server: Server, browser: Browser) -> None:
    game_id, token = played_game(server, "krypkasino", 2, ["Ann", "Bob"], round_over)
    result = server.position(game_id).result
    assert result is not None and min(result.scores) < 0  # the seed gives a negative total
    page, errors = open_game(browser, server, game_id, token, DESKTOP)
    wait_status(page, "round_over")
    text = page.inner_text("body")
    for bad in ("null", "undefined", "NaN", "+-", f"+{MINUS}"):
        assert bad not in text, f"{bad!r} on the page"
    # Every item's points as the server scored them, a penalty with its minus sign.
    points = page.locator("#round-end .result-items .item-points").all_inner_texts()
    assert points == [points_text(i.points) for i in result.items]
    assert any(p.startswith(MINUS) for p in points)
    # The score pad: the round's gain and the totals, negative ones with the minus sign.
    rules = server.position(game_id).rules
    totals = [total_text(result.scores[t]) for t in rules.teams]
    assert page.locator("#scores .total-row td").all_inner_texts() == totals
    assert page.locator("#scores .round-row td strong").all_inner_texts() == totals
    assert "Penalty points: the lower total wins." in page.inner_text("#scores")
    # The seat heads' scores and the totals line.
    assert page.inner_text("#me .score") == totals[0]
    assert page.inner_text(".opponent .score") == totals[1]
    assert f"Bob: {totals[1]}" in page.inner_text("#round-end .totals")
    page.context.close()
    assert errors == []


# ----------------------------------------------------------------------
# 2. Names that fit, and partnerships


CLIPPED = """() => [...document.querySelectorAll(
        '.seat-name, #scores thead th, .tallies th, #round-end .item-who')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.textContent.includes('…')
                   || getComputedStyle(e).textOverflow === 'ellipsis')
    .map((e) => e.textContent)"""

#: The words of names too wide for their box, which would be broken mid-word ("Comput|er").
BROKEN_WORDS = """() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const e of document.querySelectorAll('.seat-name, #scores thead th')) {
        const cs = getComputedStyle(e);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        for (const w of e.textContent.split(/\\s+/)) {
            if (w && ctx.measureText(w).width > room + 0.5) out.push(w);
        }
    }
    return out; }"""


@pytest.mark.parametrize(("rules", "viewport"), [
    ("classic", DESKTOP), ("classic", PHONE), ("kasino", DESKTOP), ("kasino", PHONE)])
def test_four_players_names_are_shown_whole(
        server: Server, browser: Browser, rules: str, viewport: ViewportSize) -> None:
    game_id, token = computer_game(server, rules, 4)
    page, errors = open_game(browser, server, game_id, token, viewport)
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate(BROKEN_WORDS) == []
    for s in (1, 2, 3):
        assert page.inner_text(f".opponent[data-seat='{s}'] .seat-name") == f"Computer {s}"
    heads = page.locator("#scores thead th").all_inner_texts()
    if rules == "classic":  # partnerships: a column for each side, both partners named
        assert heads == ["Ann (you) & Computer 2", "Computer 1 & Computer 3"]
    else:
        assert heads == ["Ann (you)", "Computer 1", "Computer 2", "Computer 3"]
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    page.context.close()
    assert errors == []


def test_a_partnership_is_credited_as_a_team_with_its_total(
        server: Server, browser: Browser) -> None:
    names = ["Ann", "Bo", "Cy", "Di"]
    game_id, token = played_game(server, "classic", 4, names, round_over)
    pos = server.position(game_id)
    result = pos.result
    assert result is not None
    page, errors = open_game(browser, server, game_id, token, DESKTOP)
    wait_status(page, "round_over")
    ours, theirs = "Ann (you) & Cy", "Bo & Di"
    assert page.locator("#scores thead th").all_inner_texts() == [ours, theirs]
    # The round's gains by side: the items of both partners, not the first seat's alone.
    gained = [sum(i.points for i in result.items if pos.rules.team_of(i.seat) == t)
              for t in (0, 1)]
    assert sum(1 for i in result.items if i.seat == 1) > 0  # the other side scored too
    assert page.locator("#scores .round-row .gain").all_inner_texts() == [
        points_text(g) for g in gained]
    totals = [total_text(result.scores[t]) for t in (0, 1)]
    assert page.locator("#scores .total-row td").all_inner_texts() == totals
    # Each item names the side, and the running totals are the two sides'.
    who = page.locator("#round-end .result-items .item-who").all_inner_texts()
    assert who == [ours if pos.rules.team_of(i.seat) == 0 else theirs for i in result.items]
    running = page.locator("#round-end .result-items .running").all_inner_texts()
    assert all(len(r.split(" – ")) == 2 for r in running), running
    assert page.inner_text("#round-end .totals") == (
        f"Totals: {ours}: {totals[0]} · {theirs}: {totals[1]}")
    # Every seat's head shows its team's score, and says whose it is.
    for seat in (1, 2, 3):
        head = page.locator(f".opponent[data-seat='{seat}'] .score")
        assert head.inner_text().split()[-1] == totals[pos.rules.team_of(seat)]
        assert "team" in head.inner_text().lower()
    assert "Cy" in (page.get_attribute("#me .score", "title") or "")
    assert page.inner_text(".opponent[data-seat='1'] .badge.team") == "with Di"
    # The captured cards of each team, added up (the majorities are the team's).
    rows = page.locator(".tallies .team-row")
    assert rows.count() == 2
    for k, team in enumerate((0, 1)):
        cells = rows.nth(k).locator("td").all_inner_texts()
        piles = [pos.piles[s] for s in pos.rules.seats if pos.rules.team_of(s) == team]
        assert int(cells[0]) == sum(len(p) for p in piles)
    assert page.evaluate(CLIPPED) == []
    page.context.close()
    assert errors == []


# ----------------------------------------------------------------------
# 3. A phone's round end


def test_on_a_phone_next_round_is_not_covered_by_the_hand(
        server: Server, browser: Browser) -> None:
    game_id, token = played_game(server, "classic", 2, ["Ann", "Bob"], round_over)
    page, errors = open_game(browser, server, game_id, token, PHONE)
    wait_status(page, "round_over")
    button = page.locator("#next-round-button")
    # The page brings the round's end into view the way it does itself ("nearest"): the
    # button then lies at the bottom of the screen, where the sticky hand was. (The
    # browser scrolls by whole pixels, so a button whose bottom lies at a fraction of a
    # pixel may overhang the screen by that fraction: under a pixel is inside.)
    hit = page.evaluate("""() => {
        const b = document.getElementById('next-round-button');
        b.scrollIntoView({ block: 'nearest', behavior: 'instant' });
        const r = b.getBoundingClientRect();
        const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return { inside: r.top >= 0 && r.bottom < innerHeight + 1,
                 hit: !!e && b.contains(e) }; }""")
    assert hit == {"inside": True, "hit": True}
    before = int(page.get_attribute("#game", "data-version") or 0)
    button.tap()
    page.wait_for_function(
        f"() => Number(document.getElementById('game').dataset.version) > {before}",
        timeout=WAIT_MS)
    wait_status(page, "playing")
    # In play the hand sticks to the bottom of the screen again.
    assert page.evaluate("() => getComputedStyle(document.getElementById('me')).position") == (
        "sticky")
    page.context.close()
    assert errors == []


# ----------------------------------------------------------------------
# 4. The last move's banner


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def contrast(text: str, background: str, under: str) -> float:
    """The contrast ratio of ``text`` on ``background`` laid over ``under`` (CSS colours)."""
    fr, fg, fb, fa = rgba(text)
    br, bg, bb, ba = rgba(background)
    ur, ug, ub, _ = rgba(under)
    back = (br * ba + ur * (1 - ba), bg * ba + ug * (1 - ba), bb * ba + ub * (1 - ba))
    front = (fr * fa + back[0] * (1 - fa), fg * fa + back[1] * (1 - fa),
             fb * fa + back[2] * (1 - fa))
    hi, lo = sorted((luminance(front), luminance(back)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


#: The banner's highlight replayed and sampled frame by frame (paused at each time):
#: its animations, their length, and at each sample the words' colour and opacity and
#: the banner's background, with the felt under it.
SAMPLE_BANNER = """() => {
    const box = document.getElementById('last-move');
    box.classList.remove('flash'); void box.offsetWidth; box.classList.add('flash');
    const anims = box.getAnimations({ subtree: true });
    const end = Math.max(0, ...anims.map((a) => a.effect.getComputedTiming().endTime));
    const samples = [];
    for (let k = 0; k <= 12; k++) {
        anims.forEach((a) => { a.pause(); a.currentTime = end * k / 12; });
        const words = getComputedStyle(box.querySelector('.words'));
        const own = getComputedStyle(box);
        samples.push({ color: words.color, opacity: Number(words.opacity) * Number(own.opacity),
                       background: own.backgroundColor, ring: own.boxShadow });
    }
    return { count: anims.length, end, samples,
             felt: getComputedStyle(box.parentElement).backgroundColor }; }"""


def banner_after_a_move(browser: Browser, server: Server,
                        **options: Any) -> tuple[Page, list[str], dict[str, Any]]:
    # Two moves played: each hand of four is one card short.
    game_id, token = played_game(server, "casino", 2, ["Ann", "Bob"],
                                 lambda pos: pos.hand_size(0) + pos.hand_size(1) == 6)
    page, errors = open_game(browser, server, game_id, token, DESKTOP, **options)
    page.wait_for_selector("#last-move:not([hidden]) .words", timeout=WAIT_MS)
    return page, errors, page.evaluate(SAMPLE_BANNER)


def test_the_last_move_banner_stays_readable_while_it_is_highlighted(
        server: Server, browser: Browser) -> None:
    page, errors, got = banner_after_a_move(browser, server)
    # The page marks a move it has not shown before.
    assert "flash" in (page.get_attribute("#last-move", "class") or "")
    assert got["count"] >= 1 and got["end"] > 0, "a new move is highlighted"
    colours = {s["color"] for s in got["samples"]}
    assert len(colours) == 1, f"the words change colour while highlighted: {colours}"
    assert all(s["opacity"] == 1 for s in got["samples"])
    for s in got["samples"]:
        ratio = contrast(s["color"], s["background"], got["felt"])
        assert ratio >= 4.5, f"the words are hard to read at one moment: {s} ({ratio:.2f})"
    # Something does mark the move at its start, and it is gone at the end.
    assert got["samples"][0]["ring"] != got["samples"][-1]["ring"]
    page.context.close()
    assert errors == []


def test_the_last_move_banner_does_not_move_for_reduced_motion(
        server: Server, browser: Browser) -> None:
    page, errors, got = banner_after_a_move(browser, server, reduced_motion="reduce")
    assert got["count"] == 0
    s = got["samples"][0]
    assert contrast(s["color"], s["background"], got["felt"]) >= 4.5
    page.context.close()
    assert errors == []


# ----------------------------------------------------------------------
# 5. Who captured last


@pytest.mark.parametrize("taker", [0, 1])
def test_the_seat_that_captured_last_is_shown_during_play(
        server: Server, browser: Browser, taker: int) -> None:
    game_id, token = played_game(
        server, "classic", 2, ["Ann", "Bob"],
        lambda pos: pos.last_capture == taker and pos.result is None and len(pos.table) > 0,
        captures_first=True)
    page, errors = open_game(browser, server, game_id, token, DESKTOP)
    wait_status(page, "playing")
    badges = page.locator(".badge.last-capture")
    assert badges.count() == 1
    holder = "#me" if taker == 0 else ".opponent[data-seat='1']"
    assert page.locator(f"{holder} .badge.last-capture").count() == 1
    title = badges.first.get_attribute("title") or ""
    assert "left on the table at the end of the round go to" in title
    page.context.close()
    assert errors == []


def test_the_replay_writes_penalties_with_their_sign_and_names_the_teams(
        server: Server, browser: Browser) -> None:
    """The replay page draws scores with the same formatters: a Krypkasino round's
    penalties are "−5", and a partnership's items name both partners."""
    service = server.app.state.service
    for rules, players, names, wanted in (
            ("krypkasino", 2, ["Ann", "Bob"], f"{MINUS}5"),
            ("classic", 4, ["Ann", "Bo", "Cy", "Di"], "Ann & Cy")):
        game_id, token = played_game(server, rules, players, names, round_over)

        async def resign(game_id: str = game_id) -> None:  # the game ends: its replay opens
            await service.turns.resign(await service.live.get(game_id), 1)

        server.run(resign())
        page, errors = open_game(browser, server, game_id, token, DESKTOP)
        page.goto(f"{server.base}/records/{game_id}")
        page.wait_for_selector("#replay-table", timeout=WAIT_MS)
        page.wait_for_function("() => document.getElementById('step-info').textContent !== '–'",
                               timeout=WAIT_MS)
        page.keyboard.press("End")
        page.wait_for_selector("#replay-scores .result-items li", timeout=WAIT_MS)
        text = page.inner_text("#replay-scores")
        assert wanted in text
        # The round's items in words and the totals after it, as the game page showed.
        result = server.position(game_id).result
        assert result is not None
        table = server.position(game_id).rules
        totals = " · ".join(f"{' & '.join(names[s] for s in table.seats if table.team_of(s) == t)}"
                            f": {total_text(result.scores[t])}" for t in table.teams)
        assert page.inner_text("#replay-scores p").splitlines()[0] == totals
        assert "10♦" in text and "Td" not in text
        for bad in ("null", "undefined", "NaN", "+-"):
            assert bad not in text, f"{bad!r} in the replay's scores"
        page.context.close()
        assert errors == []
