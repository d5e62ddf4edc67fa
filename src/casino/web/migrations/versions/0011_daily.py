"""The daily deal: each day's deck per preset, and each player's play of it
(docs/server.md, "The daily deal").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the ``daily_deals`` and ``daily_entries`` tables (where missing: a database
    made by the code as it is now has them)."""
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "daily_deals" not in tables:
        op.create_table(
            "daily_deals",
            sa.Column("day", sa.String(10), primary_key=True),
            sa.Column("rules", sa.String(32), primary_key=True),
            sa.Column("deck", sa.Text, nullable=False),
            sa.Column("dealer", sa.Integer, nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False))
    if "daily_entries" not in tables:
        op.create_table(
            "daily_entries",
            sa.Column("day", sa.String(10), primary_key=True),
            sa.Column("rules", sa.String(32), primary_key=True),
            sa.Column("player", sa.String(80), primary_key=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("guest", sa.Boolean, nullable=False),
            sa.Column("game", sa.String(32), nullable=False, unique=True),
            sa.Column("started", sa.DateTime(timezone=True), nullable=False),
            sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
            sa.Column("margin", sa.Integer, nullable=True),
            sa.Column("seconds", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop both tables: the daily games stay as games."""
    op.drop_table("daily_entries")
    op.drop_table("daily_deals")
