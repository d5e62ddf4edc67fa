"""The score pad and move helper pages in a real browser (issue 6): headless Debian Chromium.

A real uvicorn server runs in a thread on 127.0.0.1 with the tools' routes; the
browser enters a whole game of three rounds on the score pad by clicking and
typing, reloads it, corrects a past round, exports and imports it, and opens it
on a second device through its server link. On the move helper it sets up
positions met in real engine games by clicking cards, and the plays listed must
be exactly the engine's legal moves.

Chromium comes from Debian (``/usr/bin/chromium``), never from ``playwright
install``. Without it these tests are skipped, except in CI (``CI=true``), where
they fail.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_harness import serving, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from casino import Build, Match, Position  # noqa: E402
from casino.engine.cards import card_text  # noqa: E402
from casino.tools.helper import position, setup_from_json  # noqa: E402
from casino.tools.scorepad import RoundEntry, ScorePad  # noqa: E402
from casino.web.app import create_app  # noqa: E402
from casino.web.limits import Limits  # noqa: E402
from casino.words.shortlist import MAX_SHOWN  # noqa: E402

pytestmark = pytest.mark.timeout(120)

WAIT_MS = 20_000


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("tools") / "casino.db"
    # The helper's plays are what is checked here, not its deadline (test_web_workers
    # stops a slow job): a judged three-player Mulle table takes about a second on an
    # idle machine, several on a loaded one, so the deadline is made far from it.
    limits = Limits(helper_seconds=120.0)
    app = create_app(f"sqlite:///{db}", pool_workers=0, hint_level="beginner", limits=limits)
    with serving(app) as (url, _loop):
        yield url


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    ctx.set_default_timeout(WAIT_MS)
    yield ctx
    ctx.close()


# ----------------------------------------------------------------------
# The score pad

ROUNDS: list[dict[str, Any]] = [
    {"cards": [30, 22], "spades": [7, 6], "sweeps": [0, 1, 0],
     "takers": {"Td": [0], "2s": [1], "As": [1], "Ac": [0], "Ah": [1], "Ad": [0]}},
    {"most_cards": [1], "most_spades": [1], "sweeps": [1],
     "takers": {"Td": [1], "2s": [1], "As": [1], "Ac": [1], "Ah": [0], "Ad": [0]}},
    {"cards": [20, 32], "spades": [3, 10], "sweeps": [1, 1],
     "takers": {"Td": [1], "2s": [1], "As": [1], "Ac": [0], "Ah": [1], "Ad": [1]}},
]


def enter_round(page: Page, entry: dict[str, Any], *, names: tuple[str, ...] = ("Ann", "Bob"),
                submit: bool = True) -> None:
    """Fill the round form as a person would, from an entry's values."""
    for key in ("cards", "spades"):
        if key in entry:
            page.check(f"input[name=mode-{key}][value=counts]")
            for i, n in enumerate(entry[key]):
                page.fill(f"input[name={key}-{i}]", str(n))
        elif "most_" + key in entry:
            page.check(f"input[name=mode-{key}][value=most]")
            for side in entry["most_" + key]:
                page.check(f"input[name=most-{key}-{side}]")
    for code, sides in entry["takers"].items():
        for copy, side in enumerate(sides):
            page.click(f"input[name=taker-{code}-{copy}][value='{side}'] + span")
    for seat in entry.get("sweeps", []):
        page.click(f"button[data-add=sweeps-{seat}]")
    if submit:
        page.click("#round-submit")


def rounds_shown(page: Page) -> int:
    return page.locator("#pad-body tr.round-total").count()


def wait_rounds(page: Page, n: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('#pad-body tr.round-total').length === {n}")


def totals_shown(page: Page) -> list[int]:
    # A negative total is written with the minus sign (U+2212), as people read it.
    return [int(t.replace("\u2212", "-"))
            for t in page.locator("#pad-totals td.grand-total").all_inner_texts()]


def core_pad(entries: list[dict[str, Any]]) -> ScorePad:
    pad = ScorePad.new("casino", ["Ann", "Bob"])
    for e in entries:
        pad = pad.add_round(RoundEntry.from_json(e))
    return pad


def start_pad(page: Page, base: str) -> None:
    page.goto(base + "/scorepad")
    page.wait_for_selector("#setup:not([hidden])")
    page.select_option("#setup-rules", "casino")
    page.fill("input[name=name0]", "Ann")
    page.fill("input[name=name1]", "Bob")
    page.click("#setup-start")
    page.wait_for_selector("#sheet:not([hidden])")


def stored_pad(page: Page) -> dict[str, Any]:
    data = json.loads(page.evaluate("() => localStorage.getItem('casino.scorepad.v1')"))
    return dict(data["pad"])


def test_a_whole_game_reload_and_correction(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    errors = watch(page)
    start_pad(page, base)
    assert page.inner_text("#pad-players") == "Ann against Bob"

    # an impossible entry: refused beside its field, nothing typed is lost
    enter_round(page, {**ROUNDS[0], "cards": [40, 22]})
    error = page.locator("#field-cards .field-error")
    error.wait_for(state="visible")
    assert "52" in error.inner_text()
    assert page.input_value("input[name=cards-0]") == "40"
    assert page.is_checked("input[name=taker-Td-0][value='0']")
    assert rounds_shown(page) == 0
    page.fill("input[name=cards-0]", "30")
    page.click("#round-submit")
    wait_rounds(page, 1)

    for n, entry in enumerate(ROUNDS[1:], start=2):
        enter_round(page, entry)
        wait_rounds(page, n)
    game = core_pad(ROUNDS)
    assert game.is_over and game.winner == 1
    assert totals_shown(page) == list(game.totals)
    # the items of a round, in counting order, with running totals
    first_items = page.locator("#pad-body tr.item-row").all_inner_texts()
    assert first_items[0].split()[:2] == ["most", "cards"]
    assert page.is_visible("#winner-line") and "Bob" in page.inner_text("#winner-line")
    assert page.is_hidden("#round-form")  # the game is over
    assert stored_pad(page) == game.to_json()

    # a reload (or a closed tab) keeps it
    page.reload()
    wait_rounds(page, 3)
    assert totals_shown(page) == list(game.totals)
    page.close()
    page = context.new_page()
    errors += watch(page)
    page.goto(base + "/scorepad")
    wait_rounds(page, 3)
    assert totals_shown(page) == list(game.totals)

    # fix round 1: everything after it is recomputed
    page.click("button[data-fix='0']")
    page.wait_for_selector("#round-form.correcting")
    assert page.input_value("input[name=cards-0]") == "30"
    page.fill("input[name=spades-0]", "3")
    page.fill("input[name=spades-1]", "10")
    page.click("#round-submit")
    page.wait_for_selector("#round-form:not(.correcting)", state="attached")
    fixed = game.replace_round(0, RoundEntry.from_json({**ROUNDS[0], "spades": [3, 10]}))
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#pad-totals td.grand-total')]"
        f".map(t => Number(t.textContent)).join() === '{','.join(map(str, fixed.totals))}'")
    assert totals_shown(page) == list(fixed.totals) != list(game.totals)

    # undo takes the correction back
    page.click("#undo-button")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#pad-totals td.grand-total')]"
        f".map(t => Number(t.textContent)).join() === '{','.join(map(str, game.totals))}'")
    assert not errors


def test_export_import_and_a_shared_link(base: str, context: BrowserContext,
                                         browser: Browser, tmp_path: Path) -> None:
    page = context.new_page()
    errors = watch(page)
    start_pad(page, base)
    enter_round(page, ROUNDS[0])
    wait_rounds(page, 1)
    enter_round(page, ROUNDS[1])
    wait_rounds(page, 2)
    want = totals_shown(page)

    with page.expect_download() as info:
        page.click("#export-button")
    path = tmp_path / "pad.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported == stored_pad(page) == core_pad(ROUNDS[:2]).to_json()

    page.once("dialog", lambda d: d.accept())
    page.click("#new-button")
    page.wait_for_selector("#setup:not([hidden])")
    page.set_input_files("#setup .import-file", str(path))
    # The hidden sheet still holds the old rows: wait for it to show the import.
    page.wait_for_selector("#sheet:not([hidden])")
    wait_rounds(page, 2)
    assert totals_shown(page) == want

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**exported, "format": "nope"}), encoding="utf-8")
    page.set_input_files("#sheet .import-file", str(bad))
    page.wait_for_selector("#pad-alert:not([hidden])")
    assert "format" in page.inner_text("#pad-alert")
    assert totals_shown(page) == want  # the pad in use is kept

    # kept on the server: another device opens it from the link, and saves a round
    page.click("#share-button")
    page.wait_for_selector("#share-line:not([hidden])")
    link = page.input_value("#share-link")
    assert "/scorepad/" in link and "#" in link
    other = browser.new_context()
    try:
        phone = other.new_page()
        errors += watch(phone)
        phone.goto(link)
        wait_rounds(phone, 2)
        assert totals_shown(phone) == want
        # The page shows the round at once and saves it to the server behind that: wait
        # for the save before the first device looks.
        def third_round_saved(r: Any) -> bool:
            if "/api/scorepads/" not in r.url or r.request.method != "PUT":
                return False  # (opening the link saves the pad too, with two rounds)
            return len(json.loads(r.request.post_data or "{}")["pad"]["rounds"]) == 3

        with phone.expect_response(third_round_saved):
            enter_round(phone, ROUNDS[2])
        wait_rounds(phone, 3)
        page.reload()  # back on the first device: the server has the third round
        wait_rounds(page, 3)
        forged = other.new_page()
        forged.goto(link.split("#")[0] + "#not-the-secret")
        forged.wait_for_selector("#pad-alert:not([hidden])")
        assert "secret" in forged.inner_text("#pad-alert")
    finally:
        other.close()
    assert not errors


# ----------------------------------------------------------------------
# The move helper


def set_up_by_clicking(page: Page, pos: Position) -> None:
    """Describe ``pos`` (as its player to move sees it) on the helper page by clicking."""
    rules = pos.rules
    you = pos.to_move
    order = [(you + k * rules.direction) % rules.players for k in range(rules.players)]
    page.click("#helper-clear")
    page.select_option("#helper-rules", rules.name)
    page.select_option("#helper-players", str(rules.players))
    page.check("#target-table", force=True)
    zone = page.locator("#table-zone > *")

    def put(cards: tuple[int, ...]) -> list[int]:
        start = zone.count() if page.locator("#table-zone .zone-empty").count() == 0 else 0
        for c in cards:
            page.click(f"#picker [data-card='{card_text(c)}']")
        return list(range(start, start + len(cards)))

    for item in pos.table:
        if isinstance(item, Build):
            for g, group in enumerate(item.groups):
                for i in put(group):
                    zone.nth(i).click()
                if g == 0:
                    page.fill("#build-value", str(item.value))
                    owner = ((item.owner - you) * rules.direction) % rules.players
                    page.select_option("#build-owner", str(owner))
                    page.click("#make-build")
                else:
                    page.locator("[data-add-group]").last.click()
        else:
            put((item,))
    page.check("#target-hand", force=True)
    for c in pos.hand(you):
        page.click(f"#picker [data-card='{card_text(c)}']")
    for k, seat in enumerate(order):  # every captured card, so that the stock can be given
        page.check(f"#target-captured-{k}", force=True)
        for c in pos.piles[seat]:
            page.click(f"#picker [data-card='{card_text(c)}']")
    if pos.set_aside:
        page.check("#target-aside", force=True)
        for c in pos.set_aside:
            page.click(f"#picker [data-card='{card_text(c)}']")
    for k, seat in enumerate(order[1:], start=1):
        page.fill(f"#opponent-{k}", str(pos.hand_size(seat)))
    page.fill("#stock", str(pos.stock_size))


def positions(name: str, players: int, seed: int, want: int) -> list[Position]:
    """Positions of a random game with a choice of plays: those with a multiple build
    (several groups) first, then other builds, then cards set aside, then those with
    fewer captured cards (each is one more click to describe)."""
    rng = random.Random(seed)
    match = Match(name, seed=seed, players=players)
    found: list[Position] = []
    while match.position.result is None:
        pos = match.position
        if len(pos.table) <= 7 and len(pos.legal_moves()) >= 3:
            found.append(pos)
        match.play(rng.choice(match.legal_moves()))

    def groups(pos: Position) -> int:
        return max((len(t.groups) for t in pos.table if isinstance(t, Build)), default=0)

    found.sort(key=lambda p: (-groups(p), -len(p.set_aside), sum(map(len, p.piles))))
    return found[:want]


#: One ruleset is clicked through in the fast suite; the others (each a few seconds of
#: clicking) are marked slow and run in CI.
CASES = [pytest.param(*case, id=case[0], marks=() if case[0] == "casino" else pytest.mark.slow)
         for case in [("casino", 2, 2, 1), ("classic", 4, 1, 1), ("mulle", 3, 2, 1),
                      ("krypkasino", 2, 3, 1)]]


@pytest.mark.parametrize(("name", "players", "seed", "count"), CASES)
def test_the_helper_lists_the_engines_moves(base: str, context: BrowserContext, name: str,
                                            players: int, seed: int, count: int) -> None:
    page = context.new_page()
    errors = watch(page)
    page.goto(base + "/helper?level=beginner")
    found = positions(name, players, seed, count)
    assert found
    for pos in found:
        set_up_by_clicking(page, pos)
        page.click("#list-plays")
        page.wait_for_selector("#plays li, #helper-error:not([hidden])")
        assert page.is_hidden("#helper-error"), page.inner_text("#helper-error")
        listed = Counter(page.locator("#plays li").evaluate_all(
            "items => items.map(li => li.dataset.move)"))
        legal = Counter(str(m) for m in pos.legal_moves())
        if sum(legal.values()) <= MAX_SHOWN:
            assert listed == legal, page.inner_text("#plays")
        else:  # the strongest, and the page says how many more
            assert sum(listed.values()) == MAX_SHOWN and not listed - legal
            assert f"…and {sum(legal.values()) - MAX_SHOWN} more" in page.inner_text(
                "#plays-more")
        assert page.locator("#plays li.best").count() == 1
    assert not errors


def test_the_helper_explains_an_impossible_set_up(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    errors = watch(page)
    page.goto(base + "/helper?level=beginner")
    page.click("#helper-clear")
    page.select_option("#helper-rules", "casino")
    page.check("#target-hand", force=True)
    page.click("#picker [data-card='9d']")
    assert page.is_disabled("#picker [data-card='9d']")  # one deck: a card once
    page.check("#target-table", force=True)
    page.click("#picker [data-card='9c']")
    page.click("#picker [data-card='4c']")
    page.locator("#table-zone > *").nth(0).click()
    page.locator("#table-zone > *").nth(1).click()
    page.fill("#build-value", "5")
    page.click("#make-build")
    page.click("#list-plays")
    page.wait_for_selector("#helper-error:not([hidden])")
    assert "5" in page.inner_text("#helper-error")
    assert page.locator("#plays li").count() == 0
    # breaking the build up gives a position the helper reads
    page.click("#table-zone .zone-build button:has-text('break up')")
    page.click("#list-plays")
    page.wait_for_selector("#plays li")
    assert page.is_hidden("#helper-error")
    assert "9d x 9c" in page.locator("#plays li").evaluate_all(
        "items => items.map(li => li.dataset.move)")
    assert not errors


def test_the_helper_answers_a_crowded_table_and_a_cards_own_plays(
        base: str, context: BrowserContext) -> None:
    """Kasino with every A to 6 on the table (24 cards; once refused as too crowded):
    a short list, said to be a selection; then the 8♠'s own plays, and those that use
    the two table cards selected."""
    page = context.new_page()
    errors = watch(page)
    page.goto(base + "/helper?level=none")
    page.click("#helper-clear")
    page.select_option("#helper-rules", "kasino")
    page.check("#target-table", force=True)
    for r in "A23456":
        for suit in "cdhs":
            page.click(f"#picker [data-card='{r}{suit}']")
    page.check("#target-hand", force=True)
    for c in ("Td", "8s"):
        page.click(f"#picker [data-card='{c}']")
    page.click("#list-plays")
    page.wait_for_selector("#plays li, #helper-error:not([hidden])")
    assert page.is_hidden("#helper-error"), page.inner_text("#helper-error")
    assert "a selection (the table is crowded" in page.inner_text("#plays-note")
    pos = position(setup_from_json({"rules": "kasino", "hand": ["Td", "8s"],
                                    "table": [r + suit for r in "A23456" for suit in "cdhs"]}))

    def plays() -> list[str]:
        return list(page.locator("#plays li").evaluate_all(
            "items => items.map(li => li.dataset.move)"))

    shown = plays()
    assert 0 < len(shown) <= MAX_SHOWN
    assert all(pos.is_legal(pos.parse_move(t)) for t in shown)
    assert {t[:2] for t in shown} == {"Td", "8s"}
    page.click("#plays-cards [data-plays-card='8s']")
    page.wait_for_selector("#plays-cards [data-plays-card='8s'][aria-pressed='true']")
    assert "of the 8 of spades" in page.inner_text("#plays-note")
    assert plays() and all(t.startswith("8s") for t in plays())
    # Select the 4♥ and 4♠ on the table: the 8♠'s plays using them, exactly them first.
    zone = page.locator("#table-zone > *")
    for card in ("4h", "4s"):
        zone.nth([r + suit for r in "A23456" for suit in "cdhs"].index(card)).click()
    page.click("#plays-cards [data-plays-card='8s']")
    page.wait_for_function("() => document.querySelector('#plays li')?.dataset.move "
                           "=== '8s x 4h+4s'")
    assert "with the selected table cards" in page.inner_text("#plays-note")
    assert all(pos.is_legal(pos.parse_move(t)) for t in plays())
    assert not errors
