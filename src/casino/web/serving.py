"""What ``casino serve --workers N`` hands to its worker processes, and the app each makes.

With several workers uvicorn binds the port in its parent process and starts N
processes that each import the app by name (:func:`worker_app`, a factory); an app
object cannot be handed to them. So ``serve`` writes its settings (database, thinking
processes, computers' pause, limits: :class:`~casino.web.settings.ServerSettings`, the
model ``serve`` made) as that model's JSON into the environment variable :data:`ENV`,
which the workers inherit; each worker's factory validates it once, by the same model,
and makes the app exactly as ``serve`` would have made it for one process.
"""

from __future__ import annotations

import ipaddress
import os
from typing import TYPE_CHECKING

from pydantic import ValidationError

from casino.web.settings import ServerSettings

if TYPE_CHECKING:
    from fastapi import FastAPI

#: The environment variable that carries the settings to the worker processes.
ENV = "CASINO_SERVE_SETTINGS"


def settings_from_json(text: str) -> ServerSettings:
    """The settings ``serve`` wrote into :data:`ENV` (``model_dump_json``), validated by
    the model; ValueError naming :data:`ENV` and the faults when they are not."""
    try:
        return ServerSettings.model_validate_json(text)
    except ValidationError as exc:
        faults = "; ".join(f"{'.'.join(str(part) for part in error['loc']) or 'the whole'}: "
                           f"{error['msg']}" for error in exc.errors())
        raise ValueError(f"{ENV} does not hold the settings of casino serve: {faults}"
                         ) from None


def trusted_proxies(text: str | None) -> str | None:
    """The reverse proxies of ``--forwarded-allow-ips`` in uvicorn's form: addresses or
    networks separated by commas (``127.0.0.1``, ``10.0.0.0/8``, ``::1``), or ``*`` for
    any (only where nothing but the proxy can reach the server). None or empty: none.

    ValueError with words for anything else: uvicorn would take an unknown word as a
    name it never matches, and the limits would silently count the proxy's address.
    """
    if text is None or not text.strip():
        return None
    items = [item.strip() for item in text.split(",") if item.strip()]
    for item in items:
        if item == "*":
            continue
        try:
            if "/" in item:
                ipaddress.ip_network(item, strict=False)
            else:
                ipaddress.ip_address(item)
        except ValueError:
            raise ValueError(
                f"--forwarded-allow-ips: {item!r} is not an address or a network (as "
                f"127.0.0.1, 10.0.0.0/8 or ::1), nor *") from None
    return "*" if "*" in items else ",".join(items)  # uvicorn trusts all only for "*" alone


def worker_app() -> FastAPI:
    """The app of one worker process of ``casino serve --workers N`` (uvicorn's factory),
    made from the settings in :data:`ENV`."""
    text = os.environ.get(ENV)
    if text is None:
        raise RuntimeError(f"{ENV} is not set: worker_app is started by casino serve --workers")
    settings = settings_from_json(text)
    from casino.web.app import create_app
    from casino.web.slow import configure

    configure(settings.limits.flat())  # this process's connections: the same deadlines
    return create_app(settings.database_url, pool_workers=settings.pool_workers,
                      limits=settings.limits.flat(), bot_pause=settings.bot_pause,
                      admins=settings.admins)


__all__ = ["ENV", "settings_from_json", "trusted_proxies", "worker_app"]
