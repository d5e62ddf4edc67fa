"""Spectators: whether a game may be watched live, and how many moves behind the
spectators' view is (chosen when the game is made; docs/server.md, "Spectators").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the games' ``spectators`` flag and ``spectator_delay``: every game stored so
    far may not be watched, as before."""
    # A plain ADD COLUMN with a constant default, as 0005's rated flag (a batch copy of
    # the games table would trip the foreign keys of its seats and events), and only
    # where the column is missing (a database made by the code as it is now has it).
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "spectators" not in columns:
        op.add_column("games", sa.Column("spectators", sa.Boolean, nullable=False,
                                         server_default=sa.false()))
    if "spectator_delay" not in columns:
        op.add_column("games", sa.Column("spectator_delay", sa.Integer, nullable=False,
                                         server_default="0"))


def downgrade() -> None:
    """Drop both columns: the games stay, none of them watchable."""
    op.drop_column("games", "spectator_delay")
    op.drop_column("games", "spectators")
