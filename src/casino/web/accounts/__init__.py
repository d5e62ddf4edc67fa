"""Accounts, optional: a player may sign up with a name and a password, and guests go on
playing as before (docs/server.md, "Accounts").

The parts, each in its module: :mod:`~casino.web.accounts.names` (what a name may be, and
when two names look alike), :mod:`~casino.web.accounts.passwords` (Argon2 hashing off the
event loop, recovery codes, session tokens and the forms' CSRF tokens),
:mod:`~casino.web.accounts.store` (the tables and their queries),
:mod:`~casino.web.accounts.service` (signing up, in and out, recovery, claiming a
browser's games, deletion, and the sign-in limits) and :mod:`~casino.web.accounts.forms`
(the forms' bodies as pydantic models). The pages are :mod:`casino.web.routes.accounts`.
"""
