"""The full-screen terminal game, driven headless through textual's Pilot.

Each test starts a real :class:`~casino.tui.app.CasinoApp` on a session with
beginner computers (their moves are instant) and no pause between moves, and
plays through the keys, the mouse and the typed-move input as a person would.
pytest-asyncio is not a dependency: each test runs its coroutine with
``asyncio.run``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList, Static

from casino.engine.builds import Build
from casino.engine.cards import card_symbol, parse_card
from casino.engine.moves import Move
from casino.engine.record import load_record
from casino.engine.rules import describe, preset
from casino.play.session import HUMAN, GameSession
from casino.play.standing import round_so_far, unseen
from casino.tui.app import CasinoApp, QuitScreen
from casino.tui.choice import attempt_text, chosen_words
from casino.tui.screens import RoundOverScreen, RulesScreen, SaveScreen
from casino.tui.widgets import HAND_KEYS, TABLE_KEYS, CardFace, SeatPanel, option_words
from casino.words.narrate import result_lines
from casino.words.shortlist import MAX_SHOWN
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration
from tests.tui_helpers import NewGames, beginner_session, current, on_top, play_on

SIZE = (120, 40)

AppTest = Callable[[CasinoApp, Pilot[None]], Awaitable[None]]


def new_session(tmp_path: Path, rules: str = "casino", seed: int = 11,
                **options: object) -> GameSession:
    return beginner_session(tmp_path / "g.rec", rules, seed=seed, options=options)


def drive(app: CasinoApp, test: AppTest) -> None:
    """Run ``test`` against ``app`` headless, at a fixed screen size."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await test(app, pilot)

    asyncio.run(main())


async def settle(app: CasinoApp, pilot: Pilot[None]) -> None:
    """Wait until the game waits for the person: their turn, or a round's result."""
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, RoundOverScreen) or (
                on_board(app) and app.game.phase == "human"):
            return
    raise AssertionError(f"the game never waited for the person (phase {app.game.phase})")


def on_board(app: CasinoApp) -> bool:
    """True when the game screen is on top (no dialog open)."""
    return app.screen is app.game


def text_of(app: CasinoApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).visual)


async def starts_another_game(app: CasinoApp, pilot: Pilot[None], again: NewGames) -> None:
    """Enter on the game's end screen starts the game ``again`` makes, on the board."""
    await pilot.press("enter")
    await settle(app, pilot)
    assert again.made and app.session is again.made[0]
    assert app.session.log == [] or app.session.log[0].seat != app.session.human
    assert on_board(app)


def keys_for(app: CasinoApp, move: Move) -> list[str]:
    """The keys that pick ``move``'s card and the table items it uses."""
    view = app.game.view
    hand = view.hands[app.session.human]
    assert isinstance(hand, tuple)
    keys = [HAND_KEYS[hand.index(move.card)]]
    wanted: Counter[int | Build] = Counter([*move.loose, *move.builds])
    for i, item in enumerate(view.table):
        if wanted[item] > 0:
            wanted[item] -= 1
            keys.append(TABLE_KEYS[i])
    return keys


async def play_by_keys(app: CasinoApp, pilot: Pilot[None], move: Move) -> None:
    """Pick the card and the items, choose ``move`` among the options, press Enter
    (after Escape if the move box has the focus: it keeps it after a typed move)."""
    if isinstance(app.focused, Input):
        await pilot.press("escape")
    await pilot.press(*keys_for(app, move))
    options = app.game.options
    assert move in options, (f"{move} not offered: {options} {keys_for(app, move)} "
                             f"{app.game.message} {app.game.view.table}")
    await pilot.press(*["down"] * options.index(move), "enter")


async def play_by_typing(app: CasinoApp, pilot: Pilot[None], move: Move) -> None:
    """Type the move's card and accept the completion; paste the whole move if the
    completion named another legal move (it offers the first that fits)."""
    await pilot.press("tab")
    box = app.screen.query_one("#move-input", Input)
    assert box.has_focus
    text = str(move)
    await pilot.press(*text[:2])
    await pilot.press("right")  # accept the suggestion, if any
    completed = box.value
    assert completed.startswith(text[:2])
    assert completed in {str(m) for m in app.session.legal_moves()} or completed == text[:2]
    if completed != text:
        box.value = text
    await pilot.press("enter")


#: The person's moves the fast variant of the whole game plays: two deals, by keys and
#: by typing (every seventh move is typed, from the fourth on).
FIRST_MOVES = 8


@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["first-deals", "whole-game"])
def test_complete_game_with_keys_typing_and_the_round_screens(tmp_path: Path,
                                                              whole: bool) -> None:
    """The whole game (slow) or, in the fast suite, its first ``FIRST_MOVES`` moves: the
    same moves by keys and by typing. The round's and the game's end screens have fast
    tests of their own (test_a_finished_round_shows_its_scoring_first,
    test_a_finished_game_offers_another)."""
    # Seed 23 with this way of choosing ends in two rounds and uses every kind of move.
    session = new_session(tmp_path, seed=23)
    again = NewGames(lambda: new_session(tmp_path / "again", seed=12))
    app = CasinoApp(session, again, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        rounds = 0
        played = 0
        while True:
            if isinstance(app.screen, RoundOverScreen):
                rounds += 1
                s = app.session
                view = app.game.view
                assert view.result is not None
                items = text_of(app, "#round-items")
                for line in result_lines(view.result, s.rules, s.names,
                                         s.scores_before_round):
                    assert line.strip() in items
                assert text_of(app, "#round-verdict")
                if s.game_over:
                    break
                await pilot.press("enter")
                await settle(app, pilot)
                assert app.session.view.round == rounds + 1
                continue
            assert app.game.phase == "human"
            moves = app.session.legal_moves()
            # Mostly trails (few keys; the computer soon wins), now and then anything.
            trails = [m for m in moves if m.kind == "trail"]
            move = trails[0] if trails and played % 4 else moves[played % len(moves)]
            before = len(app.session.log)
            if played % 7 == 3:
                await play_by_typing(app, pilot, move)
            else:
                await play_by_keys(app, pilot, move)
            assert len(app.session.log) > before, app.game.message
            played += 1
            await settle(app, pilot)
            if not whole and played == FIRST_MOVES:
                record = load_record(tmp_path / "g.rec")
                assert record.position == app.session.match.position
                return
        assert session.game_over and rounds >= 1 and played > 20
        record = load_record(tmp_path / "g.rec")
        assert record.rules == session.rules
        # The end: the result, and an offer to play again, which starts a new game.
        assert app.screen.query_one("#again", Button)
        assert "win" in text_of(app, ".dialog-title")
        await starts_another_game(app, pilot, again)

    drive(app, test)


def test_a_finished_game_offers_another(tmp_path: Path) -> None:
    """A game played to its end (here by the session itself) shows the last round's
    result and who won, and Enter starts the new game the app is given."""
    session = play_on(new_session(tmp_path, seed=23))
    again = NewGames(lambda: new_session(tmp_path / "again", seed=12))
    app = CasinoApp(session, again, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        assert on_top(app, RoundOverScreen).query_one("#again", Button)
        assert "win" in text_of(app, ".dialog-title")
        assert text_of(app, "#round-verdict")
        await starts_another_game(app, pilot, again)

    drive(app, test)


def test_illegal_choice_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    app = CasinoApp(session, None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        view = app.session.view
        log = list(app.session.log)
        hand = view.hands[app.session.human]
        assert isinstance(hand, tuple)
        legal = app.session.legal_moves()
        # A card and one table item that no legal move plays together.
        pair = next((h, t) for h in range(len(hand)) for t in range(len(view.table))
                    if not any(m.card == hand[h] and view.table[t] in (*m.loose, *m.builds)
                               for m in legal))
        await pilot.press(HAND_KEYS[pair[0]], TABLE_KEYS[pair[1]])
        assert app.game.options == []
        await pilot.press("enter")
        assert "Not allowed" in app.game.message
        assert app.screen.query_one("#message").has_class("error")
        assert app.session.view == view and app.session.log == log
        # A card that is not there, and a typed move that is not a move.
        await pilot.press("escape", "9")
        assert "no card 9" in app.game.message
        await pilot.press("tab", *"zz", "enter")
        assert "Not allowed" in app.game.message
        assert app.session.view == view and app.session.log == log
        await pilot.press("escape")
        assert app.focused is None

    drive(app, test)


def test_hint_is_shown_and_its_card_highlighted(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = app.game.hint_move
        assert hint is not None and hint in app.session.legal_moves()
        assert app.game.message.startswith("Hint:") and str(hint) in app.game.message
        # Its reason on the next line: what it takes and leaves, its margin by the judge.
        reason = app.game.message.splitlines()[1]
        assert reason.startswith("It takes") and "By the judge" in reason
        hinted = [w for w in app.screen.query(CardFace) if w.has_class("hinted")]
        assert any(w.zone == "hand" and w.card == hint.card for w in hinted)

    drive(app, test)


def test_undo_restores_the_position(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        view = app.session.view
        log = list(app.session.log)
        await pilot.press("u")  # nothing of yours to take back yet
        assert app.screen.query_one("#message").has_class("error")
        assert app.session.view == view and app.session.log == log
        await play_by_keys(app, pilot, app.session.legal_moves()[0])
        await settle(app, pilot)
        assert len(app.session.log) > len(log)
        await pilot.press("u")
        await settle(app, pilot)
        assert app.session.view == view and app.session.log == log
        assert app.game.view == view
        assert app.game.message.startswith("Taken back")

    drive(app, test)


def test_save_as_and_resume_in_a_new_app(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)
    target = tmp_path / "saved" / "mine.rec"

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        for _ in range(3):
            await play_by_keys(app, pilot, app.session.legal_moves()[-1])
            await settle(app, pilot)
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        box = app.screen.query_one(Input)
        assert box.value == str(tmp_path / "g.rec")
        box.value = str(target)
        await pilot.press("enter")
        assert on_board(app)
        assert target.exists() and "Saved to" in app.game.message
        assert load_record(target).rules == app.session.rules
        await pilot.press("q")

    drive(app, test)
    before = app.session
    resumed = GameSession.resume(target)
    assert resumed.view == before.view and len(resumed.log) == len(before.log)
    again = CasinoApp(resumed, None, pause=0)

    async def go_on(app: CasinoApp, pilot: Pilot[None]) -> None:
        assert app.game.view == before.view
        assert before.log[-1].words in text_of(app, "#last-move")
        await play_by_keys(app, pilot, app.session.legal_moves()[0])
        await settle(app, pilot)
        assert len(app.session.log) > len(before.log)
        assert len(load_record(target).rounds[-1].moves) > 0

    drive(again, go_on)


def test_the_game_box_shows_a_seed_only_when_the_game_has_one(tmp_path: Path) -> None:
    shown: list[str] = []

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        shown.append(text_of(app, "#game-info"))

    drive(CasinoApp(new_session(tmp_path, seed=23), None, pause=0), test)
    unseeded = beginner_session(None, seed=None, autosave=False)
    drive(CasinoApp(unseeded, None, pause=0), test)
    assert "seed 23" in shown[0]
    assert "Round 1 · deal 1/" in shown[1] and "seed" not in shown[1]


def test_rules_screen_opens_and_closes(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path, "krypkasino"), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        assert "Game 1 · deal 1/" in text_of(app, "#game-info")
        await pilot.press("f1")
        assert isinstance(app.screen, RulesScreen)
        body = text_of(app, "#rules-body")
        for line in describe(app.session.rules)[1:]:
            assert line in body
        assert "undo" in text_of(app, "#rules-keys")
        await pilot.press("escape")
        assert on_board(app)

    drive(app, test)


def test_the_rules_screen_says_what_scores_in_the_games_own_options() -> None:
    # F1's guide used to give the preset's points whatever options the game was played with.
    screen = RulesScreen("Rules", [], guide=preset("casino", sweep_points=3))
    assert any("each sweep 3" in line for line in screen.guide)
    assert not any("each sweep 1" in line for line in screen.guide)


def test_mouse_picks_cards_and_options(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        move = next((m for m in app.session.legal_moves() if m.loose),
                    app.session.legal_moves()[0])
        keys = keys_for(app, move)
        faces = {(w.zone, w.index): w for w in app.screen.query(CardFace)}
        await pilot.click(faces["hand", HAND_KEYS.index(keys[0])])
        for key in keys[1:]:
            item = next(w for w in app.screen.query("#table CardFace, #table BuildStack")
                        if getattr(w, "index", None) == TABLE_KEYS.index(key))
            await pilot.click(item)
        options = app.game.options
        assert move in options
        before = len(app.session.log)
        await pilot.click("#options", offset=(2, 1 + options.index(move)))
        await settle(app, pilot)
        assert app.session.log[before].move == move

    drive(app, test)


@pytest.mark.parametrize("players", [4])
def test_partnerships_are_shown_as_partners(tmp_path: Path, players: int) -> None:
    session = new_session(tmp_path, "classic", players=players, partnerships=True)
    app = CasinoApp(session, None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        panels = list(app.screen.query(SeatPanel))
        assert len(panels) == 4
        roles = [str(p.border_subtitle).split(" · ")[0] for p in panels]
        assert roles == ["you", "opponent", "partner", "opponent"]
        assert panels[2].has_class("ally") and panels[1].has_class("foe")
        assert "You & Partner" in text_of(app, "#score")
        # Hidden cards stay hidden: other seats show only how many they hold.
        view = app.game.view
        assert all(isinstance(view.hands[s], int) for s in (1, 2, 3))
        await play_by_keys(app, pilot, app.session.legal_moves()[0])
        await settle(app, pilot)
        assert len(app.session.log) >= 4

    drive(app, test)


def test_a_finished_round_shows_its_scoring_first(tmp_path: Path) -> None:
    session = play_on(new_session(tmp_path, seed=2), to="round")
    assert not session.game_over
    app = CasinoApp(session, None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        assert on_top(app, RoundOverScreen).query_one("#next", Button)
        assert "Round 1 is over" in text_of(app, ".dialog-title")
        await pilot.press("enter")
        await settle(app, pilot)
        assert on_board(app) and app.session.view.round == 2
        await pilot.press("q")  # mid-game: it asks first
        on_top(app, QuitScreen)
        await pilot.press("y")
        assert app.return_code is not None or not app.is_running

    drive(app, test)


def test_options_are_named_in_a_few_words() -> None:
    c = parse_card
    five = Build.make(5, 1, ((c("4d"), c("Ac")),))
    eight = Build.make(8, 0, ((c("5d"), c("3s")),))
    assert option_words(Move("trail", c("7h"))) == "trail 7♥"
    capture = Move("capture", c("9d"), (c("4c"), c("5h"), c("9c")), (eight,),
                   groups=((c("9c"),), (c("5h"), c("4c"))))
    assert option_words(capture) == "capture 9♣, 5♥+4♣ and the 8-build"
    build = Move("build", c("5d"), (c("3s"),), value=8, groups=((c("5d"), c("3s")),))
    assert option_words(build) == "build 8: 5♦+3♠"
    assert option_words(Move("raise", c("3c"), (), (five,), 8,
                             groups=((c("3c"),),))) == "raise the 5-build to 8"
    assert option_words(Move("add", c("2h"), (c("6c"),), (eight,), 8,
                             groups=((c("2h"), c("6c")),))) == "add 6♣+2♥ to the 8-build"


def test_the_chosen_items_in_words_and_as_move_text() -> None:
    c = parse_card
    eight = Build.make(8, 1, ((c("5d"), c("3c")),))
    table = (c("5h"), c("3s"), c("8c"), eight)
    assert chosen_words(table, [2, 3]) == "8♣, the 8-build"
    assert attempt_text(c("8d"), table, [2, 3]) == "8d x 8c [5d+3c]"
    assert attempt_text(c("8d"), table, []) == "8d"


def test_a_crowded_table_offers_a_bounded_list_of_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kasino with 20-odd loose cards (issue 15): the options of a card, and of a card
    with table items, are asked of the engine: a short list of legal moves, the rest
    announced in a line of their own; nothing lists every move."""
    forbid_enumeration(monkeypatch)
    session = GameSession(crowded_kasino_match(), [HUMAN, "beginner"],
                          save_path=tmp_path / "crowded.rec")
    app = CasinoApp(session, None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        view = app.game.view
        assert len(view.loose) >= 20 and app.game.phase == "human"
        await pilot.press(HAND_KEYS[0])
        options = app.game.options
        assert 0 < len(options) <= MAX_SHOWN
        assert all(view.is_legal(m) and m.card == view.hand(0)[0] for m in options)
        box = app.screen.query_one("#options", OptionList)
        assert box.option_count == len(options) + 1  # and the line about the others
        last = box.get_option_at_index(len(options))
        assert last.disabled and "choose table items" in str(last.prompt)
        capture = next(m for m in options if m.loose)
        for x in capture.loose[:2]:
            await pilot.press(TABLE_KEYS[view.table.index(x)])
        narrowed = app.game.options
        assert narrowed and len(narrowed) <= MAX_SHOWN
        assert all(view.is_legal(m) and set(capture.loose[:2]) <= set(m.loose)
                   for m in narrowed)
        played = len(app.session.log)
        await pilot.press("enter")  # the first option: exactly these items, if any
        assert app.session.log[played].move == narrowed[0]

    drive(app, test)


# ----------------------------------------------------------------------
# Issue 16: typing and choosing moves, and what the screen says during play


async def type_on_board(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` key by key, as a person typing notation without pressing Tab."""
    names = {" ": "space", "+": "plus", "=": "equals_sign", "?": "question_mark"}
    await pilot.press(*(names.get(ch, ch) for ch in text))


@pytest.mark.parametrize("text", ["2s x 2h", "Qh x Qd", "qh x qd", "10h", "ac x ad", "7h",
                                  "Kd", "3c+2s =5"])
def test_notation_typed_on_the_board_reaches_the_move_box(tmp_path: Path, text: str) -> None:
    """Typed without Tab, a move goes to the move box whole: its keys never open Save
    (s), quit (q) or stay behind as picks (the seed 11 table has 4 items, a to d)."""
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await type_on_board(pilot, text)
        assert on_board(app) and app.is_running
        box = app.screen.query_one("#move-input", Input)
        assert box.has_focus and box.value == text
        assert app.game.picked is None and app.game.selected == []
        assert "type a move" in text_of(app, "#turn")

    drive(app, test)


def test_a_typed_move_keeps_the_move_box_for_the_next(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await type_on_board(pilot, "7h x 7d")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.log[0].move == Move("capture", parse_card("7h"), (parse_card("7d"),))
        box = app.screen.query_one("#move-input", Input)
        assert app.focused is box and box.value == ""
        # The next move typed at once goes to the box too, s and all.
        await type_on_board(pilot, "5c")
        assert on_board(app) and box.value == "5c"
        # ? in the empty box asks for a hint, and Enter then plays it.
        box.value = ""
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = app.game.hint_move
        assert hint is not None and not box.has_focus
        played = len(app.session.log)
        await pilot.press("enter")
        assert app.session.log[played].move == hint

    drive(app, test)


@pytest.mark.parametrize("autosave", [True, False])
def test_quitting_mid_game_asks_first(tmp_path: Path, autosave: bool) -> None:
    session = beginner_session(tmp_path / "g.rec", seed=11, autosave=autosave)
    app = CasinoApp(session, None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen) and app.is_running
        words = text_of(app, "#quit-text")
        if autosave:
            assert str(tmp_path / "g.rec") in words and "--resume" in words
        else:
            assert "not being saved" in words and "loses it" in words
        await pilot.press("n")
        assert on_board(app) and app.is_running
        await pilot.press("ctrl+q")  # the terminal's own quit key asks too
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")
        assert on_board(app) and app.is_running
        await pilot.press("q", "enter")
        assert not app.is_running or app.return_code is not None

    drive(app, test)


def test_enter_plays_a_capture_before_the_trail(tmp_path: Path) -> None:
    """Seed 11: the 7♥ (card 3) can take the 7♦; Enter must not trail it."""
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("3")
        options = app.game.options
        assert options[0].kind == "capture" and options[-1].kind == "trail"
        assert app.screen.query_one("#options", OptionList).highlighted == 0
        assert "Enter plays: capture 7♦" in text_of(app, "#turn")
        await pilot.press("enter")
        assert app.session.log[0].move.kind == "capture"

    drive(app, test)


def test_after_a_hint_enter_plays_it(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path, seed=23), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")  # a card picked before asking does not stand in the way
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = app.game.hint_move
        assert hint is not None and app.game.picked is not None
        assert app.game.hand[app.game.picked] == hint.card
        assert f"Enter plays: {option_words(hint)}" in text_of(app, "#turn")
        played = len(app.session.log)
        await pilot.press("enter")
        assert app.session.log[played].move == hint

    drive(app, test)


def test_what_cannot_be_played_is_dimmed(tmp_path: Path) -> None:
    """Seed 11: with the 7♥ picked, only the 7♦ (a) can go with it; with the 4♣, the
    K♥ cannot (nothing in hand captures or builds on a King with it)."""
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        table = list(app.screen.query("#table CardFace").results(CardFace))
        assert not any(w.has_class("unfit") for w in table)  # no card picked yet
        await pilot.press("3")
        dimmed = {TABLE_KEYS[w.index] for w in table if w.has_class("unfit")}
        assert dimmed == {"b", "c", "d"}
        view = app.game.view
        hand = view.hand(app.session.human)
        for w in table:  # the engine agrees, item by item
            found = app.session.moves_using(hand[2], [view.table[w.index]])
            assert w.has_class("unfit") == (not found.exact and not found.more)

    drive(app, test)


def test_a_forced_sweep_is_named_and_other_cards_dimmed(tmp_path: Path) -> None:
    """Krypkasino seed 17: the 10♣ must take the whole table; the header says so in the
    words that explain a refusal, and the cards that cannot play are dimmed."""
    app = CasinoApp(new_session(tmp_path, "krypkasino", seed=17), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        turn = text_of(app, "#turn")
        assert "You must sweep the table with 10♣ (forced sweep)" in turn
        hand = list(app.screen.query("#hand CardFace").results(CardFace))
        dim = {card_symbol(w.card) for w in hand if w.has_class("unplayable")}
        assert "10♣" not in dim and len(dim) == len(hand) - 1
        await pilot.press(HAND_KEYS[next(w.index for w in hand if w.has_class("unplayable"))],
                          "enter")
        assert "you must sweep the table with 10♣" in app.game.message  # same words

    drive(app, test)


def test_at_80_by_24_the_options_box_says_more_options_exist(tmp_path: Path) -> None:
    """Casino seed 0: the fourth card has four options, more than the box shows."""
    app = CasinoApp(new_session(tmp_path, seed=0), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        await pilot.press("4")
        await pilot.pause()
        box = app.screen.query_one("#options", OptionList)
        options = app.game.options
        shown = box.scrollable_content_region.height
        assert len(options) > shown
        assert box.border_subtitle == f"↓ {len(options) - shown} more"
        await pilot.press(*["down"] * (len(options) - 1))
        await pilot.pause()
        assert str(box.border_subtitle).startswith("↑ ")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await test(app, pilot)

    asyncio.run(main())


def test_the_side_shows_the_round_so_far_last_capture_and_unseen_cards(
        tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        assert "last capture none yet" in text_of(app, "#score")
        cards = app.screen.query_one("#cards", Static)
        assert cards.display  # 120 x 40: beside the move log
        left = unseen(app.game.view, app.session.human)
        assert left.count == 52 - 4 - 4  # your hand and the table are seen
        assert cards.border_title == f"Cards · {left.count} unseen"
        assert "Computer holds 4 · stock 40" in text_of(app, "#cards")
        await pilot.press("3", "enter")  # 7♥ takes 7♦
        await settle(app, pilot)
        view = app.game.view
        score = text_of(app, "#score")
        taker = app.session.names[view.last_capture] if view.last_capture is not None else ""
        assert f"last capture {taker}" in score
        so_far = round_so_far(view)
        assert so_far == round_so_far(app.session.view)
        you = next(line for line in score.splitlines() if line.startswith("You"))
        assert you.split()[-1] == (f"+{so_far[0]}" if so_far[0] > 0 else str(so_far[0]))
        assert unseen(view, app.session.human).count < left.count
        await pilot.press("f2")
        assert not current(cards.display)
        await pilot.press("f2")
        assert current(cards.display)

    drive(app, test)


def test_at_80_by_24_f2_swaps_the_move_log_for_the_cards(tmp_path: Path) -> None:
    app = CasinoApp(new_session(tmp_path), None, pause=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            cards = app.screen.query_one("#cards", Static)
            log = app.screen.query_one("#log-box")
            assert not cards.display and log.display
            await pilot.press("f2")
            assert current(cards.display) and not current(log.display)
            assert cards.region.bottom <= 23  # above the footer, all of it
            assert cards.region.height >= 7  # four suits, the count, the frame
            await pilot.press("f2")
            assert not current(cards.display) and current(log.display)

    asyncio.run(main())


def test_a_seat_panel_shows_the_rulesets_point_cards_within_its_width(tmp_path: Path) -> None:
    """Tablić scores 21 cards: the panel names them "point cards" and shows as many as
    fit on its line, then how many more (nothing is cut off at 80 columns)."""
    from textual.content import Content

    from casino.tui.widgets import fitted_cards

    cards = [parse_card(t) for t in ["Ac", "Ks", "Qc", "Jh", "Js", "Td", "2c"]]
    shown = fitted_cards(cards, 9)
    assert str(shown) == "A♣ K♠ +5" and Content(str(shown)).cell_length <= 9
    assert str(fitted_cards(cards[:3], 9)) == "A♣ K♠ Q♣"
    assert str(fitted_cards(cards, 2)) == "+7"
    assert str(fitted_cards([], 9)) == "—"

    async def test(app: CasinoApp, pilot: Pilot[None]) -> None:
        for panel in app.screen.query(SeatPanel):
            last = str(panel.visual).splitlines()[-1]
            assert last.startswith("point cards ")
            assert Content(last).cell_length <= panel.content_size.width

    async def main() -> None:
        app = CasinoApp(new_session(tmp_path, "tablic", seed=5), None)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await test(app, pilot)

    asyncio.run(main())
