"""Clocks: each timed game's control and clock state, with the running clock's
deadline indexed (``casino/web/clockstore.py``; docs/server.md, "Clocks").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``clocks`` table (empty: every game stored so far has no clock)."""
    op.create_table(
        "clocks",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("control", sa.String(200), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        if_not_exists=True,
    )
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"], if_not_exists=True)


def downgrade() -> None:
    """Drop the table: the games go on without clocks."""
    op.drop_table("clocks")
