"""The plain (line by line) terminal game: in process with text streams, and through a real
pseudo-terminal running ``casino play --plain`` as a player would.

The computer plays at the beginner level so that its moves are instant; only one test
asks for a hint (the expert level, about a second).
"""

from __future__ import annotations

import io
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from casino.engine.cards import card_symbol, card_text, parse_card
from casino.engine.moves import Move
from casino.engine.rules import describe
from casino.play.session import HUMAN, GameSession
from casino.play.standing import unseen
from casino.tui.plain import COMMANDS, PlainGame, run_plain
from casino.words.shortlist import MAX_SHOWN
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration
from tests.tui_helpers import NewGames, beginner_session, play_on

PROMPT = "Your move> "


def new_session(tmp_path: Path, seed: int = 7, rules: str = "casino", **options: int
                ) -> GameSession:
    return beginner_session(tmp_path / f"game-{seed}.rec", rules, seed=seed,
                            options=options)


def first_playable(session: GameSession) -> int:
    """The number (from 1) of the first hand card that has a legal move."""
    hand = session.view.hand(session.human)
    return next(i for i, c in enumerate(hand, start=1) if session.moves_with(c))


class Scripted(io.StringIO):
    """A stdin that answers each prompt as it appears on the output.

    ``lines`` are typed first, one per prompt; after them it answers by the prompt
    it sees when ``autoplay`` is set: the first playable card and its first option,
    Enter between rounds, ``again`` at "Play again?", no to "Review your play?".
    Without ``autoplay`` the input ends (EOF) once the lines are used up.
    """

    def __init__(self, out: io.StringIO, session: Callable[[], GameSession],
                 lines: Sequence[str] = (), *, autoplay: bool = False, again: str = "n") -> None:
        super().__init__()
        self.out = out
        self.session = session
        self.lines = list(lines)
        self.autoplay = autoplay
        self.again = again
        self.reads = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        self.reads += 1
        assert self.reads < 3000, "the game does not end"
        if self.lines:
            return self.lines.pop(0) + "\n"
        if not self.autoplay:
            return ""
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        if prompt == PROMPT:
            return f"{first_playable(self.session())}\n"
        if prompt.startswith("Choose "):
            return "1\n"
        if prompt.startswith("Press Enter"):
            return "\n"
        if prompt == "Play again? [y/n] ":
            return self.again + "\n"
        if prompt == "Review your play? [y/n] ":
            return "n\n"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def run(session: GameSession, lines: Sequence[str], *, autoplay: bool = False,
        new_game: Callable[[], GameSession] | None = None, again: str = "n") -> str:
    out = io.StringIO()
    current = [session]

    def fresh() -> GameSession:
        assert new_game is not None
        current[0] = new_game()
        return current[0]

    stdin = Scripted(out, lambda: current[0], lines, autoplay=autoplay, again=again)
    run_plain(session, fresh if new_game is not None else None, stdin=stdin, stdout=out)
    return out.getvalue()


def assert_plain(text: str) -> None:
    """No escape codes (colour, cursor) and no box drawing: a screen reader reads it all."""
    assert "\x1b" not in text
    assert not re.search("[\u2500-\u259f]", text)


# ----------------------------------------------------------------------
# In process


def test_a_whole_game_to_the_end_by_numbers(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    out = run(session, [], autoplay=True)
    assert session.game_over
    assert "Game over: " in out
    assert "The scoring, in counting order:" in out
    assert "most cards" in out and "reached 21 first" in out
    assert "Play again?" not in out  # no new_game: no offer
    assert "Press Enter for the next round" in out  # casino to 21 takes several rounds
    assert "Stock: empty, this is the last deal." in out
    assert_plain(out)
    # Everything played was saved: the record resumes as a finished game.
    resumed = GameSession.resume(session.save_path)  # type: ignore[arg-type]
    assert resumed.game_over and resumed.view == session.view


def test_the_first_state_shows_only_what_you_may_see(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    assert session.human_to_move
    hidden = session.match.position.hand(1)  # the test may look; the game must not show it
    out = run(session, [])
    first = out.split(PROMPT)[0]
    view = session.view
    assert "Round 1, deal 1 of 6." in first and "Stock: 40 cards." in first
    assert "Computer: 4 cards in hand; captured 0 cards, 0 spades." in first
    assert "Scores: You 0, Computer 0; 21 to win." in first
    hand = ", ".join(f"{i}: {card_symbol(c)}" for i, c in enumerate(view.hand(0), start=1))
    assert f"Your hand: {hand}." in first
    table = ", ".join(f"{'abcd'[i]}: {card_symbol(c)}" for i, c in enumerate(view.loose))
    assert f"Table: {table}." in first
    for c in hidden:
        assert card_symbol(c) not in first
    assert "Stopped." in out  # the end of the input ends the game cleanly


def test_a_seeded_game_says_its_seed_and_an_unseeded_one_has_none(tmp_path: Path) -> None:
    seeded = run(new_session(tmp_path, seed=7), []).split(PROMPT)[0]
    assert "A practice game: seed 7 deals the same cards every time." in seeded
    unseeded = beginner_session(None, seed=None, autosave=False)
    first = run(unseeded, []).split(PROMPT)[0]
    assert "You play against Computer (beginner)." in first
    assert "seed" not in first.lower()


def test_a_card_by_number_lists_its_options_then_one_is_played(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    number = first_playable(session)
    card = session.view.hand(0)[number - 1]
    options = session.moves_with(card)
    out = run(session, [str(number), "1"])
    assert f"With the {card_symbol(card)} you can:" in out
    assert "1. " in out and f"({options[0]})" in out
    assert session.log[0].move == options[0]
    assert f"{session.log[0].words}." in out
    assert "Last move: Computer " in out


def test_back_and_bad_numbers_change_nothing(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    before = session.view
    out = run(session, ["9", "1", "back", "1", "99"])
    assert "There is no card 9: your hand has cards 1 to 4." in out
    assert "Back to your hand." in out
    assert "There is no option 99" in out
    assert session.view == before and session.log == []


def test_a_move_in_notation_is_played_leniently(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    move = session.legal_moves()[-1]
    out = run(session, [str(move).upper()])
    assert session.log[0].move == move
    assert f"{session.log[0].words}." in out


def test_an_illegal_move_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    before, saved = session.view, session.save_path.read_text()  # type: ignore[union-attr]
    seen = set(before.hand(0)) | set(before.loose)
    absent = next(c for c in range(52) if c not in seen)
    capture = f"{card_text(before.hand(0)[0])} x {card_text(absent)}"
    out = run(session, [card_text(absent), "zz", capture])
    assert f"Not allowed: you do not hold the {card_symbol(absent)}." in out
    assert "Not allowed: cannot read 'zz'" in out
    assert out.count("Not allowed: ") == 3
    assert session.view == before and session.log == []
    assert session.save_path.read_text() == saved  # type: ignore[union-attr]


def test_hint_suggests_a_legal_move(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    legal = {str(m) for m in session.legal_moves()}
    out = run(session, ["?"])
    found = re.search(r"Hint: .*  \((.*)\); it plays card (\d)\.", out)
    assert found, out
    assert found[1] in legal
    assert re.search(r"\n  Why: It takes .*By the judge it is ", out), out
    assert session.log == []


def test_undo_takes_back_your_move_and_the_computers(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    before = session.view
    out = run(session, ["undo", str(first_playable(session)), "1", "undo"])
    assert "Cannot undo: nothing to undo" in out
    assert "Taken back:" in out
    assert session.view == before and session.log == []
    # The state is shown again after the undo, as it was at the start.
    states = [part for part in out.split("\n\n") if part.startswith("Round 1, deal 1 of 6.")]
    assert states[-1].split(PROMPT)[0] == states[0].split(PROMPT)[0]


def test_save_to_a_file_then_resume_it(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    target = tmp_path / "sub" / "mine.rec"
    out = run(session, [str(first_playable(session)), "1", f"save {target}"])
    out += run(session, [str(first_playable(session)), "1"])  # playable after the first
    assert f"Saved to {target}. Later moves are saved there too." in out
    assert session.save_path == target
    resumed = GameSession.resume(target)
    assert resumed.view == session.view
    assert [e.words for e in resumed.log] == [e.words for e in session.log]
    assert len(session.log) >= 3  # the moves after the save went to the new file too
    # A resumed game says so and goes on from there.
    out = run(resumed, [])
    assert f"Resuming: {len(session.log)} moves played so far." in out
    assert f"Last move: {session.log[-1].words}." in out


def test_save_to_an_unwritable_place_says_why(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = run(session, [f"save {blocker}/x.rec", "save"])
    assert f"Cannot save to {blocker}/x.rec" in out
    assert "Type save and a file name" in out


def test_rules_help_moves_log_and_look(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    out = run(session, ["rules", "help", "moves", "log", str(first_playable(session)), "1",
                        "log", "look", ""])
    assert "\n".join(describe(session.rules)) in out
    assert "save FILE" in out and "undo" in out  # the help
    assert "Your legal moves:" in out
    assert "No moves yet this round." in out
    assert f"Round 1, deal 1:\n  {session.log[0].words}.\n  {session.log[1].words}." in out
    assert f"Last move: {session.log[-1].words}." in out  # look repeats the last move
    assert "Type a card number (1-3), a move such as 7h, or help." in out


def test_a_build_is_shown_with_its_value_and_owner(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    build = next(m for m in session.legal_moves() if m.kind == "build")
    session.play(build)
    session.computer_move()
    assert [b.value for b in session.view.builds if b.owner == 0] == [build.value]
    out = run(session, ["look"])
    assert re.search(rf"\b[a-e]: \[[^\]]+\] build of {build.value} \(yours\)", out), out


def test_quit_stops_and_says_where_the_game_is(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    out = run(session, ["quit"])
    assert f"Stopped. The game is saved in {session.save_path}." in out


def test_the_end_of_input_in_the_middle_of_a_choice_ends_cleanly(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    out = run(session, [str(first_playable(session))])
    assert out.endswith(f"Stopped. The game is saved in {session.save_path}.\n")
    assert session.log == []


def finished(tmp_path: Path) -> GameSession:
    """A game played to its end through the session (the computer's way for the person)."""
    return play_on(new_session(tmp_path, seed=11))


def test_play_again_declined(tmp_path: Path) -> None:
    again = NewGames(lambda: new_session(tmp_path, seed=3))
    out = run(finished(tmp_path), [], autoplay=True, new_game=again)
    assert "Game over: " in out
    assert out.endswith("Play again? [y/n] n\n")
    assert again.made == []


def test_play_again_accepted_starts_a_new_game(tmp_path: Path) -> None:
    again = NewGames(lambda: new_session(tmp_path, seed=3))
    out = run(finished(tmp_path), ["maybe", "y", "quit"], new_game=again)
    assert "Please answer y or n, or review." in out
    assert len(again.made) == 1
    assert out.count("Type help for how to play") == 2  # the new game introduced itself
    assert f"The game is saved in {again.made[0].save_path}" in out


def test_four_players_with_a_partner(tmp_path: Path) -> None:
    session = new_session(tmp_path, rules="classic", players=4)
    out = run(session, [])
    assert "You and Partner (beginner) play against Left (beginner) and Right (beginner)." in out
    assert "Scores: You and Partner 0, Left and Right 0; 21 to win." in out
    assert "Partner: " in out and "cards in hand" in out


def test_krypkasino_speaks_of_games_and_penalty_points(tmp_path: Path) -> None:
    session = new_session(tmp_path, rules="krypkasino")
    out = run(session, [])
    assert "Game 1, deal 1 of 12." in out
    assert "Penalty points: You 0, Computer 0 (lower is better)." in out


def test_completion_offers_moves_and_commands(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    game = PlainGame(session, stdin=io.StringIO(), stdout=io.StringIO())
    legal = sorted(str(m) for m in session.legal_moves())
    everything = game.completions("")
    assert set(legal) <= set(everything) and "hint" in everything and "undo" in everything
    assert game.completions("h") == ["help", "hint"]
    first = legal[0]
    assert first in game.completions(first[:2].upper())


# ----------------------------------------------------------------------
# Through a pseudo-terminal: `casino play --plain`, as a person would run it

CASINO = str(Path(sys.executable).parent / "casino")


def _ctrl_c_as_at_a_terminal() -> None:
    """Give the game the default Ctrl-C: a shell without job control starts background
    commands (``make test &``, ``nohup``) with SIGINT ignored, and a child inherits
    that, so the game's Ctrl-C test would fail for how the suite was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "COLUMNS": "100"}
    child = pexpect.spawn(CASINO, ["play", "--plain", "--pause", "0", *args], env=env,
                          encoding="utf-8", timeout=20, dimensions=(40, 100),
                          preexec_fn=_ctrl_c_as_at_a_terminal)
    child.delaybeforesend = None  # the game reads whole lines; no need to wait per send
    return child


def state(child: pexpect.spawn) -> str:
    """The text up to the next move prompt."""
    child.expect_exact(PROMPT)
    return str(child.before)


def unique_prefix(text: str, others: list[str]) -> str:
    """The shortest start of ``text`` that no other of ``others`` begins with."""
    for k in range(1, len(text) + 1):
        if sum(o.startswith(text[:k]) for o in others) == 1:
            return text[:k]
    return text


def test_pty_moves_illegal_hint_undo_quit_then_resume(tmp_path: Path) -> None:
    record = tmp_path / "g.rec"
    child = spawn(tmp_path, "--level", "beginner", "--seed", "7", "--save", str(record))
    transcript = io.StringIO()
    child.logfile_read = transcript
    first = state(child)
    assert "You play against Computer (beginner)." in first
    assert "Round 1, deal 1 of 6." in first
    # A card by number, then its first option.
    child.sendline("1")
    child.expect(r"Choose 1(-\d)?, or back> ")
    options = str(child.before)
    assert "With the " in options and "1. " in options
    child.sendline("1")
    child.expect("Last move: Computer ")
    second = state(child)
    # A move in notation, completed with Tab from its first characters.
    child.sendline("moves")  # numbered: a number would play one; notation works too
    child.expect(r"Choose 1(-\d+)?, or back> ")
    listed = re.findall(r"  \((.+)\)\r?\n", str(child.before))
    assert listed
    move = listed[-1]
    child.send(unique_prefix(move, listed) + "\t")
    child.expect_exact(move)
    child.send("\r")
    child.expect(r"\r\nYou [a-z]+ ")
    shown = state(child)
    # An illegal move is explained: a card that is neither in the hand nor on the table.
    absent = next(c for c in range(52) if card_symbol(c) not in shown)
    child.sendline(card_text(absent))
    assert state(child) == f"{card_text(absent)}\r\nNot allowed: you do not hold the " \
                           f"{card_symbol(absent)}.\r\n"
    # Commands complete too: "hi" and Tab is the hint.
    child.send("hi\t\r")
    child.expect(r"Hint: .+; it plays card \d\.")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("Taken back:")
    after_undo = state(child)
    assert after_undo.split("Round 1,", 1)[1] == second.split("Round 1,", 1)[1]
    child.sendline("quit")
    child.expect_exact(f"Stopped. The game is saved in {record}.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert_plain(transcript.getvalue())
    # Resume: the same position, with the two moves that were kept.
    child = spawn(tmp_path, "--resume", str(record))
    resumed = state(child)
    assert "Resuming: 2 moves played so far." in resumed
    assert resumed.split("Round 1,", 1)[1] == second.split("Round 1,", 1)[1]
    child.sendintr()  # Ctrl-C stops as quit does
    child.expect_exact(f"Stopped. The game is saved in {record}.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_pty_a_whole_game_choosing_option_one(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--level", "beginner", "--seed", "5", "--no-save")
    prompts = [PROMPT, re.compile(r"Choose 1(-\d+)?, or back> "),
               "Press Enter for the next round> ", "Play again? [y/n] ", pexpect.EOF,
               re.compile(r"The \S+ has no legal move now")]
    transcript = io.StringIO()
    child.logfile_read = transcript
    card = 1
    for _ in range(2000):
        i = child.expect([p if isinstance(p, re.Pattern) or p is pexpect.EOF
                          else re.escape(p) for p in prompts])
        if i == 0:
            child.sendline(str(card))
        elif i == 1:
            child.sendline("1")
            card = 1
        elif i == 2:
            child.sendline("")
        elif i == 3:
            child.sendline("n")
        elif i == 4:
            break
        else:
            card += 1  # that card cannot be played now (a build of yours holds it back)
    else:
        pytest.fail("the game did not end")
    child.close()
    assert child.exitstatus == 0
    text = transcript.getvalue()
    assert "Game over: " in text and "The scoring, in counting order:" in text
    assert "Play again? [y/n] n" in text
    assert_plain(text)


# ----------------------------------------------------------------------
# A crowded table (issue 15): bounded lists, never every legal move


def test_a_crowded_table_lists_a_bounded_number_of_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_enumeration(monkeypatch)
    session = GameSession(crowded_kasino_match(), [HUMAN, "beginner"],
                          save_path=tmp_path / "crowded.rec")
    view = session.view
    assert len(view.loose) >= 20
    card = view.hand(0)[0]
    capture = next(m for m in session.options_of(card).moves if m.loose)
    letters = " ".join("abcdefghijklmnopqrstuvwxyz"[view.table.index(x)]
                       for x in capture.loose[:2])
    out = run(session, ["moves", "back", "1", f"with {letters}", "back", ""])
    listed = out.split("Some of your legal moves (the table is crowded: too many to list):\n")
    assert len(listed) == 2, out
    lines = listed[1].split("\n... ")[0].split("\n")
    shown = [line for line in lines if re.match(r"\d+\. .*\(", line)]
    assert 0 < len(shown) <= MAX_SHOWN
    assert [line.split(".")[0] for line in shown] == [str(i) for i in range(1, len(shown) + 1)]
    texts = [line.rsplit("(", 1)[1].rstrip(")") for line in shown]
    assert all(view.is_legal(view.parse_move(t)) for t in texts)
    assert "\n... and other moves: type a card's number to see its options" in out
    # The first card's options: numbered, bounded, each legal; then those using two items.
    head = f"With the {card_symbol(card)} you can:\n"
    options = out.split(head)[1].split("\n... ")[0].splitlines()
    assert 0 < len(options) <= MAX_SHOWN
    assert all(view.is_legal(view.parse_move(o.rsplit("(", 1)[1].rstrip(")")))
               for o in options)
    using = out.split(f"With the {card_symbol(card)} using ")[1].split("\n")[1:]
    narrowed = [o for o in using if o[:1].isdigit()]
    assert narrowed and len(narrowed) <= MAX_SHOWN
    for o in narrowed:
        move = view.parse_move(o.rsplit("(", 1)[1].rstrip(")"))
        assert set(capture.loose[:2]) <= set(move.loose)
    assert session.view == view  # nothing was played
    # Completion offers a bounded list too.
    game = PlainGame(session, stdin=io.StringIO(), stdout=io.StringIO())
    assert len(game.completions("")) <= MAX_SHOWN * len(view.hand(0)) + len(COMMANDS)


def test_with_and_table_letters_narrow_a_cards_options(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    view = session.view
    number = first_playable(session)
    out = run(session, [str(number), "with zz", "with", "with a a", "with a", "back", ""])
    assert "There is no table item zz: the table has a to d." in out
    assert "Type with and the letters of table items, as with a c." in out
    assert "Name each table item once." in out
    card, item = view.hand(0)[number - 1], view.table[0]
    assert isinstance(item, int)  # a loose card, not a build
    assert (f"With the {card_symbol(card)} using {card_symbol(item)} you can:" in out
            or f"No legal move plays the {card_symbol(card)} with {card_symbol(item)}." in out)
    assert session.log == []


# ----------------------------------------------------------------------
# Issue 16: table letters, numbered moves, and what the state says


def test_a_card_number_with_table_letters_plays_that_card_with_them(tmp_path: Path) -> None:
    """Seed 11: card 3 is the 7♥ and table item a the 7♦: ``3 a`` takes it at once."""
    session = new_session(tmp_path, seed=11)
    out = run(session, ["3 z", "3 a"])
    assert "There is no table item z: the table has a to d." in out
    assert session.log[0].move == Move("capture", parse_card("7h"), (parse_card("7d"),))
    assert "You take 7♦ with the 7♥." in out


def test_a_card_number_with_letters_lists_the_choices_when_several_fit(
        tmp_path: Path) -> None:
    """Casino seed 5: the 5♥ (card 2) with the 5♠ (c) takes it or builds 10: both are
    listed, the capture first, and a number chooses."""
    session = new_session(tmp_path, seed=5)
    out = run(session, ["2 c", "2"])
    listing = out.split("With the 5♥ using 5♠ you can:\n")[1]
    assert listing.startswith("1. ") and "(5h x 5s)" in listing.split("\n")[0]
    assert "(5h+5s =10)" in listing.split("\n")[1]
    assert str(session.log[0].move) == "5h+5s =10"


def test_moves_are_numbered_and_a_number_plays_one(tmp_path: Path) -> None:
    session = new_session(tmp_path, seed=11)
    legal = session.legal_moves()
    out = run(session, ["moves", "99", "2"])
    listing = out.split("Your legal moves:\n")[1]
    assert listing.startswith("1. ") and "\n2. " in listing
    assert "There is no option 99" in out
    second = listing.split("\n2. ")[1].split("\n")[0]
    played = session.log[0].move
    assert played in legal and second.endswith(f"({played})")


def test_the_state_says_last_capture_round_so_far_and_a_forced_play(tmp_path: Path) -> None:
    session = new_session(tmp_path, seed=11)
    out = run(session, ["3 a", "cards"])
    first, rest = out.split("Your move> 3 a", 1)
    assert "This round so far: You 0, Computer 0 (the piles as they stand)." in first
    assert "Nobody has captured yet this round." in first
    assert "This round so far: You 3, Computer 0 (the piles as they stand)." in rest
    assert "Last capture: You; the cards left on the table at the end go to you." in rest
    # The cards not seen: 52 less your hand, the table and the piles; hidden ones unnamed.
    left = unseen(session.view, 0)
    assert (f"Unseen cards ({left.count}: Computer holds {left.in_hands}, the stock "
            f"{left.in_stock}): {left.words()}." in out)
    assert left.count == left.in_hands + left.in_stock
    assert all(left.cards[c] == 0 for c in session.view.hand(0))
    kryp = new_session(tmp_path, seed=17, rules="krypkasino")
    text = run(kryp, []).split(PROMPT)[0]
    assert "You must sweep the table with 10♣ (forced sweep)." in text
    assert "This game so far in penalty points: You 0, Computer 0" in text


def test_pty_table_letters_numbered_moves_and_cards(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--level", "beginner", "--seed", "11", "--no-save")
    first = state(child)
    assert "Nobody has captured yet this round." in first
    child.sendline("3 a")
    child.expect_exact("You take 7♦ with the 7♥.")
    after = state(child)
    assert "Last capture: You;" in after
    child.sendline("cards")
    child.expect(r"Unseen cards \(\d+: Computer holds \d, the stock \d+\): ♠ ")
    state(child)
    child.sendline("moves")
    child.expect(r"Choose 1-(\d+), or back> ")
    listed = str(child.before)
    assert re.search(r"\r\n1\. .+\(.+\)\r\n2\. ", listed)
    child.sendline("1")
    child.expect(r"\r\nYou [a-z]+ ")
    state(child)
    child.sendline("quit")
    child.expect_exact("Stopped. The game was not saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
