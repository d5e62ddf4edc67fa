"""One serving process per SQLite database: a second ``casino serve`` on the same file is
refused with words.

Every process keeps its live games, their locks and their WebSocket connections in its
own memory, so two processes on one SQLite file would each load the same game and
could both accept a move for the same turn. SQLite is the embedded database of one
process (``make run``); several processes share a PostgreSQL database instead, and
``casino serve --workers N`` (N > 1) on SQLite is refused before it starts
(:func:`refuse_several`).

The claim is a POSIX record lock (``fcntl.lockf``) on a file beside the database,
``<database>.serving``, held by the serving process until it exits (a crash releases
it too). Record locks belong to a process, so the same process may claim again (a
server's app made twice in one process, as tests do); the database file itself is
never locked here, because closing any descriptor of a file drops every record lock
the process holds on it, and SQLite's own locks are such locks.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from casino.i18n import _

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no claim, nothing refused
    fcntl = None  # type: ignore[assignment]

#: The claims this process holds, by lock file: kept open for the process's life.
_HELD: dict[Path, IO[str]] = {}


class AlreadyServed(ValueError):
    """Another process serves this SQLite database; the message says which and why not."""


class OneProcessOnly(ValueError):
    """Several serving processes were asked for on a SQLite database."""


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names a SQLite database (a file or one in memory)."""
    try:
        return make_url(url).get_backend_name() == "sqlite"
    except ArgumentError:  # not a URL: opening the database says so
        return False


def refuse_several(url: str, workers: int) -> None:
    """OneProcessOnly, with words, when ``workers`` processes (more than one) would serve
    the SQLite database of ``url``: ``casino serve --workers N`` asks this before it
    opens the database or listens. One process, or another database, passes."""
    if workers > 1 and is_sqlite(url):
        raise OneProcessOnly(
            _("--workers %(n)s: a SQLite database is served by one process only (its live "
              "games are kept in that process's memory); serve it with --workers 1, or "
              "share a PostgreSQL database between several processes (--database "
              "postgresql://...; docs/server.md)") % {"n": workers})


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL; None for another database or an in-memory one."""
    try:
        parsed = make_url(url)
    except ArgumentError:  # not a URL: opening the database says so
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    name = parsed.database
    if not name or name == ":memory:" or name.startswith("file::memory:"):
        return None
    return Path(name).resolve()


def served_by(db: Path, holder: str) -> str:
    """The refusal to serve the SQLite database ``db`` that the process ``holder`` (its
    id; empty when unknown) serves already, in the language in force."""
    if holder:
        return _("the database %(db)s is already served by process %(pid)s: a SQLite "
                 "database is served by one process only (its live games are kept in that "
                 "process's memory); stop that server first, or share a PostgreSQL "
                 "database between several (docs/server.md)") % {"db": db, "pid": holder}
    return _("the database %(db)s is already served by another process: a SQLite "
             "database is served by one process only (its live games are kept in that "
             "process's memory); stop that server first, or share a PostgreSQL database "
             "between several (docs/server.md)") % {"db": db}


def claim_sqlite(url: str) -> Path | None:
    """Claim the SQLite database of ``url`` for this process, until it exits: its lock
    file, or None when there is nothing to claim (another database, SQLite in memory,
    a system without POSIX locks). AlreadyServed when another process holds it."""
    db = sqlite_file(url)
    if db is None or fcntl is None:
        return None
    lock = db.with_name(db.name + ".serving")
    if lock in _HELD:
        return lock
    try:
        handle = lock.open("a+", encoding="utf-8")
    except OSError:  # a folder that cannot be written: opening the database says so
        return None
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise AlreadyServed(served_by(db, holder)) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    _HELD[lock] = handle
    return lock


__all__ = ["AlreadyServed", "OneProcessOnly", "claim_sqlite", "is_sqlite", "refuse_several",
           "sqlite_file"]
