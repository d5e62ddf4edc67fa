"""The web game (``casino serve``): a FastAPI app, its storage and its browser client.

:func:`create_app` builds the app; :func:`serve` runs it with uvicorn. The
server is the only authority: browsers hold a seat through a secret cookie and
are sent only what their seat may see (docs/server.md). Both are imported on
first use, so that ``casino`` commands other than ``serve`` never load FastAPI,
uvicorn or SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from casino.web.app import create_app, serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from casino.web import app

        return getattr(app, name)
    raise AttributeError(f"module 'casino.web' has no attribute {name!r}")
