"""Leases: which server process is thinking for a game's computer, or of its hint.

Several ``casino serve`` processes may share one PostgreSQL database, and each may
have a game live. A computer's move must be thought of once per turn (and a hint
once at a time), so the process that does it holds the game's lease of that kind,
for that version of the game, until a time it keeps pushing forward while it
works. A process that dies stops pushing; once the time passes, another takes the
lease over.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of leases."""
    op.create_table(
        "leases",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the leases: with one server process, none is needed."""
    op.drop_table("leases")
