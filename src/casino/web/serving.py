"""What ``casino serve --workers N`` hands to its worker processes, and the app each makes.

With several workers uvicorn binds the port in its parent process and starts N
processes that each import the app by name (:func:`worker_app`, a factory); an app
object cannot be handed to them. So ``serve`` writes its settings (database, thinking
processes, computers' pause, limits) as JSON into the environment variable
:data:`ENV`, which the workers inherit, and each worker's factory reads them back and
makes the app exactly as ``serve`` would have made it for one process.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from casino.web.limits import Limits

if TYPE_CHECKING:
    from fastapi import FastAPI

#: The environment variable that carries the settings to the worker processes.
ENV = "CASINO_SERVE_SETTINGS"


@dataclass(frozen=True)
class ServeSettings:
    """How ``casino serve`` makes its app: the same in every worker process."""

    database_url: str
    pool_workers: int = 1
    bot_pause: float = 0.6
    limits: Limits = field(default_factory=Limits)

    def to_json(self) -> str:
        """The settings as JSON (the limits whole, so a worker needs no defaults of its own)."""
        return json.dumps({"database_url": self.database_url, "pool_workers": self.pool_workers,
                           "bot_pause": self.bot_pause,
                           "limits": dataclasses.asdict(self.limits)})

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        """The settings :meth:`to_json` wrote; ValueError with words when they are not."""
        try:
            data: Any = json.loads(text)
            limits = Limits(**data.get("limits", {}))
            return cls(database_url=str(data["database_url"]),
                       pool_workers=int(data.get("pool_workers", 1)),
                       bot_pause=float(data.get("bot_pause", 0.6)), limits=limits)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"{ENV} does not hold the settings of casino serve: {exc}") from None


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
    settings = ServeSettings.from_json(text)
    from casino.web.app import create_app

    return create_app(settings.database_url, pool_workers=settings.pool_workers,
                      limits=settings.limits, bot_pause=settings.bot_pause)


__all__ = ["ENV", "ServeSettings", "trusted_proxies", "worker_app"]
