"""The post-game review on the replay page, in headless Chromium (issue 18: "the web review
of a finished game works in Chromium"): asked for, computed by the server, drawn as a graph
and a list of graded moves; a move clicked shows the position before it and the better move.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

from casino.engine.cards import card_symbol, parse_card  # noqa: E402
from casino.web.reviews import ReviewSetting  # noqa: E402
from tests.web_helpers import FAST, finish_friends_game  # noqa: E402

pytestmark = pytest.mark.timeout(120)

WAIT_MS = 30_000
#: A review small enough for a test (players get docs/review.md's default).
SMALL = ReviewSetting(samples=2, depth=2, nodes=200)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("review"), limits=FAST,
                     review_setting=SMALL) as server:
        yield server


def finished_game(server: LiveServer, seed: int = 3) -> str:
    """Ann and Bob play a round (each their first legal move), then Bob resigns."""
    return server.run(finish_friends_game(server.app.state.service, seed=seed))  # type: ignore[no-any-return]


def card_alt(text: str) -> str:
    """A card's alternative text on the replay page: ``10♦``, ``K♠``."""
    return card_symbol(parse_card(text))


def open_replay(page: Page, server: LiveServer, game: str) -> None:
    page.goto(f"{server.base}/records/{game}")
    page.wait_for_function("() => document.getElementById('step-info').textContent !== '–'",
                           timeout=WAIT_MS)
    page.wait_for_selector("#review:not([hidden])", timeout=WAIT_MS)


def test_the_review_of_a_finished_game_on_its_replay_page(server: LiveServer,
                                                          browser: Browser) -> None:
    game = finished_game(server)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors = watch(page)
    open_replay(page, server, game)
    assert page.eval_on_selector_all("#review-seat option", "os => os.map(o => o.textContent)") \
        == ["Ann (seat 0)", "Bob (seat 1)"]
    assert page.input_value("#review-seat") == "0" and page.is_hidden("#review-body")
    page.click("#review-button")
    page.wait_for_selector("#review-moves .review-move", timeout=WAIT_MS)
    assert "is ready" in page.inner_text("#review-status")
    assert page.get_attribute("#review-status", "aria-live") == "polite"
    review = server.run(server.app.state.service.review(game, "0"))["review"]
    decisions = review["decisions"]
    # The graph: a point per judged decision, coloured by grade; a line per round.
    assert page.locator("#review-graph svg circle.point").count() == len(decisions)
    grades = page.eval_on_selector_all("#review-graph svg circle.point",
                                       "ps => ps.map(p => p.getAttribute('class'))")
    assert grades == [f"point grade-{d['grade']}" for d in decisions]
    assert page.locator("#review-graph svg polyline").count() == len({d["round"]
                                                                      for d in decisions})
    # The graded moves, the costliest in the review's own words, the totals by kind.
    assert page.locator(".review-move").count() == len(decisions)
    first = page.inner_text(".review-move >> nth=0")
    assert decisions[0]["words"] in first and "Hindsight" in first
    # Each decision in the review's words (its verdict: "About as good" for a good move
    # within the judge's noise) and its cost with the interval the deals allow.
    labels = page.eval_on_selector_all(".review-move .review-line .grade",
                                       "gs => gs.map(g => g.textContent)")
    assert labels == [d["verdict"][0].upper() + d["verdict"][1:] for d in decisions]
    costs = page.eval_on_selector_all(".review-move .review-cost",
                                      "cs => cs.map(c => c.textContent)")
    for d, text in zip(decisions, costs, strict=True):
        assert text.startswith("Cost ")
        assert (" to " in text) == (d["low"] != d["high"]), (d, text)
    assert page.eval_on_selector_all("#review-advice li", "ls => ls.map(l => l.textContent)") \
        == (review["advice"] or ["No decision surely cost anything."])
    assert page.locator("#review-totals tbody tr").count() == 4
    # A move clicked: the replay shows the position before it, and the better move.
    costly = max(range(len(decisions)), key=lambda i: (decisions[i]["cost"], -i))
    d = decisions[costly]
    page.click(f".review-move[data-index='{costly}']")
    data = page.evaluate(f"fetch('/api/records/{game}').then(r => r.json())")
    step = data["starts"][str(d["round"])] + d["ply"]
    page.wait_for_selector("#review-focus:not([hidden])", timeout=WAIT_MS)
    assert page.inner_text("#step-info").startswith(f"{step} / ")
    assert page.get_attribute(f".review-move[data-index='{costly}']", "aria-current") == "true"
    focus = page.inner_text("#review-focus")
    assert d["words"] in focus and "Better:" in focus
    if d["cost"] > 0:
        assert d["preferred_words"] in focus and d["preferred_leaves"] in focus
    table = page.eval_on_selector_all("#replay-table .table-item.card img",
                                      "is => is.map(i => i.alt)")
    assert table == [card_alt(c) for c in d["position"]["table"] if isinstance(c, str)]
    hand = page.eval_on_selector_all("#replay-seats .seat-box >> nth=0",
                                     "bs => [...bs[0].querySelectorAll('.hand img')]"
                                     ".map(i => i.alt)")
    assert hand == [card_alt(c) for c in d["position"]["hands"][0]]
    # Stepping away leaves the decision; a graph point goes back to it.
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#review-focus", state="hidden", timeout=WAIT_MS)
    page.locator(f"#review-graph circle[data-index='{costly}']").click()
    page.wait_for_selector("#review-focus:not([hidden])", timeout=WAIT_MS)
    assert page.inner_text("#step-info").startswith(f"{step} / ")
    # Bob's review is his own; Ann's, asked for again, is shown at once from the server.
    page.select_option("#review-seat", "1")
    page.wait_for_selector("#review-body", state="hidden", timeout=WAIT_MS)
    page.select_option("#review-seat", "0")
    page.wait_for_selector("#review-moves .review-move", timeout=WAIT_MS)
    assert server.app.state.service.reviewer.stats.computed == 1
    assert errors == []
    ctx.close()


def test_the_review_fits_a_phone_and_says_why_an_unfinished_game_has_none(
        server: LiveServer, browser: Browser) -> None:
    game = finished_game(server, seed=5)
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    errors = watch(page)
    open_replay(page, server, game)
    page.click("#review-button")
    page.wait_for_selector("#review-moves .review-move", timeout=WAIT_MS)
    page.locator(".review-move >> nth=0").click()
    page.wait_for_selector("#review-focus:not([hidden])", timeout=WAIT_MS)
    wide = page.evaluate("() => document.documentElement.scrollWidth - "
                         "document.documentElement.clientWidth")
    assert wide <= 0
    assert errors == []
    # The API refuses a live game in words; the page is not offered for one.
    live = server.app.state.service.rooms.create(rules="casino", players=2, level="beginner",
                                           mode="computer", name="Ann", seed=1).game
    answer = page.evaluate(f"fetch('/api/games/{live}/review?seat=0', {{method: 'POST'}})"
                           ".then(async r => [r.status, (await r.json()).error])")
    assert answer[0] == 403 and "not finished" in answer[1]
    ctx.close()


def test_the_game_ends_review_link_opens_the_review_of_that_seat(server: LiveServer,
                                                                  browser: Browser) -> None:
    """"Review my play" at a game's end links to ``/records/<id>?seat=N#review``: the
    replay page chooses that seat and asks for its review at once."""
    game = finished_game(server, seed=8)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors = watch(page)
    page.goto(f"{server.base}/records/{game}?seat=1#review")
    page.wait_for_selector("#review-moves .review-move", timeout=WAIT_MS)
    assert page.input_value("#review-seat") == "1"
    review = server.run(server.app.state.service.review(game, "1"))["review"]
    assert review["seat"] == 1
    assert page.locator(".review-move").count() == len(review["decisions"])
    # A seat the game does not have is not taken from the address.
    page.goto(f"{server.base}/records/{game}?seat=7#review")
    page.wait_for_selector("#review:not([hidden])", timeout=WAIT_MS)
    assert page.input_value("#review-seat") == "0"
    assert errors == []
    ctx.close()
