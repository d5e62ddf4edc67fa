"""``casino`` and ``python -m casino``: the command's entry point, standard library only.

The commands themselves (:mod:`casino.cli` and its modules) need typer and rich, the
``cli`` extra; ``casino play`` needs textual (``tui``), ``casino serve`` FastAPI and its
company (``web``), and ``casino arena --plot`` matplotlib (``arena``). :func:`main`
checks for them first and says which extra to install instead of printing a traceback,
because the bare package (no extras) is a supported install: the engine, the bots and
the words need nothing but Python.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec

#: The extra that provides each third-party package a command may import.
EXTRAS: dict[str, str] = {
    "typer": "cli", "rich": "cli", "click": "cli", "textual": "tui",
    "fastapi": "web", "starlette": "web", "uvicorn": "web", "websockets": "web",
    "jinja2": "web", "sqlalchemy": "web", "alembic": "web", "psycopg": "web",
    "matplotlib": "arena",
}


def missing_extra(package: str) -> str:
    """The one line that says how to get ``package``: ``pip install 'casino[cli]'``."""
    extra = EXTRAS.get(package, "all")
    return (f"casino: this needs the Python package {package!r}, which comes with the "
            f"'{extra}' extra: pip install 'casino[{extra}]' (or 'casino[all]')")


def main() -> None:
    """The console entry point (``casino``): the commands, or one line saying which extra
    is missing (exit code 1)."""
    for package in ("typer", "rich"):
        if find_spec(package) is None:
            print(missing_extra(package), file=sys.stderr)
            raise SystemExit(1)
    try:
        from casino.cli import main as commands

        commands()
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in EXTRAS:
            raise
        print(missing_extra(top), file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
