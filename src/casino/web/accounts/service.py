"""Accounts, as the pages ask for them: signing up, in and out (here or everywhere),
recovery with a code, new codes, claiming a browser's games, and deletion.

Every answer that refuses is an :class:`AccountError` in words, naming the form's field
at fault, and changes nothing. Sign-ins are limited by the failures counted in the
database (:mod:`casino.web.accounts.store`) against the name tried and against the
network it comes from (an IPv4 /24, an IPv6 /64: one subscriber's addresses), checked
*before* a password is hashed, so that a flood of guesses costs the server no Argon2
work once it is refused. Which of name and password was wrong is never said, and a name
with no account costs as much time as one with an account, so the sign-in page tells
nobody which names exist (the sign-up page must, to refuse a name taken).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from casino.i18n import pgettext, pN_
from casino.web.accounts import names
from casino.web.accounts.passwords import (
    Busy,
    Passwords,
    Profile,
    code_key,
    new_codes,
    new_session_token,
)
from casino.web.accounts.store import Account, AccountStore, NameTaken
from casino.web.limits import Limits
from casino.web.service import GameService
from casino.web.store import token_hash

#: The refusals, each worded once (in English, shown in the reader's language:
#: :class:`AccountError` translates them, in the context "account").
WRONG = pN_("account", "that name and password do not match an account: nothing was changed")
WRONG_CODE = pN_("account", "that name and recovery code do not match an account (each "
                            "code works once): nothing was changed")
WRONG_PASSWORD = pN_("account", "that is not this account's password: nothing was changed")
TAKEN = pN_("account", "the name %(name)s is taken, or looks too much like an account's "
                       "name (names are compared ignoring case, accents, separators and "
                       "look-alike letters such as 0 and O, 1 and l, or Cyrillic letters "
                       "drawn like Latin ones): choose another")
BUSY = pN_("account", "the server is busy checking passwords: try again in a few seconds")
TOO_MANY_ACCOUNT = pN_("account", "too many failed sign-ins to this account: try again in "
                                  "%(minutes)s minutes")
TOO_MANY_SIGNUPS = pN_("account", "too many accounts were signed up from your network "
                                  "lately: try again in %(minutes)s minutes")
TOO_MANY_NETWORK = pN_("account", "too many failed sign-ins from your network: try again "
                                  "in %(minutes)s minutes")
DELETED = pN_("account", "this account has been deleted")


class AccountError(Exception):
    """A refusal: words, the HTTP status, and the form's field at fault (if one is).
    ``message`` is one of this module's refusals (``%(name)s`` placeholders filled from
    ``values``), kept in English as ``words`` and translated into the language in force
    as ``message``: an AccountError is made inside the request that shows it."""

    def __init__(self, message: str, status: int = 400, field: str | None = None,
                 **values: object) -> None:
        self.words = message % values if values else message
        self.message = (pgettext("account", message) % values if values
                        else pgettext("account", message))
        super().__init__(self.words)
        self.status = status
        self.field = field


@dataclass(frozen=True)
class SignedIn:
    """A new session: its account, the token for its cookie, and, at sign-up or when
    asked for, the new recovery codes to show once."""

    account: Account
    token: str
    codes: list[str] = field(default_factory=list)
    claimed: int = 0


def signin_network(host: str) -> str:
    """The network whose failed sign-ins are counted together: an IPv4 /24, an IPv6
    /64 (what one subscriber is usually given); a client with no address, its name."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return f"host {host[:64]}"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if isinstance(ip, ipaddress.IPv4Address) else 64
    return str(ipaddress.ip_network((ip, prefix), strict=False))


class Accounts:
    """The accounts of one app: its database's account tables, its password hashing, and
    the game service whose database threads and live games it shares."""

    def __init__(self, service: GameService, limits: Limits) -> None:
        self.service = service
        self.limits = limits
        self.store = AccountStore(service.store)
        self.passwords = Passwords(Profile.of(limits), limits.password_hashes_at_once)
        self.window = dt.timedelta(seconds=limits.signin_window)
        self.lapse = dt.timedelta(days=limits.session_days)

    def close(self) -> None:
        """Let the hashing threads go (at the server's shutdown)."""
        self.passwords.close()

    async def _hash(self, password: str) -> str:
        try:
            return await self.passwords.hash(password)
        except Busy:
            raise AccountError(BUSY, 503) from None

    async def _within_limits(self, skeleton: str, host: str) -> list[str]:
        """The keys counting failed sign-ins of the name ``skeleton`` and of the network
        of ``host``; AccountError (429) when either has failed too often lately."""
        keys = [f"account {skeleton}", f"network {signin_network(host)}"]
        counted = await self.service.live.db(self.store.failures, keys, self.window)
        minutes = max(1, round(self.limits.signin_window / 60))
        if counted.get(keys[0], 0) >= self.limits.signin_failures_per_account:
            raise AccountError(TOO_MANY_ACCOUNT, 429, "name", minutes=minutes)
        if counted.get(keys[1], 0) >= self.limits.signin_failures_per_network:
            raise AccountError(TOO_MANY_NETWORK, 429, minutes=minutes)
        return keys

    async def _checked(self, skeleton: str, stored: str | None, password: str, host: str,
                       wrong: str, field_name: str) -> None:
        """Check ``password`` against ``stored`` under the sign-in limits of the name
        ``skeleton`` and the network of ``host``; AccountError otherwise."""
        keys = await self._within_limits(skeleton, host)
        try:
            ok = await self.passwords.check(stored, password)
        except Busy:
            raise AccountError(BUSY, 503) from None
        if not ok:
            await self.service.live.db(self.store.fail, keys, self.window)
            raise AccountError(wrong, 400, field_name)
        await self.service.live.db(self.store.forgive, keys[0])

    # -- signing up, in and out -----------------------------------------------

    async def sign_up(self, name: str, password: str, browser: str | None, claim: bool,
                      host: str) -> SignedIn:
        """A new account (the form checked the name's and the password's rules), signed
        in, with its recovery codes; the browser's games claimed if asked. At most
        ``signups_per_network`` from the network of ``host`` in ``signin_window``."""
        shown, skeleton = names.normal(name), names.skeleton(name)
        if await self.service.live.db(self.store.find, skeleton) is not None:
            raise AccountError(TAKEN, 409, "name", name=repr(shown))
        signups = [f"signup {signin_network(host)}"]
        counted = await self.service.live.db(self.store.failures, signups, self.window)
        if counted.get(signups[0], 0) >= self.limits.signups_per_network:
            minutes = max(1, round(self.limits.signin_window / 60))
            raise AccountError(TOO_MANY_SIGNUPS, 429, minutes=minutes)
        hashed = await self._hash(password)
        codes, token = new_codes(), new_session_token()
        try:
            account = await self.service.live.db(
                self.store.create, shown, skeleton, hashed, [code_key(c) for c in codes],
                token_hash(token))
        except NameTaken:  # taken between the look and the insert
            raise AccountError(TAKEN, 409, "name", name=repr(shown)) from None
        await self.service.live.db(self.store.fail, signups, self.window)
        claimed = await self.claim(account, browser) if claim and browser else 0
        return SignedIn(account, token, codes, claimed)

    async def sign_in(self, name: str, password: str, host: str) -> SignedIn:
        """A new session for the account of ``name`` and ``password``."""
        skeleton = names.skeleton(name)
        found = await self.service.live.db(self.store.find, skeleton)
        await self._checked(skeleton, found[1] if found else None, password, host, WRONG,
                            "password")
        assert found is not None  # a missing account never passes the check
        token = new_session_token()
        await self.service.live.db(self.store.add_session, found[0].id, token_hash(token))
        return SignedIn(found[0], token)

    async def recover(self, name: str, code: str, password: str, host: str) -> SignedIn:
        """Sign in with a recovery code (spent) and set a new password: every other
        session of the account is revoked, since whoever lost a password may have had it
        taken."""
        skeleton = names.skeleton(name)
        keys = await self._within_limits(skeleton, host)
        found = await self.service.live.db(self.store.find, skeleton)
        key = code_key(code)
        if found is None or not await self.service.live.db(self.store.has_code,
                                                           found[0].id, key):
            await self.service.live.db(self.store.fail, keys, self.window)
            raise AccountError(WRONG_CODE, 400, "code")
        hashed = await self._hash(password)
        if not await self.service.live.db(self.store.use_code, found[0].id, key, hashed):
            await self.service.live.db(self.store.fail, keys, self.window)
            raise AccountError(WRONG_CODE, 400, "code")
        await self.service.live.db(self.store.forgive, keys[0])
        await self.reconnect(found[0])  # its other sessions were revoked
        token = new_session_token()
        await self.service.live.db(self.store.add_session, found[0].id, token_hash(token))
        return SignedIn(found[0], token)

    async def who(self, token: str | None) -> Account | None:
        """The account signed in by a session cookie's ``token``, if it is still valid."""
        if not token or len(token) > 200:
            return None
        return await self.service.live.db(self.store.session, token_hash(token), self.lapse)

    async def choose_language(self, account: Account, language: str) -> None:
        """Keep ``language`` as the choice of ``account``, for its other browsers."""
        await self.service.live.db(self.store.set_language, account.id, language)

    async def sign_out(self, token: str) -> None:
        """Revoke this browser's session (its open games reconnect: :meth:`reconnect`)."""
        account = await self.who(token)
        await self.service.live.db(self.store.end_session, token_hash(token))
        if account is not None:
            await self.reconnect(account)

    async def sign_out_everywhere(self, account: Account) -> int:
        """Revoke every session of ``account``, a copied cookie's included, and close the
        open connections to its seats (:meth:`reconnect`)."""
        count = await self.service.live.db(self.store.end_sessions, account.id)
        await self.reconnect(account)
        return count

    async def reconnect(self, account: Account) -> None:
        """Close the open connections to the seats ``account`` holds in the games this
        process has in memory, as "reconnect now": each page comes back at once, and
        only a browser that still holds the seat (by its own token, or by a session not
        revoked) is seated again, so that a revoked session keeps no open game."""
        for game_id in await self.games(account):
            game = self.service.live.games.get(game_id)
            if game is None or not game.clients:
                continue
            holders = await self.service.live.db(self.store.holders, game_id)
            seat = game.seat_of_account(account.id, holders)
            for client in list(game.clients):
                if client.seat == seat:
                    client.close()

    # -- what a signed-in player may do with their password ---------------------

    async def _confirm(self, account: Account, password: str, host: str) -> None:
        stored = await self.service.live.db(self.store.password_of, account.id)
        if stored is None:
            raise AccountError(DELETED, 410)
        await self._checked(names.skeleton(account.name), stored, password, host,
                            WRONG_PASSWORD, "password")

    async def new_codes(self, account: Account, password: str, host: str) -> list[str]:
        """A new set of recovery codes (the old ones stop working), shown once."""
        await self._confirm(account, password, host)
        codes = new_codes()
        await self.service.live.db(self.store.replace_codes, account.id,
                                   [code_key(c) for c in codes])
        return codes

    async def delete(self, account: Account, password: str, host: str) -> list[str]:
        """Delete ``account`` (its password confirmed): its sessions, codes and row go,
        and the games it claimed keep their moves with its name replaced. The games
        live in memory are held still meanwhile and then dropped, so they are read
        again as stored (their pages reconnect)."""
        await self._confirm(account, password, host)
        games = await self.service.live.db(self.store.games, account.id)
        live = [g for g in (self.service.live.games.get(i) for i in games) if g is not None]
        async with AsyncExitStack() as held:
            for game in sorted(live, key=lambda g: g.id):
                await held.enter_async_context(game.lock)
            changed = await self.service.live.db(self.store.delete, account.id)
            for game in live:
                self.service.live.drop(game)
        return changed

    async def claim(self, account: Account, browser: str | None) -> int:
        """Make the games this browser holds seats in the account's; how many seats."""
        if not browser:
            return 0
        return await self.service.live.db(self.store.claim, account.id, token_hash(browser))

    async def games(self, account: Account) -> list[str]:
        """The games ``account`` claimed."""
        return await self.service.live.db(self.store.games, account.id)

    async def codes_left(self, account: Account) -> int:
        """How many recovery codes ``account`` has left."""
        return await self.service.live.db(self.store.codes_left, account.id)
