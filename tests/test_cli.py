"""The ``casino`` command: rules, moves, replay, demo, --version, and its errors.

Errors must reach the user as one line on stderr with exit code 2 and no
traceback; output must be the engine's (canonical move texts, real records).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from casino import PRESET_NAMES, Match, Position, __version__
from casino.cli import app
from casino.engine.core import engine_name
from casino.engine.record import load_record, write_record
from casino.words.narrate import item_words
from tests.cli_helpers import run, runner
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration


def assert_error(code: int, out: str, err: str, message: str) -> None:
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


# ----------------------------------------------------------------------


def test_version() -> None:
    """The version, then which engine answers (casino.engine.core)."""
    code, out, _ = run("--version")
    assert code == 0
    assert out.splitlines() == [f"casino {__version__}", f"engine: {engine_name()}"]


def test_console_script_entry_point_runs() -> None:
    """The installed entry point (pyproject: casino = casino.__main__:main) works end to end."""
    script = Path(sys.executable).with_name("casino")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "casino"]
    done = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"casino {__version__}", f"engine: {engine_name()}"]


def test_version_says_when_the_core_is_switched_off() -> None:
    done = subprocess.run([sys.executable, "-m", "casino", "--version"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "CASINO_CORE": "off"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "engine: pure Python (CASINO_CORE=off)"


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
    """Standard output is the moves alone (a pipe's data); the count line is on
    standard error (issue 16)."""
    path, pos = position_file
    code, out, err = run("moves", str(path))
    assert code == 0
    legal = [str(m) for m in pos.legal_moves()]
    assert out.splitlines() == legal
    assert err.strip() == f"{len(legal)} legal moves for seat {pos.to_move}:"


def test_moves_json_from_stdin(position_file: tuple[Path, Position]) -> None:
    path, pos = position_file
    code, out, _ = run("moves", "-", "--json", input=path.read_text())
    assert code == 0
    assert json.loads(out) == [str(m) for m in pos.legal_moves()]


def test_moves_of_a_finished_round_is_empty() -> None:
    match = Match("casino", seed=7)
    while match.position.result is None:
        match.play(match.legal_moves()[0])
    code, out, err = run("moves", "-", input=json.dumps(match.position.to_json()))
    assert code == 0 and out == "" and "0 legal moves" in err


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
    missing = tmp_path / "nope.json"
    code, out, err = run("moves", str(missing))
    assert_error(code, out, err, f"casino: no such file: {missing}")
    assert "Errno" not in err


def test_moves_of_a_crowded_table_is_a_selection_that_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Kasino with 20-odd loose cards (issue 15): a bounded list of legal moves, named a
    selection, and never the listing of every move."""
    forbid_enumeration(monkeypatch)
    pos = crowded_kasino_match().position
    code, out, err = run("moves", "-", input=json.dumps(pos.to_json()))
    assert code == 0
    lines = out.strip().splitlines()
    assert err.strip() == (f"{len(lines)} legal moves for seat 0, a selection (the table "
                           "is crowded: too many to list):")
    assert 0 < len(lines) <= 20 * len(pos.hand(0))
    assert all(pos.is_legal(pos.parse_move(t)) for t in lines)
    code, out, err = run("moves", "-", "--json", input=json.dumps(pos.to_json()))
    assert code == 0 and json.loads(out) == lines
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
    missing = tmp_path / "none.casino"
    code, out, err = run("replay", str(missing))
    assert_error(code, out, err, f"casino: no such file: {missing}")


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


# ----------------------------------------------------------------------
# The command line itself (issue 16): cheap help, -h, completion, choices, file errors

#: Modules that ``casino --help`` and ``casino CMD -h`` must not import: the engine
#: beyond the package's own names, the bots, the terminal app, the web server and the
#: libraries behind them. (Bounded by what is imported, not by time.)
HEAVY = ("casino.bots", "casino.tui", "casino.web.app", "casino.web.service",
         "casino.engine.position", "casino.engine.match", "casino.play.session",
         "casino.engine.record", "casino.engine.rules", "casino.engine.legality",
         "casino.engine.movegen", "casino.tools.helper", "casino.tools.scorepad",
         "casino.measure.arena", "casino.teach.review", "casino.words.narrate",
         "textual", "fastapi", "uvicorn", "sqlalchemy", "numpy", "matplotlib", "jinja2")

COMMANDS = ("rules", "moves", "replay", "demo", "play", "arena", "score", "helper", "serve",
            "glossary", "review")


def test_help_imports_neither_the_engine_nor_the_front_ends() -> None:
    code = f"""
import sys
from casino.cli import app
for args in [["--help"], ["-h"], *[[c, "-h"] for c in {COMMANDS!r}]]:
    try:
        app(args, prog_name="casino")
    except SystemExit as exc:
        assert exc.code == 0, (args, exc.code)
heavy = {HEAVY!r}
print(sorted(m for m in sys.modules if m.startswith(heavy)))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_names_offered_are_the_engine_s() -> None:
    from casino.bots.levels import LEVELS as LEVEL_TABLE
    from casino.cli.names import HELPER_LIMIT, LEVELS, RULESETS
    from casino.words.shortlist import MAX_SHOWN

    assert RULESETS == PRESET_NAMES
    assert tuple(LEVEL_TABLE) == LEVELS
    assert HELPER_LIMIT == MAX_SHOWN


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_dash_h_is_help_everywhere(command: str) -> None:
    args = [command, "-h"] if command else ["-h"]
    code, out, _ = run(*args)
    assert code == 0
    assert "Usage:" in out and "-h" in out and "--help" in out


def _help(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    return result.stdout


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_bool_labels(command: str) -> None:
    assert "<bool>" not in _help(*([command] if command else []))


@pytest.mark.parametrize(("command", "option"), [
    ("play", "--rules"), ("play", "--level"), ("demo", "--rules"), ("demo", "--level"),
    ("arena", "--rules"), ("helper", "--rules"), ("helper", "--level"),
    ("score", "--rules"), ("rules", "RULESET")])
def test_help_shows_the_choices(command: str, option: str) -> None:
    # The option's own row of the table (its name first), not a sentence naming it.
    line = next(ln for ln in _help(command).splitlines()
                if ln.strip("│ *").startswith(option))
    names = PRESET_NAMES if option in ("--rules", "RULESET") else (
        "beginner", "easy", "medium", "hard", "expert")
    assert " | ".join(names) in line
    assert "<str>" not in line


def _complete(words: str) -> list[str]:
    env = {**os.environ, "_CASINO_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    done = subprocess.run([sys.executable, "-c",
                           "from casino.cli import app; app(prog_name='casino')"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_shell_completion_of_commands_options_and_choices() -> None:
    assert _complete("casino re") == ["replay", "review"]
    assert _complete("casino rep") == ["replay"]
    assert _complete("casino play --rules k") == ["krypkasino", "kasino"]
    assert _complete("casino demo --level e") == ["easy", "expert"]
    assert _complete("casino rules m") == ["mulle"]
    assert "--install-completion" in _help()
    done = subprocess.run([sys.executable, "-c",
                           "from casino.cli import app; app(prog_name='casino')",
                           "--show-completion", "bash"],
                          capture_output=True, text=True, timeout=60,
                          # Name the shell: typer otherwise guesses it from the process
                          # tree, which depends on how the tests were started.
                          env={**os.environ,
                               "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert done.returncode == 0 and "_CASINO_COMPLETE=complete_bash" in done.stdout


def test_file_errors_are_words_everywhere(tmp_path: Path) -> None:
    """No errno, no .tmp file names: the path given, and what is wrong with it."""
    (tmp_path / "afile").write_text("", encoding="utf-8")
    blocked = tmp_path / "afile" / "x.casino"
    missing = tmp_path / "nope.casino"
    cases = [
        (("replay", str(missing)), f"casino: no such file: {missing}"),
        (("replay", str(tmp_path)), f"casino: cannot read {tmp_path}: it is a folder"),
        (("play", "--plain", "--resume", str(missing)), f"casino: no such file: {missing}"),
        (("demo", "--seed", "1", "--save", str(blocked)),
         f"casino: cannot write {blocked}: {tmp_path / 'afile'} is a file, not a folder"),
        (("arena", "random", "greedy", "--games", "1", "--seed", "1", "--out",
          str(blocked)),
         f"casino: cannot write {blocked}: {tmp_path / 'afile'} is a file, not a folder"),
    ]
    for args, words in cases:
        code, _, err = run(*args)
        assert code == 2, args
        assert err.strip().splitlines()[-1].startswith(words), (args, err)
        assert "Errno" not in err and ".tmp" not in err
