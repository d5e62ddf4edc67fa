"""The web server's settings: one model for ``casino serve``, its worker processes and
the migrations, so that each reads the database and the limits the same way.

:class:`ServerSettings` (pydantic-settings) holds the database, the thinking processes,
the computers' pause and the limits. It reads the environment: the database from
:data:`DATABASE_ENV` (``CASINO_DATABASE_URL``), or from the older ``DATABASE_URL``
(:data:`DEPRECATED_DATABASE_ENV`), which still works and logs a warning once per
process. ``casino serve`` hands the same model, as JSON, to its worker processes
(:mod:`casino.web.serving`), and each validates it once.

The limits are grouped by what they guard (:class:`LimitGroups`: the connections,
the rooms, the moves, the thinking, the move helper, the reviews, the storage), each
group a model whose fields keep the flat names of :class:`~casino.web.limits.Limits`.
Those flat names stay the operators' interface (``--limit rooms_per_address=5``, also
spelt ``rooms.rooms_per_address=5``), and :meth:`LimitGroups.flat` gives the flat
:class:`~casino.web.limits.Limits` the server's parts read.
"""

from __future__ import annotations

import logging
import os
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from casino.i18n import _
from casino.web.limits import Limits
from casino.web.store import DEFAULT_DATABASE_URL

#: The environment variable naming the games' database (as the migrations always read).
DATABASE_ENV = "CASINO_DATABASE_URL"
#: The older name ``casino serve`` read, still accepted with a warning so that no
#: operator's database moves under them.
DEPRECATED_DATABASE_ENV = "DATABASE_URL"

log = logging.getLogger("casino.web.settings")

_D = Limits()  # the defaults: Limits holds each one once, the groups read them from it


def _whole(value: Any) -> Any:
    """A whole number written out (``"5"``) as the number; ``"5.0"`` is refused, as
    ``int`` refused it before the limits were a model."""
    return int(value) if isinstance(value, str) else value


#: A whole number above 0, as every count and size limit is.
Count = Annotated[int, BeforeValidator(_whole), Field(gt=0)]
#: A finite number above 0, as every rate and time limit is.
Amount = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class _Group(BaseModel):
    """A group of limits: frozen, and an unknown name is an error rather than ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Connections(_Group):
    """What one connection or request may send: sizes, rates, silence; and how many
    connections a game, each of its seats, its spectators and one address may hold."""

    message_bytes: Count = _D.message_bytes
    messages_per_second: Amount = _D.messages_per_second
    message_burst: Count = _D.message_burst
    refused_before_close: Count = _D.refused_before_close
    heartbeat_seconds: Amount = _D.heartbeat_seconds
    heartbeat_timeout: Amount = _D.heartbeat_timeout
    connections_per_game: Count = _D.connections_per_game
    game_connections_per_address: Count = _D.game_connections_per_address
    connections_per_address: Count = _D.connections_per_address
    spectators_per_game: Count = _D.spectators_per_game
    body_bytes: Count = _D.body_bytes
    header_seconds: Amount = _D.header_seconds
    body_seconds: Amount = _D.body_seconds
    sockets_per_address: Count = _D.sockets_per_address


class Rooms(_Group):
    """Who may start games and rooms, how many wait at once, and for how long."""

    waiting_rooms: Count = _D.waiting_rooms
    rooms_per_address: Count = _D.rooms_per_address
    rooms_per_network: Count = _D.rooms_per_network
    room_lifetime: Amount = _D.room_lifetime
    games_per_minute: Amount = _D.games_per_minute
    games_burst: Count = _D.games_burst
    name_length: Count = _D.name_length


class Moves(_Group):
    """The players' turns: how long one may be away, and the workers listing their moves."""

    abandon_after: Amount = _D.abandon_after
    select_workers: Count = _D.select_workers
    select_seconds: Amount = _D.select_seconds
    select_memory_mb: Count = _D.select_memory_mb
    select_waiting: Count = _D.select_waiting
    select_per_seat: Count = _D.select_per_seat


class Thinking(_Group):
    """The computers' moves and the hints: time, memory, leases, and the hints' rate."""

    think_seconds: Amount = _D.think_seconds
    think_memory_mb: Count = _D.think_memory_mb
    lease_seconds: Amount = _D.lease_seconds
    hints_per_minute: Amount = _D.hints_per_minute
    hint_burst: Count = _D.hint_burst
    hint_queue: Count = _D.hint_queue
    hint_wait: Amount = _D.hint_wait


class Helper(_Group):
    """The move helper's worker processes (``POST /api/helper``)."""

    helper_workers: Count = _D.helper_workers
    helper_seconds: Amount = _D.helper_seconds
    helper_memory_mb: Count = _D.helper_memory_mb
    helper_waiting: Count = _D.helper_waiting
    helper_per_player: Count = _D.helper_per_player


class Reviews(_Group):
    """The post-game reviews' worker processes, and how many one player may ask for."""

    review_workers: Count = _D.review_workers
    review_seconds: Amount = _D.review_seconds
    review_memory_mb: Count = _D.review_memory_mb
    review_waiting: Count = _D.review_waiting
    reviews_per_player: Count = _D.reviews_per_player


class Accounts(_Group):
    """Accounts: the sign-in limits, the password hashing's cost, how long a session lasts."""

    signin_failures_per_account: Count = _D.signin_failures_per_account
    signin_failures_per_network: Count = _D.signin_failures_per_network
    signin_window: Amount = _D.signin_window
    signups_per_network: Count = _D.signups_per_network
    password_hashes_at_once: Count = _D.password_hashes_at_once
    password_time_cost: Count = _D.password_time_cost
    password_memory_kib: Count = _D.password_memory_kib
    password_lanes: Count = _D.password_lanes
    session_days: Amount = _D.session_days


class Chat(_Group):
    """The chat: how long a message may be, how often one player may chat and report,
    and how many messages a page is sent and a report keeps."""

    chat_length: Count = _D.chat_length
    chat_per_minute: Amount = _D.chat_per_minute
    chat_burst: Count = _D.chat_burst
    chat_history: Count = _D.chat_history
    chat_report_context: Count = _D.chat_report_context
    chat_reports_per_minute: Amount = _D.chat_reports_per_minute
    chat_report_burst: Count = _D.chat_report_burst


class Storage(_Group):
    """The games in memory and the threads that do the database's work."""

    live_games: Count = _D.live_games
    db_threads: Count = _D.db_threads


class LimitGroups(_Group):
    """Every limit of :class:`~casino.web.limits.Limits`, grouped by what it guards."""

    connections: Connections = Connections()
    rooms: Rooms = Rooms()
    moves: Moves = Moves()
    thinking: Thinking = Thinking()
    helper: Helper = Helper()
    reviews: Reviews = Reviews()
    storage: Storage = Storage()
    accounts: Accounts = Accounts()
    chat: Chat = Chat()

    def flat(self) -> Limits:
        """The flat :class:`~casino.web.limits.Limits` the server's parts read."""
        values: dict[str, Any] = {}
        for group in GROUPS:
            values.update(getattr(self, group).model_dump())
        return Limits(**values)

    @classmethod
    def from_flat(cls, limits: Limits) -> LimitGroups:
        """The groups holding the flat ``limits`` (validated: each above 0 and finite)."""
        grouped: dict[str, dict[str, Any]] = {group: {} for group in GROUPS}
        for name, group in GROUP_OF.items():
            grouped[group][name] = getattr(limits, name)
        return cls.model_validate(grouped)


def _group_fields(info: FieldInfo) -> list[str]:
    """The limits' names in the group that ``info`` (a field of LimitGroups) holds."""
    model = info.annotation
    assert isinstance(model, type) and issubclass(model, _Group)
    return list(model.model_fields)


#: The groups, in order.
GROUPS: tuple[str, ...] = tuple(LimitGroups.model_fields)
#: Each limit's flat name (the operators' name for it) and the group it belongs to.
GROUP_OF: dict[str, str] = {name: group for group, info in LimitGroups.model_fields.items()
                            for name in _group_fields(info)}


def _takes_whole(name: str) -> bool:
    """Whether the limit ``name`` takes a whole number (else any number)."""
    info = LimitGroups.model_fields[GROUP_OF[name]]
    model = info.annotation
    assert isinstance(model, type) and issubclass(model, _Group)
    return model.model_fields[name].annotation is int


def limits_from(settings: list[str], base: Limits | None = None) -> Limits:
    """``base`` (the defaults) with ``NAME=VALUE`` settings, as ``casino serve --limit``
    gives, each checked by the :class:`LimitGroups` model.

    NAME is a limit's flat name (``rooms_per_address``) or the same under its group
    (``rooms.rooms_per_address``). A name that is no limit, or a value that is not a
    positive finite number of the limit's kind, raises ValueError naming the limit and
    saying why, before anything starts.
    """
    grouped = LimitGroups.from_flat(base or Limits()).model_dump()
    for setting in settings:
        name, sep, text = setting.partition("=")
        name, text = name.strip(), text.strip()
        if not sep:
            raise ValueError(_("a limit is NAME=VALUE, as rooms_per_address=5, not %(setting)s")
                             % {"setting": repr(setting)})
        group, dot, short = name.rpartition(".")
        if dot and GROUP_OF.get(short) == group:
            name = short
        if name not in GROUP_OF:
            raise ValueError(_("there is no limit %(name)s; the limits are %(limits)s")
                             % {"name": repr(name), "limits": ", ".join(sorted(GROUP_OF))})
        grouped[GROUP_OF[name]][name] = text
        try:
            LimitGroups.model_validate(grouped)
        except ValidationError as exc:
            raise ValueError(_refusal(name, text, exc)) from None
    return LimitGroups.model_validate(grouped).flat()


def _refusal(name: str, text: str, exc: ValidationError) -> str:
    """Why the limit ``name`` cannot be ``text``, in the command's words."""
    kinds = {error["type"] for error in exc.errors()}
    if kinds & {"greater_than", "finite_number"} or text.lower() in {"nan", "inf", "-inf"}:
        return _("the limit %(name)s must be more than 0, not %(text)s") % {
            "name": name, "text": text}
    if _takes_whole(name):
        return _("the limit %(name)s takes a whole number, not %(text)s") % {
            "name": name, "text": repr(text)}
    return _("the limit %(name)s takes a number, not %(text)s") % {"name": name,
                                                                   "text": repr(text)}


class _DatabaseFromEnvironment(PydanticBaseSettingsSource):
    """The database the environment names: :data:`DATABASE_ENV`, else the deprecated
    :data:`DEPRECATED_DATABASE_ENV` with a warning (once per process) to rename it. Only
    the database: the other settings come from ``casino serve``'s options, so a stray
    ``CASINO_POOL_WORKERS`` changes nothing; an empty variable counts as unset, as it
    always has."""

    warned = False

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: :meth:`__call__` reads the two variables itself."""
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        """``{"database_url": ...}`` from the environment, unless it was given."""
        if "database_url" in self.current_state:
            return {}
        value = os.environ.get(DATABASE_ENV)
        if value:
            return {"database_url": value}
        value = os.environ.get(DEPRECATED_DATABASE_ENV)
        if not value:
            return {}
        if not _DatabaseFromEnvironment.warned:
            _DatabaseFromEnvironment.warned = True
            log.warning("%s is deprecated: name the database with %s instead",
                        DEPRECATED_DATABASE_ENV, DATABASE_ENV)
        return {"database_url": value}


class ServerSettings(BaseSettings):
    """How ``casino serve`` makes its app, the same in every worker process, and which
    database the migrations upgrade. Of the environment it reads only the database
    (:data:`DATABASE_ENV`, else :data:`DEPRECATED_DATABASE_ENV`); the rest comes from
    ``casino serve``'s options, and to a worker process as this model's JSON."""

    model_config = SettingsConfigDict(extra="forbid", frozen=True)

    #: The SQLAlchemy URL of the games' database (``CASINO_DATABASE_URL``).
    database_url: str = DEFAULT_DATABASE_URL
    #: Processes that think for the computers (0: a thread in the server).
    pool_workers: int = Field(default=1, ge=0)
    #: The least time a computer's move takes, so that people can follow it.
    bot_pause: float = Field(default=0.6, ge=0, allow_inf_nan=False)
    #: Every limit, grouped by what it guards.
    limits: LimitGroups = LimitGroups()
    #: The accounts' names that may read the chat's reports (``--admin``).
    admins: tuple[str, ...] = ()

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """What is given first, then the database the environment names; no .env or
        secrets files (the server never read any)."""
        del env_settings, dotenv_settings, file_secret_settings  # all but the database
        return init_settings, _DatabaseFromEnvironment(settings_cls)


def database_from_environment() -> str:
    """The database the environment names (``CASINO_DATABASE_URL``, else the deprecated
    ``DATABASE_URL``, else ./casino.db), for the migrations' ``alembic`` command and
    servers started without ``--database``."""
    return ServerSettings().database_url


__all__ = ["DATABASE_ENV", "DEPRECATED_DATABASE_ENV", "GROUPS", "GROUP_OF", "Chat",
           "Connections", "Helper", "LimitGroups", "Moves", "Reviews", "Rooms", "ServerSettings",
           "Storage", "Thinking", "database_from_environment", "limits_from"]
