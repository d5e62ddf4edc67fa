"""Rating history: how each rated game moved each of its players' ratings, for the
player page's graph (``casino/web/accounts/profiles.py``; docs/server.md, "Profiles").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``rating_changes`` table (empty: the games rated so far have no history;
    their ratings stand as they are)."""
    op.create_table(
        "rating_changes",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("account", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deviation_after", sa.Float, nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_rating_changes_pool", "rating_changes",
                    ["account", "preset", "players", "changed"], if_not_exists=True)


def downgrade() -> None:
    """Drop the rating history (the ratings themselves stay)."""
    op.drop_table("rating_changes")
