"""Secrets of accounts: Argon2 password hashes, recovery codes, session tokens and the
forms' CSRF tokens.

Passwords are hashed with Argon2id (argon2-cffi). Hashing is deliberately slow and
takes memory, so it never runs on the event loop (a sign-in would stall every game for
its duration): it runs in a small pool of threads of its own (argon2-cffi lets go of the
GIL while it hashes), ``password_hashes_at_once`` of them, and at most
:data:`WAITING_PER_THREAD` times as many hashings may wait; beyond that a sign-in is
told the server is busy, rather than queueing without end. The cost is the server's
limits' (``password_time_cost``, ``password_memory_kib``, ``password_lanes``: by
default argon2-cffi's own, RFC 9106's low-memory profile), so tests make it cheap.

Recovery codes, session tokens and CSRF tokens are random, long enough that a fast hash
keeps them: the database holds their SHA-256 (:func:`casino.web.store.token_hash`),
never the secret itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from casino.i18n import _
from casino.web.limits import Limits

#: The cookie holding a signed-in browser's session token.
SESSION_COOKIE = "casino_session"
#: The shortest and the longest password, in characters.
PASSWORD_MIN = 10
PASSWORD_MAX = 256
#: Recovery codes given at sign-up (and when asked for anew), each used once.
RECOVERY_CODES = 8
#: A recovery code: 16 characters of this alphabet (80 bits), shown in groups of four.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 16
#: Hashings that may wait per hashing thread before a sign-in is told the server is busy.
WAITING_PER_THREAD = 8


class Busy(Exception):
    """Too many passwords are being hashed already: the caller is told to try again."""


@dataclass(frozen=True)
class Profile:
    """Argon2id's cost: passes, memory in KiB, and lanes."""

    time_cost: int
    memory_kib: int
    lanes: int

    @classmethod
    def of(cls, limits: Limits) -> Profile:
        """The profile the server's limits set."""
        return cls(limits.password_time_cost, limits.password_memory_kib,
                   limits.password_lanes)


def password_rule() -> str:
    """The rule in words, in the language in force: the second half of every refusal of
    a password, and the forms' note."""
    return _("a password is %(min)s to %(max)s characters, with no control characters (a "
             "passphrase of a few words is good)") % {"min": PASSWORD_MIN, "max": PASSWORD_MAX}


def why_not_password(password: str) -> str | None:
    """Why ``password`` cannot be a password, in words; None when it can."""
    values = {"rule": password_rule()}
    if len(password) < PASSWORD_MIN:
        return _("the password is too short: %(rule)s") % values
    if len(password) > PASSWORD_MAX:
        return _("the password is too long: %(rule)s") % values
    if any(unicodedata.category(ch) == "Cc" for ch in password):
        return _("the password has a control character: %(rule)s") % values
    return None


class Passwords:
    """Argon2id hashing and checking in threads of its own, a bounded number at once."""

    def __init__(self, profile: Profile, threads: int) -> None:
        self.hasher = PasswordHasher(time_cost=profile.time_cost,
                                     memory_cost=profile.memory_kib,
                                     parallelism=profile.lanes)
        self.threads = threads
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="casino-argon2")
        self._queued = 0
        #: A hash of no password, checked when a name has no account, so that a sign-in
        #: takes as long whether the name exists or not.
        self._decoy: str | None = None

    async def _run(self, work: object, *args: str) -> object:
        if self._queued >= self.threads * (1 + WAITING_PER_THREAD):
            raise Busy
        self._queued += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, work, *args)  # type: ignore[arg-type]
        finally:
            self._queued -= 1

    async def hash(self, password: str) -> str:
        """The stored form of ``password`` (Argon2id, with its own salt)."""
        out = await self._run(self.hasher.hash, password)
        assert isinstance(out, str)
        return out

    async def check(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes. With no ``stored`` hash (no
        such account) the same work is done against a decoy, and the answer is no."""
        if stored is None:
            if self._decoy is None:
                self._decoy = await self.hash(secrets.token_urlsafe(16))
            await self._run(self._verify, self._decoy, secrets.token_urlsafe(16))
            return False
        return bool(await self._run(self._verify, stored, password))

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, password))
        except (VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        """Let the hashing threads go (at the server's shutdown)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def new_codes() -> list[str]:
    """A new set of recovery codes, as shown: ``abcd-efgh-jkmn-pqrs``."""
    out = []
    for _code in range(RECOVERY_CODES):
        raw = "".join(secrets.choice(CODE_ALPHABET) for _char in range(CODE_LENGTH))
        out.append("-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4)))
    return out


def code_key(code: str) -> str:
    """The stored form of a recovery code as typed (any case, spaces and hyphens
    anywhere): the SHA-256 of its characters."""
    bare = "".join(ch for ch in code.lower() if ch not in " -")
    return hashlib.sha256(("casino recovery " + bare).encode()).hexdigest()


def new_session_token() -> str:
    """A new session's secret, for its cookie (256 bits)."""
    return secrets.token_urlsafe(32)


def csrf_token(secret: str) -> str:
    """The forms' CSRF token of the browser holding ``secret`` (its session token, or its
    browser token when signed out): another site's page cannot read the cookie, so it
    cannot work out the token a form must carry."""
    return hmac.new(secret.encode(), b"casino form", hashlib.sha256).hexdigest()[:32]


def csrf_ok(secret: str | None, given: str) -> bool:
    """Whether a form's ``given`` token is the one of ``secret`` (in constant time)."""
    return secret is not None and hmac.compare_digest(csrf_token(secret), given)
