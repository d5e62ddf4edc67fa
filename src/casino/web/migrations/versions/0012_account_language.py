"""The language an account's owner chose with the pages' switch, kept in the account so
that it follows them to another browser (``accounts.language``; docs/server.md,
"Languages").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the accounts' ``language``, empty for every account so far (each goes on in
    its browser's language until its owner chooses one)."""
    # A plain ADD COLUMN, nullable (no batch copy of the accounts table, which its
    # sessions' and codes' foreign keys point at), only where it is missing (a database
    # made by the code as it is now has it).
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("accounts")}
    if "language" not in columns:
        op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop the column: the accounts stay, their owners' choices forgotten."""
    op.drop_column("accounts", "language")
