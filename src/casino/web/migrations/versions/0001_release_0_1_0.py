"""The schema of release 0.1.0, the last made by ``create_all``.

Every table and index is created only where missing: a database from 0.1.0 (or
from before its score pads and its index of seats by token) has no
``alembic_version`` table, so Alembic runs this first migration on it too, and
it adds just what that database lacks.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create what the database lacks of 0.1.0's tables and indexes (each only where
    missing)."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("creator_seat", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_games_created", "games", ["created"], if_not_exists=True)
    op.create_index("ix_games_status", "games", ["status"], if_not_exists=True)
    op.create_table(
        "seats",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        if_not_exists=True,
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"], if_not_exists=True)
    op.create_table(
        "events",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("words", sa.Text, nullable=False),
        sa.Column("words_you", sa.Text, nullable=True),
        if_not_exists=True,
    )
    op.create_table(
        "scorepads",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("pad", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop 0.1.0's tables, those that refer to others first: an empty database."""
    for table in ("scorepads", "events", "seats", "games"):
        op.drop_table(table)
