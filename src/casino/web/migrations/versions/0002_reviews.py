"""The post-game reviews of finished games, kept per game and seat.

A review costs a worker seconds to minutes (every decision of a seat searched on
sampled deals), and a finished game never changes, so the web server computes each
once and keeps its ``casino-review/1`` JSON here; ``setting`` is what it was computed
with (a server configured otherwise computes it again).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of kept reviews."""
    op.create_table(
        "reviews",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("setting", sa.String(64), nullable=False),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        # A database whose version table was lost (as in the 0.1.0 upgrade test) may
        # hold it already; creating only what is missing upgrades it like any other.
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the kept reviews: a server computes them again when asked."""
    op.drop_table("reviews")
