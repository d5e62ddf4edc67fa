"""Allowances counted across processes: token buckets of rates (new games, hints, pairing
asks, score pads) and the waiting rooms each address and network made
(``casino/web/allowances.py``; docs/server.md, "Limits across processes").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``rate_buckets`` and ``room_makers`` tables (empty: every key starts with
    a full allowance, as after a restart before)."""
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("full_at", sa.Float, nullable=False),
        sa.Column("taken", sa.Boolean, nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_rate_buckets_full_at", "rate_buckets", ["full_at"],
                    if_not_exists=True)
    op.create_table(
        "room_makers",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_room_makers_key", "room_makers", ["key"], if_not_exists=True)
    op.create_index("ix_room_makers_created", "room_makers", ["created"], if_not_exists=True)


def downgrade() -> None:
    """Drop both tables (the allowances then count in no process)."""
    op.drop_table("room_makers")
    op.drop_table("rate_buckets")
