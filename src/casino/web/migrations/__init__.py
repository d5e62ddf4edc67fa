"""The web database's schema, versioned with Alembic: every change is a migration.

A server opening a database brings it to the newest schema before serving
(:func:`upgrade`), so an operator upgrading the package keeps every game. A
database made before the schema was versioned (release 0.1.0 and earlier, whose
tables ``create_all`` made) has no ``alembic_version`` table; the first
migration creates only what such a database lacks, so it is upgraded like any
other.

A new migration (after changing a table in ``store.py`` or ``tools.py``)::

    .venv/bin/alembic -c src/casino/web/migrations/alembic.ini revision \\
        --autogenerate -m "what changed"

with ``CASINO_DATABASE_URL`` naming a database at the newest revision; the test
``tests/test_web_migrations.py`` fails while the tables and the migrations differ.

Several servers may start at once on one PostgreSQL database (``casino serve
--workers N``, or several machines restarted together). Each would read the schema's
revision, find it old, and run the same migration: the second ``CREATE TABLE`` fails,
or, worse, a data migration runs twice. So on PostgreSQL :func:`upgrade` first takes
an advisory lock (:data:`LOCK_KEY`, held until its transaction ends): the servers
upgrade one after the other, and each after the first finds the schema new and does
nothing. SQLite needs no lock: its file is served by one process (``single.py``),
and a writer holds the whole file anyway.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).parent

#: The PostgreSQL advisory lock that one schema upgrade at a time holds (any 64-bit
#: number nothing else in the database uses: "casino" in ASCII, then 1 for "schema").
LOCK_KEY = 0x636173696E6F_0001


def config(connection: Connection | None = None) -> Config:
    """The Alembic configuration of this package's migrations, on ``connection``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (a no-op when it is).

    On PostgreSQL, one process at a time: the transaction first takes the advisory
    lock :data:`LOCK_KEY`, which PostgreSQL lets go when it commits (or the
    connection dies), so a server that starts while another upgrades waits for it,
    then finds nothing left to do. Alembic runs the whole upgrade in this one
    transaction (PostgreSQL's DDL is transactional): a failed migration leaves the
    schema as it was.
    """
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        command.upgrade(config(conn), "head")


def current(engine: Engine) -> str | None:
    """The schema revision of the database of ``engine`` (None: not versioned)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head() -> str:
    """The newest revision this package knows."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory(str(HERE)).get_current_head()
    assert revision is not None
    return revision
