"""No secrets in the logs: an invite link's code never reaches a log line.

The invite code of ``/join/<id>/<code>`` is a room's key (whoever has the link
takes a free seat), and uvicorn's access log writes every request's path, so a
log file or a shared terminal would hand out the room. The other secrets never
travel in a URL the server sees: seat tokens are cookies, a stored score pad's
secret is a header (and the link's fragment, which browsers do not send), and
``serve`` cuts the database password out of its messages.
"""

from __future__ import annotations

import logging
import re
from typing import Any

#: What stands in for a removed secret.
REDACTED = "…"
#: The loggers that may print a request's path: uvicorn's access and error logs, and ours.
LOGGERS = ("uvicorn.access", "uvicorn.error", "casino.web")

# The join route's code is one path segment after the game id (the router takes no "/"
# in it); the id is kept, it is public in the lobby and the game's own URL.
_JOIN = re.compile(r"(/join/[^/\s?#\"]*/)[^/\s?#\"]+")


def redact(text: str) -> str:
    """``text`` with the code of every invite link in it replaced by :data:`REDACTED`."""
    return _JOIN.sub(lambda m: m.group(1) + REDACTED, text)


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and arguments before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message and arguments with the secrets hidden; the record is
        always kept."""
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


def install_log_redaction() -> None:
    """Put the filter on :data:`LOGGERS` (once each: calling again changes nothing).

    A logger's filters outlive uvicorn's logging configuration, which replaces
    handlers, so installing before ``uvicorn.run`` is enough.
    """
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
