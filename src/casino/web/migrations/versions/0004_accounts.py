"""Accounts, optional: accounts, their sessions and recovery codes, the games they
claimed, and the failed sign-ins counted per account and per network
(``casino/web/accounts/store.py``; docs/server.md, "Accounts").

Only hashes of secrets are kept: a password's Argon2id hash, a session token's and a
recovery code's SHA-256. The accounts' names are unique by their look-alike skeleton.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the accounts' tables."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("skeleton", sa.String(128), nullable=False),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_accounts_skeleton", "accounts", ["skeleton"], unique=True,
                    if_not_exists=True)
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account"],
                    if_not_exists=True)
    op.create_table(
        "recovery_codes",
        sa.Column("account", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("code_hash", sa.String(64), primary_key=True),
        if_not_exists=True,
    )
    op.create_table(
        "account_games",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        if_not_exists=True,
    )
    op.create_index("ix_account_games_account", "account_games", ["account"],
                    if_not_exists=True)
    op.create_table(
        "signin_failures",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failures", sa.Integer, nullable=False),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the accounts' tables: the games stay, as guests' games."""
    for table in ("signin_failures", "account_games", "recovery_codes", "account_sessions",
                  "accounts"):
        op.drop_table(table)
