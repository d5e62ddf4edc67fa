"""The ``casino`` command: rules, moves, replay, demo, --version, and its errors.

Errors must reach the user as one line on stderr with exit code 2 and no
traceback; output must be the engine's (canonical move texts, real records).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casino import PRESET_NAMES, Match, Position, __version__
from casino.cli import app
from casino.narrate import item_words
from casino.record import load_record, write_record
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_error(code: int, out: str, err: str, message: str) -> None:
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


# ----------------------------------------------------------------------


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"casino {__version__}"


def test_console_script_entry_point_runs() -> None:
    """The installed entry point (pyproject: casino = casino.cli:main) works end to end."""
    script = Path(sys.executable).with_name("casino")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "casino.cli"]
    done = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"casino {__version__}"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_prints_the_summary_of_every_preset(name: str) -> None:
    code, out, _ = run("rules", name)
    assert code == 0
    assert "Players:" in out and "Scoring:" in out and "Winning:" in out


def test_rules_with_players() -> None:
    code, out, _ = run("rules", "classic", "--players", "4")
    assert code == 0
    assert "Players: 4 in two partnerships" in out


def test_rules_unknown_name_lists_the_presets() -> None:
    code, out, err = run("rules", "pokr")
    assert_error(code, out, err, "unknown ruleset 'pokr'")
    for name in PRESET_NAMES:
        assert name in err


def test_rules_bad_player_count() -> None:
    code, out, err = run("rules", "casino", "--players", "3")
    assert_error(code, out, err, "2 players")


# ----------------------------------------------------------------------


@pytest.fixture
def position_file(tmp_path: Path) -> tuple[Path, Position]:
    pos = Match("casino", seed=7).position
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos.to_json()))
    return path, pos


def test_moves_lists_every_legal_move_in_canonical_notation(
        position_file: tuple[Path, Position]) -> None:
    path, pos = position_file
    code, out, _ = run("moves", str(path))
    assert code == 0
    lines = out.strip().splitlines()
    legal = [str(m) for m in pos.legal_moves()]
    assert lines[0] == f"{len(legal)} legal moves for seat {pos.to_move}:"
    assert lines[1:] == legal


def test_moves_json_from_stdin(position_file: tuple[Path, Position]) -> None:
    path, pos = position_file
    code, out, _ = run("moves", "-", "--json", input=path.read_text())
    assert code == 0
    assert json.loads(out) == [str(m) for m in pos.legal_moves()]


def test_moves_of_a_finished_round_is_empty() -> None:
    match = Match("casino", seed=7)
    while match.position.result is None:
        match.play(match.legal_moves()[0])
    code, out, _ = run("moves", "-", input=json.dumps(match.position.to_json()))
    assert code == 0 and "0 legal moves" in out


def test_moves_invalid_position_gives_the_key_and_exit_2(
        position_file: tuple[Path, Position]) -> None:
    path, _ = position_file
    obj = json.loads(path.read_text())
    obj["dealer"] = 5
    code, out, err = run("moves", "-", input=json.dumps(obj))
    assert_error(code, out, err, "dealer:")
    code, out, err = run("moves", "-", input="{not json")
    assert_error(code, out, err, "not valid JSON")


def test_moves_missing_file(tmp_path: Path) -> None:
    code, out, err = run("moves", str(tmp_path / "nope.json"))
    assert_error(code, out, err, "cannot read")


def test_moves_of_a_crowded_table_is_a_selection_that_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Kasino with 20-odd loose cards (issue 15): a bounded list of legal moves, named a
    selection, and never the listing of every move."""
    forbid_enumeration(monkeypatch)
    pos = crowded_kasino_match().position
    code, out, _ = run("moves", "-", input=json.dumps(pos.to_json()))
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == (f"{len(lines) - 1} legal moves for seat 0, a selection (the table "
                        "is crowded: too many to list):")
    assert 0 < len(lines) - 1 <= 20 * len(pos.hand(0))
    assert all(pos.is_legal(pos.parse_move(t)) for t in lines[1:])
    code, out, err = run("moves", "-", "--json", input=json.dumps(pos.to_json()))
    assert code == 0 and json.loads(out) == lines[1:]
    assert "a selection of the legal moves" in err


def test_moves_hidden_hand_of_the_seat_to_move(position_file: tuple[Path, Position]) -> None:
    _, pos = position_file
    other = 1 - pos.to_move
    code, out, err = run("moves", "-", input=json.dumps(pos.observation(other)))
    assert_error(code, out, err, "hidden")


# ----------------------------------------------------------------------


def finished_game(seed: int = 3) -> Match:
    import random

    match = Match("casino", seed=seed)
    rng = random.Random(seed)
    match.play_out(lambda p: rng.choice(p.legal_moves()))
    return match


def test_replay_prints_every_move_results_and_winner(tmp_path: Path) -> None:
    match = finished_game()
    path = tmp_path / "g.casino"
    path.write_text(write_record(match, names=["Ann", "Bob"]))
    code, out, _ = run("replay", str(path))
    assert code == 0
    n_moves = sum(len(r.moves) for r in match.rounds)
    assert out.count("\ntable: ") == n_moves + len(match.rounds)
    first = match.rounds[0]
    assert f"1. seat {first.movers[0]} ({['Ann', 'Bob'][first.movers[0]]}): {first.moves[0]}" in out
    assert out.count("in counting order:") == len(match.rounds)
    assert first.result is not None
    assert f"  {item_words(first.result.items[0])}" in out
    # Counts are said as people say them: never "1 spades" or "1 cards".
    assert not re.search(r"\b1 (spades|cards|sweeps)\b", out)
    assert "pile: no cards, no spades, no sweeps" in out
    winner = match.winner
    assert winner is not None
    assert out.rstrip().endswith(f"Winner: seat {winner} ({['Ann', 'Bob'][winner]})")


def test_replay_of_an_unfinished_game(tmp_path: Path) -> None:
    match = Match("casino", seed=3)
    match.play(match.legal_moves()[0])
    path = tmp_path / "g.casino"
    path.write_text(write_record(match))
    code, out, _ = run("replay", str(path))
    assert code == 0 and "The game is not finished." in out


def test_replay_damaged_record_names_the_line(tmp_path: Path) -> None:
    text = write_record(finished_game()).replace("seed ", "sead ")
    path = tmp_path / "bad.casino"
    path.write_text(text)
    code, out, err = run("replay", str(path))
    assert_error(code, out, err, "line 3: unknown keyword 'sead'")
    assert str(path) in err


def test_replay_missing_file(tmp_path: Path) -> None:
    code, out, err = run("replay", str(tmp_path / "none.casino"))
    assert_error(code, out, err, "cannot read")


# ----------------------------------------------------------------------


def test_demo_with_seed_and_save_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "demo.casino"
    code, out, err = run("demo", "--seed", "42", "--save", str(path))
    assert code == 0
    assert "seed 42" in out and "Winner: seat" in out
    assert "record saved" in err
    record = load_record(path)
    assert record.seed == 42 and record.winner is not None
    assert f"Winner: seat {record.winner}" in out
    # the demo is reproducible: same seed, same game
    code2, out2, _ = run("demo", "--seed", "42")
    assert code2 == 0 and out2 == out
    code3, replayed, _ = run("replay", str(path))
    assert code3 == 0
    assert replayed.rstrip().endswith(f"Winner: seat {record.winner}")


@pytest.mark.parametrize(("name", "players"), [("classic", 4), ("kasino", 3), ("krypkasino", 2),
                                               ("tablic", 2)])
def test_demo_other_rules(tmp_path: Path, name: str, players: int) -> None:
    path = tmp_path / "demo.casino"
    code, out, _ = run("demo", "--rules", name, "--players", str(players), "--seed", "5",
                       "--delay", "0", "--save", str(path))
    assert code == 0 and "Winner:" in out
    record = load_record(path)
    assert record.rules.name == name and record.rules.players == players


def test_demo_unknown_rules() -> None:
    code, out, err = run("demo", "--rules", "nope")
    assert_error(code, out, err, "unknown ruleset 'nope'")


def test_demo_negative_delay_is_a_usage_error() -> None:
    code, _, _ = run("demo", "--delay", "-1")
    assert code == 2


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert "demo" in result.output and "replay" in result.output


def test_moves_of_an_observation_of_the_seat_to_move() -> None:
    """The stock and the other hands hidden: the seat to move still gets its moves."""
    pos = Match("casino", seed=7).position
    code, out, _ = run("moves", "-", "--json", input=json.dumps(pos.observation(pos.to_move)))
    assert code == 0
    assert json.loads(out) == [str(m) for m in pos.legal_moves()]


def test_demo_on_a_terminal_pauses_and_ctrl_c_saves_the_unfinished_game(tmp_path: Path) -> None:
    """Printed on a tty (--plain) the demo waits between moves (default delay); Ctrl-C
    stops it cleanly with status 130, and --save keeps the unfinished game as a valid
    record."""
    pexpect = pytest.importorskip("pexpect")
    script = Path(sys.executable).with_name("casino")
    if not script.exists():
        pytest.skip("the casino entry point is not installed next to this Python")
    path = tmp_path / "partial.casino"
    child = pexpect.spawn(str(script), ["demo", "--plain", "--seed", "3", "--save", str(path)],
                          timeout=30, encoding="utf-8")
    child.expect(r"\n2\. seat")  # a couple of moves in, long before the game could end
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "interrupted" in (child.before or "")
    record = load_record(path)
    assert record.winner is None and record.seed == 3
    assert len(record.rounds[0].moves) >= 2


def test_demo_at_another_level_and_an_unknown_level() -> None:
    code, out, _ = run("demo", "--seed", "4", "--level", "beginner")
    assert code == 0 and "winner" in out.lower()
    code, _, err = run("demo", "--level", "grandmaster")
    assert code == 2 and "unknown level 'grandmaster'" in err
