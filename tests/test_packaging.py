"""The bare package needs nothing but Python, and the ``casino`` command says which extra
is missing instead of printing a traceback.

``pip install casino`` without extras is a supported install (pyproject.toml: no
dependencies; the engine, the bots, the words and the play session are standard library
only, which the import-linter contracts also check statically). The slow test below
proves it end to end: it installs the package from this source tree into a fresh virtual
environment, with its (empty) dependency list resolved by pip, and plays a whole game
there, a bot in one seat and random legal moves in the other.

The package is built by setuptools, with the compiled core (``casino.engine._core``, C
from src/ccore/) as an optional extension: a normal install builds it, and an install
where no C compiler works still succeeds and plays in pure Python. The slow tests here
check both, and that the installed package holds every file git tracks under
src/casino/ (pyproject.toml lists the data files by pattern).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Third-party packages that only the extras bring; none may be needed for a game.
EXTRAS_ONLY = ("typer", "rich", "click", "textual", "fastapi", "starlette", "uvicorn",
               "jinja2", "sqlalchemy", "alembic", "psycopg", "matplotlib", "numpy",
               "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "uvloop")

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


#: What building the package reads. The tests build a copy of these (without built
#: modules, caches or build/): setuptools builds in the source tree, where a stale build
#: could slip into the wheel and two builds at once would collide.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "src")

#: Which engine answers, printed by the installed package.
ENGINE = "from casino.engine import core; print(core.engine_name())"

#: In CI a missing C compiler fails the check that a normal install builds the core;
#: elsewhere that check is left out.
IN_CI = os.environ.get("CI") == "true"


def _source_copy(dest: Path) -> Path:
    """A copy of what building the package reads, in ``dest``."""
    dest.mkdir()
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.py[co]", "*.so", "*.egg-info"))
        elif (ROOT / name).exists():
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _fresh_venv(env_dir: Path) -> tuple[Path, dict[str, str]]:
    """A new virtual environment with pip, its python, and an environment to run it in
    (neither this one's import path nor its switch of the core)."""
    venv.EnvBuilder(with_pip=True).create(env_dir)
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CASINO_CORE")}
    return env_dir / "bin" / "python", clean


def _c_compiler() -> str | None:
    """The C compiler setuptools would use ($CC, else Python's own), if it is there."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(cc)[0])


def _installed_files(python: Path, env: dict[str, str], cwd: Path) -> set[str]:
    """The files the installed package put in site-packages (its RECORD), as paths
    relative to it."""
    code = ("from importlib.metadata import files\n"
            "for f in files('casino') or []: print(f.as_posix())\n")
    done = _run([str(python), "-c", code], env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def _tracked_package_files() -> set[str] | None:
    """The files git tracks under src/casino/, as paths in the installed package; None
    outside a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    done = _run(["git", "-C", str(ROOT), "ls-files", "-z", "src/casino"])
    if done.returncode != 0:
        return None
    return {name.removeprefix("src/") for name in done.stdout.split("\0") if name}


@pytest.mark.slow
def test_the_bare_package_plays_a_whole_game_with_the_standard_library_only(
        tmp_path: Path) -> None:
    env_dir = tmp_path / "bare"
    python, clean = _fresh_venv(env_dir)
    # The package itself from this source tree, its dependencies resolved by pip (there
    # are none); setuptools comes from the package index through build isolation.
    done = _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 str(_source_copy(tmp_path / "source"))], env=clean)
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

    # A normal install where a C compiler works builds the compiled core.
    engine = _run([str(python), "-c", ENGINE], env=clean, cwd=tmp_path)
    assert engine.returncode == 0, engine.stderr
    if _c_compiler() is not None or IN_CI:
        assert engine.stdout.strip() == "compiled core (C)", engine.stdout

    # It holds every file git tracks under src/casino/ (the data files are listed by
    # pattern in pyproject.toml), and besides those only its metadata and the core.
    installed = {name for name in _installed_files(python, clean, tmp_path)
                 if not name.startswith(("casino-", "../"))
                 and "__pycache__" not in name}
    tracked = _tracked_package_files()
    if tracked is not None:
        assert not tracked - installed, f"not installed: {sorted(tracked - installed)}"
    extra = {name for name in installed - (tracked or set())
             if not (ROOT / "src" / name).exists()}
    assert all(name.startswith("casino/engine/_core.") and name.endswith(".so")
               for name in extra), sorted(extra)


@pytest.mark.slow
def test_without_a_c_compiler_the_package_installs_and_plays_in_pure_python(
        tmp_path: Path) -> None:
    python, clean = _fresh_venv(tmp_path / "nocc")
    # setuptools compiles with $CC and links with $LDSHARED: both fail, as where no C
    # compiler works. The core is an optional extension, so the install goes on without it.
    nocc = {**clean, "CC": "/bin/false", "LDSHARED": "/bin/false"}
    done = _run([str(python), "-m", "pip", "install", "-v", "--disable-pip-version-check",
                 str(_source_copy(tmp_path / "source"))], env=nocc)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-4000:]
    assert 'building extension "casino.engine._core" failed' in said, said[-4000:]
    installed = _installed_files(python, clean, tmp_path)
    assert not [name for name in installed if "_core." in name], sorted(installed)

    engine = _run([str(python), "-c", ENGINE], env=clean, cwd=tmp_path)
    assert engine.returncode == 0, engine.stderr
    assert engine.stdout.strip() == "pure Python (no compiled core built)"

    game = _run([str(python), "-c", GAME], env=clean, cwd=tmp_path)
    assert game.returncode == 0, game.stderr
    assert game.stdout.startswith("winner ")


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
