"""Challenges (issue 46; docs/server.md, "Pairing"): a room for friends sent to a player
by their account's name.

A challenge is a room like any other, in the games table: no table of its own, so no
migration, and every process sees it. What makes it one is stored where rooms already
keep their seats and invites:

* its second seat, while free, bears the addressee's account name (a free seat is
  otherwise "Player 2", and a guest's name never passes for an account's), and
* its invite begins with :data:`CHALLENGE`, a character the random part never holds
  (:func:`secrets.token_urlsafe` writes letters, digits, ``-`` and ``_``), so that an
  account named "Player 2" is not sent every room.

The addressee finds it in the lobby's "challenges for you", and accepts by its invite
(only the addressee, signed in, may take that seat: :func:`check_addressee`) or declines
(the room is withdrawn); the challenger sees it among their open rooms until then, and
may withdraw it so too. A challenger keeps at most :data:`MAX_CHALLENGES` waiting.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.i18n import _, ngettext, pgettext, pN_
from casino.web.accounts.names import skeleton
from casino.web.accounts.store import Account, AccountGameRow, AccountStore, RatingRow
from casino.web.errors import GameError
from casino.web.store import WAITING, GameRow, Listed, SeatRow, Store, now, stored_names
from casino.web.table_words import challenge_declined, challenge_withdrawn

if TYPE_CHECKING:
    from casino.web.rooms import Created
    from casino.web.service import GameService

#: What a challenge's invite begins with (never a character of the random part).
CHALLENGE = "~"
#: How many challenges a challenger keeps waiting at once.
MAX_CHALLENGES = 5
#: The refusals, in words (in English here, shown in the asker's language: the lobby
#: shows them as they come, ``pgettext("challenge", ...)`` where they are raised).
SIGN_IN_TO_CHALLENGE = pN_("challenge", "sign in to send a challenge: it comes from your "
                                        "account, and goes to another's")
YOURSELF = pN_("challenge", "\"name\": that is your own name: challenge someone else")
NOT_THE_ADDRESSEE = pN_("challenge", "this challenge is for %(name)s: only they may accept "
                                     "it, signed in")
NOT_YOURS = pN_("challenge", "this is not a challenge of yours to decline: only its "
                             "challenger and the player it is for may")


def refusal(words: str, **values: object) -> str:
    """One of this module's refusals in the language in force, ``values`` put in."""
    said = pgettext("challenge", words)
    return said % values if values else said


def unknown_name(name: str) -> str:
    """The refusal of a challenge to a name no account has."""
    return _("\"name\": there is no player named %(name)s: check the spelling") % {
        "name": repr(name[:30])}


def too_many(n: int) -> str:
    """The refusal of a challenge beyond :data:`MAX_CHALLENGES`."""
    return ngettext("you have %(num)s challenge waiting already: wait for an answer, or "
                    "withdraw it",
                    "you have %(num)s challenges waiting already: wait for an answer, or "
                    "withdraw one", n) % {"num": n}


def check_addressee(code: str, seat: int, name: str, account: Account | None) -> None:
    """Refuse a challenge's addressed seat (the second) to anyone but the account it
    is for, signed in."""
    if code.startswith(CHALLENGE) and seat == 1 and (account is None or account.name != name):
        raise GameError(refusal(NOT_THE_ADDRESSEE, name=name), 403)


def challenges_for(store: Store, name: str, since: dt.datetime,
                   limit: int = 50) -> list[Listed]:
    """The challenges sent to the account named ``name`` still waiting (made after
    ``since``), newest first. In a database thread."""
    with Session(store.engine) as s:
        rows = list(s.scalars(
            select(GameRow).join(SeatRow, SeatRow.game == GameRow.id)
            .where(SeatRow.seat == 1, SeatRow.name == name, SeatRow.token_hash.is_(None),
                   GameRow.status == WAITING, GameRow.created >= since,
                   GameRow.invite.startswith(CHALLENGE, autoescape=True))
            .order_by(GameRow.created.desc()).limit(limit)))
        return [Listed(id=r.id, rules=r.rules, players=r.players, mode=r.mode,
                       status=r.status, public=r.public, invite=r.invite,
                       names=tuple(stored_names(r.names)), winner=r.winner,
                       created=r.created, updated=r.updated) for r in rows]


def described(store: Store, entries: Sequence[dict[str, Any]]) -> None:
    """Fill in the lobby's entries (:class:`~casino.web.bodies.Listed`): whether each
    game is rated, a waiting room's creator's rating in its pool (None: new there, or a
    guest), whether that creator is a guest, and a challenge's addressee. In a database
    thread; a few queries for the whole list."""
    ids = list({e["game"] for e in entries})
    if not ids:
        return
    with Session(store.engine) as s:
        games = {r.id: r for r in s.execute(
            select(GameRow.id, GameRow.rated, GameRow.creator_seat, GameRow.invite)
            .where(GameRow.id.in_(ids)))}
        creators = {g: a for g, seat, a in s.execute(
            select(AccountGameRow.game, AccountGameRow.seat, AccountGameRow.account)
            .where(AccountGameRow.game.in_(ids))) if games[g].creator_seat == seat}
        ratings = {(a, p, n): r for a, p, n, r in s.execute(
            select(RatingRow.account, RatingRow.preset, RatingRow.players, RatingRow.rating)
            .where(RatingRow.account.in_(sorted(set(creators.values())))))}
    for e in entries:
        row = games.get(e["game"])
        if row is None:
            continue
        e["rated"] = bool(row.rated)
        if e["status"] == WAITING:
            account = creators.get(e["game"])
            e["guest"] = account is None
            rating = (ratings.get((account, e["rules"], e["players"]))
                      if account is not None else None)
            e["rating"] = None if rating is None else round(rating)
            if row.invite and row.invite.startswith(CHALLENGE):
                e["challenge"] = e["names"][1] if len(e["names"]) > 1 else None


class Challenges:
    """Sending and declining challenges, for one app's service."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.accounts = AccountStore(service.store)

    def send(self, *, name: str, rules: str, players: int, rated: bool,
             account: Account | None, token: str | None, client: str,
             clock: Mapping[str, Any] | None = None) -> Created:
        """A challenge from ``account`` to the account named ``name``: a room for
        friends whose second seat is theirs, with the time control ``clock`` (None:
        none). In a database thread."""
        if account is None:
            raise GameError(refusal(SIGN_IN_TO_CHALLENGE), 403)
        found = self.accounts.find(skeleton(name))
        if found is None:
            raise GameError(unknown_name(name))
        if found[0].id == account.id:
            raise GameError(refusal(YOURSELF))
        waiting = self._waiting_of(account.id)
        if waiting >= MAX_CHALLENGES:
            raise GameError(too_many(waiting), 429)
        return self.service.rooms.create(
            rules=rules, players=players, level="medium", mode="friends", name=None,
            public=False, people=players, client=client, token=token, account=account,
            rated=rated, addressee=found[0].name, clock=clock)

    def _waiting_of(self, account: str) -> int:
        """How many of ``account``'s challenges still wait."""
        since = now() - dt.timedelta(seconds=self.service.limits.room_lifetime)
        with Session(self.service.store.engine) as s:
            n = s.scalar(
                select(func.count()).select_from(GameRow)
                .join(AccountGameRow, AccountGameRow.game == GameRow.id)
                .where(AccountGameRow.account == account,
                       AccountGameRow.seat == GameRow.creator_seat,
                       GameRow.status == WAITING, GameRow.created >= since,
                       GameRow.invite.startswith(CHALLENGE, autoescape=True)))
            return int(n or 0)

    async def decline(self, game_id: str, account: Account | None) -> bool:
        """Withdraw the challenge ``game_id``, declined by its addressee or withdrawn by
        its challenger; GameError when ``account`` is neither (or it is no challenge);
        False when it no longer waits."""
        from casino.web.pairing import withdraw_room

        live = self.service.live
        game = await live.get(game_id[:64])
        if game is None or account is None or not (game.invite or "").startswith(CHALLENGE):
            raise GameError(refusal(NOT_YOURS), 403)
        holders = await live.db(self.accounts.holders, game.id)
        if holders.get(game.creator_seat) == account.id:
            say: Callable[[str], str] = challenge_withdrawn
        elif game.session.names[1] == account.name and game.seats.get(1) is None:
            say = functools.partial(challenge_declined, account.name)
        else:
            raise GameError(refusal(NOT_YOURS), 403)
        return await withdraw_room(game, say)
