"""One serving process per SQLite database: ``casino serve`` refuses to start a second
process on a SQLite file another process serves, with words, before anything listens;
the same process may claim again, and a process that exits (or dies) lets go."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer import Typer
from typer.testing import CliRunner

from casino.web.cli import serve_command
from casino.web.single import AlreadyServed, claim_sqlite, sqlite_file


def holder(url: str) -> subprocess.Popen[str]:
    """Another process that claims ``url``'s database and keeps it until stopped."""
    code = ("import sys, time\nfrom casino.web.single import claim_sqlite\n"
            f"claim_sqlite({url!r})\nprint('held', flush=True)\nsys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_only_sqlite_files_are_claimed(tmp_path: Path) -> None:
    assert sqlite_file(f"sqlite:///{tmp_path}/a.db") == (tmp_path / "a.db").resolve()
    for url in ("sqlite://", "sqlite:///:memory:", "postgresql://u@h/db", "not a url"):
        assert sqlite_file(url) is None
        assert claim_sqlite(url) is None


def test_a_second_process_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/casino.db"
    other = holder(url)
    try:
        try:
            claim_sqlite(url)
        except AlreadyServed as exc:
            message = str(exc)
        else:
            raise AssertionError("a second process claimed a served SQLite database")
        assert f"already served by process {other.pid}" in message
        assert "PostgreSQL" in message
    finally:
        other.kill()
        other.wait()
    # The holder is gone (killed, as a crash would): the database is free again, and
    # this process may claim it as often as it likes.
    lock = claim_sqlite(url)
    assert lock == (tmp_path / "casino.db.serving").resolve()
    assert claim_sqlite(url) == lock
    assert lock.read_text().strip() == str(os.getpid())


def test_casino_serve_says_why_it_will_not_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/served.db"
    other = holder(url)
    try:
        app = Typer()
        app.command("serve")(serve_command)
        app.command("other")(lambda: None)  # two commands: "serve" is a subcommand
        result = CliRunner().invoke(app, ["serve", "--database", url, "--port", "1"])
    finally:
        other.kill()
        other.wait()
    assert result.exit_code == 2
    assert "is already served by process" in result.output
    assert "Traceback" not in result.output
