"""Alembic's entry point: run the migrations on the connection the caller passes in
(``casino.web.migrations.upgrade``), or on ``CASINO_DATABASE_URL`` for the
``alembic`` command."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

import casino.web.tools  # noqa: F401  (its score-pad table belongs to the same schema)
from casino.web.store import Base, database_url

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = database_url(os.environ.get("CASINO_DATABASE_URL", "sqlite:///casino.db"))
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
