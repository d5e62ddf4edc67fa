"""Ratings: a game may be rated (chosen when its room is made), each account has a
Glicko-2 rating per preset and player count, and a rated game's result moves them once
(``casino/web/accounts/ratings.py``; docs/server.md, "Ratings").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the games' rated flag (every game stored so far is casual) and the ratings'
    tables."""
    # A plain ADD COLUMN (SQLite takes it with a constant default): a batch copy of the
    # games table would trip the foreign keys of its seats and events. Only where the
    # column is missing, as every table here is made only where it is: a database made
    # by the code before the schema was versioned has the games table as the code has
    # it now.
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "rated" not in columns:
        op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False,
                                         server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("account", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_ratings_pool", "ratings", ["preset", "players"], if_not_exists=True)
    op.create_table(
        "rated_games",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("rated", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the ratings and the rated flag: the games stay, as casual games."""
    op.drop_table("rated_games")
    op.drop_table("ratings")
    op.drop_column("games", "rated")
