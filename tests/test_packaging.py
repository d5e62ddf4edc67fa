"""The bare package needs nothing but Python, and the ``casino`` command says which extra
is missing instead of printing a traceback.

``pip install casino`` without extras is a supported install (pyproject.toml: no
dependencies; the engine, the bots, the words and the play session are standard library
only, which the import-linter contracts also check statically). The slow test below
proves it end to end: it installs the package from this source tree into a fresh virtual
environment, with its (empty) dependency list resolved by pip, and plays a whole game
there, a bot in one seat and random legal moves in the other.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Third-party packages that only the extras bring; none may be needed for a game.
EXTRAS_ONLY = ("typer", "rich", "click", "textual", "fastapi", "starlette", "uvicorn",
               "jinja2", "sqlalchemy", "alembic", "psycopg", "matplotlib", "numpy",
               "pettingzoo", "gymnasium", "pyspiel", "open_spiel")

#: A whole game with nothing but the standard library and the bare package.
GAME = f"""
import importlib.util, random, sys
extras = {EXTRAS_ONLY!r}
missing = [name for name in extras if importlib.util.find_spec(name) is None]
assert missing == list(extras), ("installed with the bare package", set(extras) - set(missing))

from casino import Match, Position
from casino.bots import make_bot
from casino.engine.record import read_record, write_record

rng = random.Random(17)
bot = make_bot("greedy", seed=17)
match = Match("casino", seed=17, first_dealer=0)
moves = 0
while not match.is_over:
    pos = match.position
    if pos.is_over:
        match.next_round()
        continue
    if pos.to_move == 0:
        move = bot.choose(pos.observation(0))
    else:
        move = rng.choice(pos.legal_moves())
    match.play(move)
    moves += 1
assert match.winner is not None and moves > 40, (match.winner, moves)
assert Position.from_json(match.position.to_json()) == match.position
assert read_record(write_record(match)).rounds, "the record keeps the rounds"
assert str(match.position)
loaded = sorted(name for name in sys.modules if name.partition(".")[0] in extras)
assert not loaded, loaded
print("winner", match.winner, "after", moves, "moves")
"""


def _run(cmd: list[str], *, env: dict[str, str] | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=cwd)


@pytest.mark.slow
def test_the_bare_package_plays_a_whole_game_with_the_standard_library_only(
        tmp_path: Path) -> None:
    env_dir = tmp_path / "bare"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    # The package itself from this source tree, its dependencies resolved by pip (there
    # are none); hatchling comes from the package index through build isolation.
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 str(ROOT)], env=clean)
    assert done.returncode == 0, done.stderr
    listed = _run([str(python), "-m", "pip", "list", "--format=freeze",
                   "--disable-pip-version-check"], env=clean)
    names = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert names <= {"casino", "pip", "setuptools"}, names

    # Run from elsewhere, so that the installed package is imported, not this tree's.
    game = _run([str(python), "-c", GAME], env=clean, cwd=tmp_path)
    assert game.returncode == 0, game.stderr
    assert game.stdout.startswith("winner ")

    guide = _run([str(python), "-m", "casino.words.guide"], env=clean, cwd=tmp_path)
    assert guide.returncode == 0 and "Casino" in guide.stdout, guide.stderr

    command = _run([str(env_dir / "bin" / "casino"), "--version"], env=clean, cwd=tmp_path)
    assert command.returncode == 1
    assert "Traceback" not in command.stderr
    assert "pip install 'casino[cli]'" in command.stderr


def _command_without(blocked: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """``casino ARGS`` with the packages ``blocked`` made unimportable (None in
    sys.modules is how Python spells "this module cannot be imported")."""
    code = ("import sys\n"
            f"for name in {blocked!r}:\n"
            "    sys.modules[name] = None\n"
            f"sys.argv = ['casino', *{args!r}]\n"
            "from casino.__main__ import main\n"
            "main()\n")
    return _run([sys.executable, "-c", code])


def test_the_command_without_the_cli_extra_says_what_to_install() -> None:
    done = _command_without(("typer",), "--version")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "casino: this needs the Python package 'typer', which comes with the 'cli' extra: "
        "pip install 'casino[cli]' (or 'casino[all]')")


def test_a_command_without_its_front_end_s_extra_says_what_to_install() -> None:
    # The web app is imported before anything is bound or opened.
    done = _command_without(("fastapi",), "serve", "--port", "65000")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "pip install 'casino[web]'" in done.stderr


def test_the_command_with_its_extras_runs() -> None:
    done = _command_without((), "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("casino ")
