"""Running the ``casino`` command line in the test process (typer's CliRunner)."""

from __future__ import annotations

from typer.testing import CliRunner

from casino.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """``casino ARGS`` with ``input`` on stdin: (exit code, stdout, stderr).

    An exception other than the exit the command line raises on purpose is raised
    again, so a crash fails the test with its own traceback rather than an exit code.
    """
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr
