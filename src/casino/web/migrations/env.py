"""Alembic's entry point: run the migrations on the connection the caller passes in
(``casino.web.migrations.upgrade``), or for the ``alembic`` command on the database
the environment names, read as ``casino serve`` reads it (``CASINO_DATABASE_URL``, else
the deprecated ``DATABASE_URL``: :func:`casino.web.settings.database_from_environment`)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import casino.web.accounts.store  # the accounts' tables belong to the same schema
import casino.web.clockstore  # the clocks' table too
import casino.web.tools  # noqa: F401  (its score-pad table belongs to the same schema)
from casino.web.settings import database_from_environment
from casino.web.store import Base, database_url

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = database_url(database_from_environment())
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
