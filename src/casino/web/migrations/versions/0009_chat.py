"""The chat: its lines, the reports of them, each person's mutes, and the chat turned off
for a person or a game (``casino/web/chatstore.py``; docs/server.md, "Chat").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the chat's four tables, empty: every game made so far has its chat on."""
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_chat_lines_game", "chat_lines", ["game"], if_not_exists=True)
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("said", sa.Text, nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved", sa.Boolean, nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_chat_reports_line", "chat_reports", ["line"], if_not_exists=True)
    op.create_index("ix_chat_reports_resolved", "chat_reports", ["resolved"],
                    if_not_exists=True)
    op.create_table(
        "chat_mutes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("viewer", sa.String(64), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.UniqueConstraint("viewer", "sender", name="uq_chat_mutes"),
        if_not_exists=True,
    )
    op.create_index("ix_chat_mutes_viewer", "chat_mutes", ["viewer"], if_not_exists=True)
    op.create_table(
        "chat_off",
        sa.Column("key", sa.String(64), primary_key=True),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the chat's tables (its lines, reports and settings go)."""
    op.drop_table("chat_off")
    op.drop_table("chat_mutes")
    op.drop_table("chat_reports")
    op.drop_table("chat_lines")
